/**
 * g_tshift(G;S;T;TS;X;N) (§5.2): X from the row of the group whose time is exactly N periods away,
 * for every kind of time TS names; a gap gives N/A where g_rshift would take the next row along.
 */
import { expect } from 'chai'
import { columnsOf, makeTable, runXml } from '../helpers/engine.js'

const MONTHLY = makeTable('t.monthly', [
  { name: 'store', type: 'text', values: ['a', 'a', 'a', 'b', 'b', 'a'] },
  { name: 'ym', type: 'int', values: [202401, 202402, 202404, 202312, 202401, 202312] },
  { name: 'sales', type: 'float', values: [10, 20, 40, 5, 6, 9] },
])

const shift = (expr: string, table = MONTHLY): unknown[] => columnsOf(runXml(`<base table="${table.path}"/><willbe name="x" value="${expr}"/>`, [table])).x

describe('g_tshift', () => {
  it("takes last month's value by calendar month, N/A across a gap, across the year end", () => {
    expect(shift("g_tshift(store;;ym;'M';sales;-1)")).to.deep.equal([9, 10, null, null, 5, null])
    expect(shift("g_tshift(store;;ym;'M';sales;1)")).to.deep.equal([20, null, null, 6, null, 10])
    expect(shift("g_tshift(store;;ym;'m';sales;2)")).to.deep.equal([null, 40, null, null, null, 20])
  })

  it('differs from g_rshift, which counts rows whatever the gap', () => {
    expect(shift('g_rshift(store;;ym;sales;-1)')).to.deep.equal([9, 10, 20, null, 5, null])
  })

  it('shifts yyyymmdd dates by days, across month ends', () => {
    const t = makeTable('t.daily', [
      { name: 'd', type: 'date', values: [20240229, 20240301, 20240302, 20240304, null] },
      { name: 'v', type: 'int', values: [1, 2, 3, 4, 5] },
    ])
    expect(shift("g_tshift(;;d;'D';v;-1)", t)).to.deep.equal([null, 1, 2, null, null])
    expect(shift("g_tshift(;;d;'D';v;2)", t)).to.deep.equal([3, null, 4, null, null])
  })

  it('shifts yyyyq quarters, hhmmss times and plain periods', () => {
    const t = makeTable('t.q', [
      { name: 'q', type: 'int', values: [20234, 20241, 20242] },
      { name: 'hms', type: 'int', values: [95959, 100000, 100001] },
      { name: 'wk', type: 'int', values: [7, 8, 10] },
      { name: 'v', type: 'text', values: ['x', 'y', 'z'] },
    ])
    expect(shift("g_tshift(;;q;'Q';v;-1)", t)).to.deep.equal(['', 'x', 'y'])
    expect(shift("g_tshift(;;hms;'T';v;1)", t)).to.deep.equal(['y', 'z', ''])
    expect(shift('g_tshift(;;wk;;v;-1)', t)).to.deep.equal(['', 'x', ''])
    expect(shift('g_tshift(;;wk;;v;2)', t)).to.deep.equal(['', 'z', ''])
  })

  it('shifts date+time values by seconds', () => {
    const xml =
      '<table cols="d,t,v">20240101,235959,1;20240102,000000,2;20240102,000002,3</table>' +
      '<willbe name="dt" value="datetime(d;t)"/><willbe name="prev" value="g_tshift(;;dt;\'TS\';v;-1)"/><willbe name="next2" value="g_tshift(;;dt;\'TS3\';v;2)"/>'
    const r = columnsOf(runXml(xml))
    expect(r.prev).to.deep.equal([null, 1, null])
    expect(r.next2).to.deep.equal([null, 3, null])
  })

  it('takes N per row, skips rows outside S as sources and targets, and takes the first of equal times', () => {
    const t = makeTable('t.n', [
      { name: 'm', type: 'int', values: [202401, 202402, 202403, 202403, 202404] },
      { name: 'back', type: 'int', values: [0, 1, 2, 1, null] },
      { name: 'keep', type: 'int', values: [1, 0, 1, 1, 1] },
      { name: 'v', type: 'int', values: [1, 2, 3, 4, 5] },
    ])
    expect(shift("g_tshift(;;m;'M';v;0-back)", t)).to.deep.equal([1, 1, 1, 2, null])
    expect(shift("g_tshift(;keep;m;'M';v;-1)", t)).to.deep.equal([null, null, null, null, 3])
  })

  it('refuses an unknown kind of time, a decimal T without TS and a decimal N', () => {
    expect(() => shift("g_tshift(store;;ym;'W';sales;-1)")).to.throw(/TS 'W' is not a kind of time.*'D'/)
    expect(() => shift('g_tshift(store;;sales;;sales;-1)')).to.throw(/T is a decimal/)
    expect(() => shift("g_tshift(store;;ym;'M';sales;0.5)")).to.throw(/g_tshift/)
    expect(() => shift('g_tshift(store;;ym;ym;sales;1)')).to.throw(/TS must be a constant|constant/)
  })
})
