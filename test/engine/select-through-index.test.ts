/**
 * A selection on linked columns is tested once per row of the linked table and read through the
 * link's row index (interpret/select-through-index.ts). It must keep exactly the rows that
 * testing every worksheet row would keep: unmatched rows (index -1) are N/A in every linked
 * column, and candidates left by an earlier selection stay in order.
 */
import { expect } from 'chai'
import { Rng, randomFloatColumn, randomIntColumn, randomTextColumn } from '../../engine/columns/random.js'
import { parseExpr } from '../../engine/expr/index.js'
import { evalExpr, toMask } from '../../engine/interpret/eval.js'
import { rowsThroughIndex } from '../../engine/interpret/select-through-index.js'
import { selectRows } from '../../engine/interpret/select.js'
import { newColumn, Worksheet } from '../../engine/interpret/worksheet.js'
import { columnsOf, runXml, tableOfColumns } from '../helpers/engine.js'

const rng = new Rng(31)
const DIM = 300
const ROWS = 5_000
const dim = new Worksheet(DIM, [
  newColumn('t', randomTextColumn(rng, DIM, ['ant', 'bee', 'cat', 'dog'], { na: 0.1 })),
  newColumn('i', randomIntColumn(rng, DIM, -5, 5, { na: 0.1 })),
  newColumn('f', randomFloatColumn(rng, DIM, -5, 5, { na: 0.1, decimals: 1 })),
  newColumn('d', randomIntColumn(rng, DIM, 20240101, 20240110, { na: 0.1 }, 'date')),
])
// Each worksheet row reads a dimension row, or none (-1) for one row in ten.
const match = Int32Array.from({ length: ROWS }, () => (rng.next() < 0.1 ? -1 : rng.int(0, DIM - 1)))
const linked = dim.selectRows(match)
// The same rows with every column gathered (reading a column keeps it gathered, so a worksheet
// of its own: `linked` must keep reading through the index).
const gathered = (): Worksheet => {
  const ws = dim.selectRows(match)
  return ws.withColumns(ws.cols.map((c) => newColumn(c.name, c.data())))
}

const EXPRESSIONS = [
  "t='bee'",
  "t<>'bee'",
  "t=''",
  "t='ant' 'dog'",
  "t>'bee'",
  'i>2',
  'i<=0',
  'i=1 2 3',
  'f<0',
  'f<>1.5',
  'd>=20240105',
  "i>0 & t='cat'",
  "~(t='bee' | f>1)",
  'if(i>0;f;-f)>1 | strlen(t)=3',
  'between(i;-1;1)',
  'i',
]

function everyRow(text: string, candidates: Int32Array | null): number[] {
  const mask = toMask(evalExpr(parseExpr(text), gathered()), ROWS)
  const rows = candidates === null ? [...mask.keys()] : Array.from(candidates)
  return rows.filter((r) => mask[r] === 1)
}

describe('selections through a link index', () => {
  const candidates = Int32Array.from({ length: ROWS }, (_, r) => r).filter((r) => r % 3 !== 0)
  for (const text of EXPRESSIONS) {
    it(`keeps the rows of testing every row: ${text}`, () => {
      const all = rowsThroughIndex(parseExpr(text), linked, null)
      expect(all, 'the index path applies').to.not.equal(null)
      expect(Array.from(all!)).to.deep.equal(everyRow(text, null))
      expect(Array.from(rowsThroughIndex(parseExpr(text), linked, candidates)!)).to.deep.equal(everyRow(text, candidates))
      expect(Array.from(selectRows(parseExpr(text), linked))).to.deep.equal(everyRow(text, null))
    })
  }

  it('does not apply to row positions, to columns read whole, or to a table as large as the worksheet', () => {
    expect(rowsThroughIndex(parseExpr('i_()<10'), linked, null)).to.equal(null)
    expect(rowsThroughIndex(parseExpr('i>0'), gathered(), null)).to.equal(null)
    expect(rowsThroughIndex(parseExpr('i>0'), dim.selectRows(match.subarray(0, 2 * DIM)), null)).to.equal(null)
  })

  it('answers a <link> then a <sel> on linked columns as when the columns are read first', () => {
    const orders = tableOfColumns('orders', {
      k: randomIntColumn(rng, 4_000, 0, 330, { na: 0.05 }),
      v: randomIntColumn(rng, 4_000, 0, 100, { na: 0.05 }),
    })
    const products = tableOfColumns('products', {
      k: { type: 'int', data: Int32Array.from({ length: 300 }, (_, i) => i) },
      cat: randomTextColumn(rng, 300, ['toys', 'games', 'food'], { na: 0.1 }),
      w: randomFloatColumn(rng, 300, 0, 10, { na: 0.1, decimals: 1 }),
    })
    const link = '<base table="orders"/><sel value="v&gt;10"/><link table2="products" col="k" cols="cat,w"/>'
    const readFirst = '<willbe name="read_" value="if(cat=\'x\' | w&gt;0;1;0)"/>'
    for (const sel of ["cat='toys' 'games'", 'w&gt;5', "cat=''", "~(cat='food') &amp; w&lt;8"]) {
      const pushed = runXml(`${link}<sel value="${sel}"/><colord cols="k,v,cat,w"/>`, [orders, products])
      const whole = runXml(`${link}${readFirst}<sel value="${sel}"/><colord cols="k,v,cat,w"/>`, [orders, products])
      expect(columnsOf(pushed), sel).to.deep.equal(columnsOf(whole))
      expect(pushed.rowCount, sel).to.be.greaterThan(0)
    }
  })
})
