/**
 * `<merge>`'s columns (issue 21, item 5): a column only the merged table has comes after the
 * current ones, N/A on the current rows (as a column only the current side has is N/A on the
 * merged rows), whole or split over parts; a bare `<merge/>` is no operation, as the reference
 * recommends (in 1010data it makes a multi-part table one worksheet, which every table is here).
 */
import { expect } from 'chai'
import { columnsOf, makeTable, runXml } from '../helpers/engine.js'
import { checkedOps, expectIdentical, interpreted, split, taskOf } from './parallel-harness.js'

const A = makeTable('t.a', [
  { name: 'k', type: 'int', values: [1, 2, 3] },
  { name: 'only_a', type: 'text', values: ['x', 'y', 'z'] },
])
const B = makeTable('t.b', [
  { name: 'extra', type: 'float', values: [0.5, null] },
  { name: 'k', type: 'int', values: [10, 20] },
  { name: 'word', type: 'text', values: ['p', 'q'] },
])

describe('<merge> columns', () => {
  it('brings the merged table’s own columns after the current ones, N/A on the current rows', () => {
    const r = columnsOf(runXml('<base table="t.a"/><merge table2="t.b"/>', [A, B]))
    expect(Object.keys(r)).to.deep.equal(['k', 'only_a', 'extra', 'word'])
    expect(r).to.deep.equal({
      k: [1, 2, 3, 10, 20],
      only_a: ['x', 'y', 'z', '', ''],
      extra: [null, null, null, 0.5, null],
      word: ['', '', '', 'p', 'q'],
    })
  })

  it('gives the same answer split over parts, and its new columns can be used after the merge', () => {
    const xml = '<base table="t.a"/><merge table2="t.b"/><willbe name="e2" value="extra*2"/><sel value="k>1"/>'
    const ops = checkedOps(xml, [A, B])
    const whole = interpreted(ops, [A, B])
    expect(columnsOf(whole).e2).to.deep.equal([null, null, 1, null])
    for (const parts of [2, 3]) {
      const got = split(taskOf(ops, [A, B]), parts, 1)
      expect(got, 'the merge is split over parts').to.not.equal(null)
      expectIdentical(got!.result, whole, `${parts} parts`)
    }
  })

  it('takes a bare <merge/> as no operation', () => {
    expect(columnsOf(runXml('<base table="t.a"/><merge/><sel value="k>1"/>', [A]))).to.deep.equal({ k: [2, 3], only_a: ['y', 'z'] })
  })
})
