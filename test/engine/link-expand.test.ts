/**
 * `<link type="expand">` ("Link and expand" in 1010data's User's Guide, Link types): a row is
 * matched to all foreign rows with the same key values and repeated as needed; checked against a
 * slow reference on random tables, and by hand.
 */
import { expect } from 'chai'
import { Rng } from '../../engine/columns/random.js'
import { AppError } from '../../shared/errors.js'
import { columnsOf, makeTable, runXml, type Cell } from '../helpers/engine.js'
import { MAX_EXPANDED_ROWS } from '../../engine/interpret/ops/link-expand.js'

const SALES = makeTable('t.sales', [
  { name: 'cust', type: 'text', values: ['c1', 'c2', 'c3', null] },
  { name: 'amt', type: 'int', values: [10, 20, 30, 40] },
])
const PHONES = makeTable('t.phones', [
  { name: 'cust', type: 'text', values: ['c2', 'c1', 'c2', 'c9', null] },
  { name: 'phone', type: 'text', values: ['p2a', 'p1', 'p2b', 'p9', 'pn'] },
])

describe('link type="expand"', () => {
  it('repeats a row once per matching foreign row, in the foreign order; a row without a match stays once with N/A', () => {
    const r = runXml('<base table="t.sales"/><link table2="t.phones" col="cust" type="expand"/>', [SALES, PHONES])
    expect(columnsOf(r)).to.deep.equal({
      // Text N/A reads as ''.
      cust: ['c1', 'c2', 'c2', 'c3', ''],
      amt: [10, 20, 20, 30, 40],
      // N/A keys match N/A keys, as with the plain link.
      phone: ['p1', 'p2a', 'p2b', '', 'pn'],
    })
  })

  it('applies the link’s own operations to the foreign table first', () => {
    const r = runXml('<base table="t.sales"/><link table2="t.phones" col="cust" type="expand"><sel value="phone<>\'p2a\'"/></link>', [SALES, PHONES])
    expect(columnsOf(r).phone).to.deep.equal(['p1', 'p2b', '', 'pn'])
  })

  it('agrees with a slow reference (every pair of equal keys) on 200 random cases with two keys', () => {
    const rng = new Rng(2105)
    for (let n = 0; n < 200; n++) {
      const rows = rng.int(0, 12)
      const frows = rng.int(0, 12)
      const key = (): Cell => (rng.next() < 0.15 ? null : rng.int(1, 3))
      const a = Array.from({ length: rows }, key)
      const b = Array.from({ length: rows }, key)
      const fa = Array.from({ length: frows }, key)
      const fb = Array.from({ length: frows }, key)
      const fv = Array.from({ length: frows }, (_, i) => i)
      const expected = { a: [] as Cell[], b: [] as Cell[], v: [] as Cell[] }
      for (let i = 0; i < rows; i++) {
        const hits = fv.filter((_, r) => fa[r] === a[i] && fb[r] === b[i])
        for (const v of hits.length === 0 ? [null] : hits) {
          expected.a.push(a[i])
          expected.b.push(b[i])
          expected.v.push(v)
        }
      }
      const mine = makeTable('r.mine', [
        { name: 'a', type: 'int', values: a },
        { name: 'b', type: 'int', values: b },
      ])
      const theirs = makeTable('r.theirs', [
        { name: 'a', type: 'int', values: fa },
        { name: 'b', type: 'int', values: fb },
        { name: 'v', type: 'int', values: fv },
      ])
      const got = columnsOf(runXml('<base table="r.mine"/><link table2="r.theirs" col="a,b" type="expand"/>', [mine, theirs]))
      expect(got, `case ${n}`).to.deep.equal(expected)
    }
  })

  it(`refuses an expansion past ${MAX_EXPANDED_ROWS} rows before making it`, () => {
    const n = 8000
    const ones = makeTable('t.ones', [{ name: 'k', type: 'int', values: new Array<number>(n).fill(1) }])
    try {
      runXml('<base table="t.ones"/><link table2="t.ones" col="k" type="expand" suffix="_2" keepcols="1"/>', [ones])
      expect.fail('expected an error')
    } catch (err) {
      expect(err).to.be.instanceOf(AppError)
      expect((err as AppError).message).to.include(`would make ${n * n} rows`)
    }
  })
})
