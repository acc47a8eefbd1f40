/**
 * `<link type="asof">` and `keepcols` (issue 21, item 5). asof: each row takes the foreign row whose last key is the
 * greatest not above its own, among the foreign rows whose other keys equal its (1010data's
 * cookbook recipe "Linking columns of tables on closest match": daily sales linked to weekly
 * inventory by date, and by sku and date). Of foreign rows tied on that key the first is taken;
 * an N/A last key matches nothing; every row is kept. Checked against a slow reference on random
 * tables, through the interpreter and split over parts, and the recipe's shape by hand.
 * keepcols="1" brings the foreign key columns too (the reference's recommendation: by default
 * they are left out, since they repeat col).
 */
import { expect } from 'chai'
import { asofLookup, columnFromValues } from '../../engine/columns/index.js'
import { Rng } from '../../engine/columns/random.js'
import { AppError } from '../../shared/errors.js'
import { columnsOf, makeTable, runXml, type Cell } from '../helpers/engine.js'
import { checkedOps, expectIdentical, interpreted, split, taskOf } from './parallel-harness.js'

type Key = number | string | null

/** The reference: scan every foreign row. */
function reference(foreign: readonly Key[][], probe: readonly Key[][]): number[] {
  const last = foreign.length - 1
  const rows = foreign[0]?.length ?? 0
  return (probe[0] ?? []).map((_, i) => {
    const x = probe[last][i] as number | null
    if (x === null) return -1
    let best = -1
    for (let r = 0; r < rows; r++) {
      if (foreign.slice(0, last).some((col, c) => col[r] !== probe[c][i])) continue
      const v = foreign[last][r] as number | null
      if (v === null || v > x) continue
      if (best < 0 || v > (foreign[last][best] as number)) best = r
    }
    return best
  })
}

describe('link type="asof"', () => {
  it('matches the greatest last key not above the row’s, other keys equal, on 300 random cases', () => {
    const rng = new Rng(2114)
    for (let t = 0; t < 300; t++) {
      const exact = rng.int(0, 2)
      const rows = rng.int(0, 30)
      const probes = rng.int(0, 30)
      const lastType = rng.pick(['int', 'float', 'date'] as const)
      const exactTypes = Array.from({ length: exact }, () => rng.pick(['int', 'text'] as const))
      const value = (type: 'int' | 'float' | 'date' | 'text'): Key =>
        rng.chance(0.1)
          ? null
          : type === 'text'
            ? rng.pick(['a', 'b', 'c'])
            : type === 'float'
              ? rng.int(-8, 8) / 2
              : type === 'date'
                ? 20240101 + rng.int(0, 9)
                : rng.int(-4, 4)
      const types = [...exactTypes, lastType]
      const foreign = types.map((type) => Array.from({ length: rows }, () => value(type)))
      const probe = types.map((type) => Array.from({ length: probes }, () => value(type)))
      const got = asofLookup(
        types.map((type, c) => columnFromValues(type, foreign[c])),
        rows,
        types.map((type, c) => columnFromValues(type, probe[c])),
        probes,
      )
      expect(Array.from(got), JSON.stringify({ types, foreign, probe })).to.deep.equal(reference(foreign, probe))
    }
  })

  // The recipe's shape: daily sales, weekly inventory counts, linked by sku and date.
  const sales = makeTable('t.sales', [
    { name: 'sku', type: 'int', values: [1, 1, 1, 2, 2, 1, 2] },
    { name: 'trans_date', type: 'date', values: [20240102, 20240108, 20240115, 20240101, 20240110, null, 20240131] },
    { name: 'qty', type: 'int', values: [5, 3, 7, 1, 2, 4, 6] },
  ])
  const inventory = makeTable('t.inv', [
    { name: 'sku', type: 'int', values: [1, 1, 1, 2, 2, 2] },
    { name: 'date', type: 'date', values: [20240101, 20240108, 20240108, 20240103, 20240110, 20240117] },
    { name: 'onhand', type: 'int', values: [100, 90, 91, 50, 45, 40] },
  ])

  it('links daily rows to the latest count on or before their date, by sku and date, keeping every row', () => {
    const xml = '<base table="t.sales"/><link table2="t.inv" col="sku,trans_date" col2="sku,date" suffix="_inv" type="asof"><sort col="date" dir="up"/></link>'
    const r = columnsOf(runXml(xml, [sales, inventory]))
    // sku 1 on 1/2 → the 1/1 count; on 1/8 → the first of the two 1/8 counts; on 1/15 → 1/8 again.
    // sku 2 on 1/1 → none before it; 1/10 → the 1/10 count; 1/31 → 1/17. An N/A date → none.
    expect(r.onhand_inv).to.deep.equal([100, 90, 90, null, 45, null, 40] satisfies Cell[])
    expect(r.date_inv).to.equal(undefined)
    expect(r.qty).to.deep.equal([5, 3, 7, 1, 2, 4, 6])
  })

  it('gives the same answer split over parts', () => {
    const xml = '<base table="t.sales"/><link table2="t.inv" col="sku,trans_date" col2="sku,date" type="asof" cols="onhand"/><sel value="qty>1"/>'
    const ops = checkedOps(xml, [sales, inventory])
    const whole = interpreted(ops, [sales, inventory])
    for (const parts of [2, 3]) {
      const got = split(taskOf(ops, [sales, inventory]), parts, 2)
      expect(got, 'the link is split over parts').to.not.equal(null)
      expectIdentical(got!.result, whole, `${parts} parts`)
    }
  })

  it('refuses a text last key, saying which column', () => {
    let caught: unknown = null
    try {
      runXml(
        '<base table="t.sales"/><willbe name="s" value="\'x\'"/><link table2="t.sales" col="s" col2="s" type="asof" cols="qty" suffix="_2"><willbe name="s" value="\'y\'"/></link>',
        [sales],
      )
    } catch (e) {
      caught = e
    }
    expect(caught).to.be.instanceOf(AppError)
    expect((caught as AppError).message).to.match(/<link type="asof"> matches its last key \(s\) by order: give a number or a date column last, not text/)
  })
})

describe('link keepcols', () => {
  const base = makeTable('t.b', [{ name: 'k', type: 'int', values: [2, 1, 3] }])
  const foreign = makeTable('t.f', [
    { name: 'id', type: 'int', values: [1, 2] },
    { name: 'v', type: 'text', values: ['one', 'two'] },
  ])

  it('brings the foreign key columns with keepcols="1", and not by default (they repeat col)', () => {
    const plain = columnsOf(runXml('<base table="t.b"/><link table2="t.f" col="k" col2="id"/>', [base, foreign]))
    expect(Object.keys(plain)).to.deep.equal(['k', 'v'])
    const kept = columnsOf(runXml('<base table="t.b"/><link table2="t.f" col="k" col2="id" keepcols="1"/>', [base, foreign]))
    expect(kept).to.deep.equal({ k: [2, 1, 3], id: [2, 1, null], v: ['two', 'one', ''] })
    expect(Object.keys(columnsOf(runXml('<base table="t.b"/><link table2="t.f" col="k" col2="id" keepcols="0"/>', [base, foreign])))).to.deep.equal(['k', 'v'])
  })

  it('refuses a keepcols that is not 1 or 0', () => {
    expect(() => runXml('<base table="t.b"/><link table2="t.f" col="k" col2="id" keepcols="yes"/>', [base, foreign])).to.throw(
      /<link keepcols> must be 1 or 0, not 'yes'/,
    )
  })
})
