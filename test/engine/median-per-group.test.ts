/**
 * medianPerGroup (median, g_median) against sorting each group, on random values with N/A, many
 * ties (few distinct values), -0 beside 0, infinities, rows of no group, empty groups and inputs.
 */
import { expect } from 'chai'
import { medianPerGroup } from '../../engine/columns/median-per-group.js'
import { Rng } from '../../engine/columns/random.js'

function reference(groupIds: Int32Array, groupCount: number, x: Float64Array, rows: number): number[] {
  const lists = Array.from({ length: groupCount }, () => [] as number[])
  for (let r = 0; r < rows; r++) if (groupIds[r] >= 0 && x[r] === x[r]) lists[groupIds[r]].push(x[r])
  return lists.map((l) => {
    if (l.length === 0) return Number.NaN
    l.sort((a, b) => a - b)
    const m = l.length >> 1
    return l.length % 2 ? l[m] : (l[m - 1] + l[m]) / 2
  })
}

describe('median per group', () => {
  const rng = new Rng(2019)
  const values = (rows: number, distinct: number): Float64Array =>
    Float64Array.from({ length: rows }, () => {
      const u = rng.next()
      if (u < 0.15) return Number.NaN
      if (u < 0.17) return rng.next() < 0.5 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY
      if (u < 0.2) return -0
      return rng.int(-distinct, distinct) / 4
    })

  for (const rows of [0, 1, 2, 33, 30_000]) {
    for (const groups of [1, 5, 2_000]) {
      for (const distinct of [1, 3, 1_000_000]) {
        it(`agrees with sorting: ${rows} rows, ${groups} groups, values from ${2 * distinct + 1}`, () => {
          const ids = Int32Array.from({ length: rows }, () => (rng.next() < 0.1 ? -1 : rng.int(0, groups - 1)))
          const x = values(rows, distinct)
          const got = [...medianPerGroup(ids, groups, x, rows)]
          // deep.equal tells NaN from NaN as equal and 0 from -0 as different; medians of ±0 are 0.
          expect(got.map((v) => (v === 0 ? 0 : v))).to.deep.equal(reference(ids, groups, x, rows).map((v) => (v === 0 ? 0 : v)))
        })
      }
    }
  }

  it('leaves the caller’s values untouched', () => {
    const x = Float64Array.from([3, 1, 2, 5, 4])
    medianPerGroup(new Int32Array(5), 1, x, 5)
    expect([...x]).to.deep.equal([3, 1, 2, 5, 4])
  })
})
