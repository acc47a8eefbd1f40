/**
 * A sort read only by a first-N selection sorts only the candidates for those rows, found by a
 * bound on the first key guessed from a sample (columns/sort.ts) and by the top bits of the packed
 * keys (columns/radix.ts firstPositions, interpret/first-rows.ts). Checked against the full sort on
 * random keys of every type with N/A, ties, both directions and several keys, for limits from 0
 * past the row count, and end to end against the same query written so that it cannot be
 * recognised.
 */
import { expect } from 'chai'
import { sortPermutation, type SortKey } from '../../engine/columns/index.js'
import { Rng, randomDateColumn, randomFloatColumn, randomIntColumn, randomTextColumn } from '../../engine/columns/random.js'
import { firstRowsKept } from '../../engine/interpret/first-rows.js'
import { parseQuery } from '../../engine/parse/index.js'
import { checkQuery, type CheckedOp } from '../../engine/check/index.js'
import { columnsOf, runXml, tableOfColumns } from '../helpers/engine.js'

describe('top-N after a sort', () => {
  const rng = new Rng(1010)
  const ROWS = 20_000
  const cols = {
    i: randomIntColumn(rng, ROWS, -50, 50, { na: 0.1 }),
    wide: randomIntColumn(rng, ROWS, -2_000_000_000, 2_000_000_000, { na: 0.05 }),
    f: randomFloatColumn(rng, ROWS, -100, 100, { na: 0.1, decimals: 2 }),
    raw: { type: 'float' as const, data: Float64Array.from({ length: ROWS }, () => (rng.next() < 0.1 ? Number.NaN : rng.next() * 1e6 - 5e5)) },
    d: randomDateColumn(rng, ROWS, 2020, 2023, { na: 0.1 }),
    t: randomTextColumn(rng, ROWS, ['a', 'b', 'c', 'North', 'South', ''], { na: 0.1 }),
    two: randomIntColumn(rng, ROWS, 0, 1),
  }
  const keySets: Record<string, SortKey[]> = {
    'int up': [{ col: cols.i, desc: false }],
    'int down': [{ col: cols.i, desc: true }],
    'wide int down': [{ col: cols.wide, desc: true }],
    'decimal float down': [{ col: cols.f, desc: true }],
    'raw float up': [{ col: cols.raw, desc: false }],
    'date, text': [
      { col: cols.d, desc: false },
      { col: cols.t, desc: false },
    ],
    'two values (ties everywhere), then float': [
      { col: cols.two, desc: true },
      { col: cols.f, desc: false },
    ],
    'text down, int, wide': [
      { col: cols.t, desc: true },
      { col: cols.i, desc: false },
      { col: cols.wide, desc: false },
    ],
  }

  for (const [name, keys] of Object.entries(keySets)) {
    it(`gives the full sort's first rows: ${name}`, () => {
      const full = sortPermutation(keys, ROWS)
      for (const limit of [0, 1, 7, 100, 1_000, 9_999, ROWS - 1, ROWS, ROWS + 3]) {
        expect([...sortPermutation(keys, ROWS, undefined, limit)], `limit ${limit}`).to.deep.equal([...full.subarray(0, limit)])
      }
      const base = Int32Array.from({ length: ROWS / 2 }, (_, k) => ROWS - 1 - 2 * k)
      const fullOfBase = sortPermutation(keys, ROWS, base)
      expect([...sortPermutation(keys, ROWS, base, 50)], 'over a subset of rows').to.deep.equal([...fullOfBase.subarray(0, 50)])
    })
  }

  const table = tableOfColumns('t', { i: cols.i, f: cols.f, d: cols.d, t: cols.t, two: cols.two })
  const base = '<base table="t"/>'
  for (const [sort, sel, n] of [
    ['<sort col="f" dir="down"/>', 'i_()&lt;=10', 10],
    ['<sort cols="d,t"/>', 'i_()&lt;25', 24],
    ['<sort col="two" dir="down"/><sort col="i"/>', '40&gt;=i_()', 40],
    ['<sort col="t"/>', '10.5&gt;i_()', 10],
    ['<sort col="i"/>', 'i_()&lt;=0', 0],
  ] as const) {
    it(`answers ${sort}<sel value="${sel}"/> like the unrecognisable form`, () => {
      const fast = runXml(`${base}${sort}<sel value="${sel}"/>`, [table])
      const slow = runXml(`${base}${sort}<willbe name="n_" value="i_()"/><sel value="n_&lt;=${n}"/><colord hide="n_" hard="1"/>`, [table])
      expect(fast.rowCount).to.equal(n)
      expect(columnsOf(fast)).to.deep.equal(columnsOf(slow))
    })
  }

  it('recognises only selections that keep exactly the first N rows', () => {
    const schema = new Map([['t', table.columns.map((c) => c.spec)]])
    const selOf = (cond: string): CheckedOp => checkQuery(parseQuery(`${base}<sel value="${cond}"/>`), schema).ops[1]
    expect(firstRowsKept(selOf('i_()<=10'))).to.equal(10)
    expect(firstRowsKept(selOf('i_()<10'))).to.equal(9)
    expect(firstRowsKept(selOf('10>=i_()'))).to.equal(10)
    expect(firstRowsKept(selOf('i_()<=-3'))).to.equal(0)
    for (const other of ['i_()>=10', 'i_()=10', 'i<=10', 'i_()<=i', '(i_()<=10)&(i>0)', 'i_()<>10']) expect(firstRowsKept(selOf(other)), other).to.equal(null)
    expect(firstRowsKept(undefined)).to.equal(null)
  })
})
