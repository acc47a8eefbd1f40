/**
 * distinctPerGroup (ucnt, g_ucnt) against a row-by-row reference with a Set of printed values,
 * on random columns of every type with N/A, ties, -0 beside 0, rows of no group, huge value
 * ranges (hashed pairs instead of one composite key) and empty inputs.
 */
import { expect } from 'chai'
import { distinctPerGroup } from '../../engine/columns/distinct-per-group.js'
import { Rng, randomFloatColumn, randomIntColumn, randomTextColumn } from '../../engine/columns/random.js'
import { NA_INT, type Column } from '../../engine/columns/types.js'

function reference(groupIds: Int32Array, groupCount: number, x: Column, rows: number): number[] {
  const sets = Array.from({ length: groupCount }, () => new Set<string>())
  for (let r = 0; r < rows; r++) {
    const g = groupIds[r]
    if (g < 0) continue
    if (x.type === 'text') {
      if (x.codes[r] !== 0) sets[g].add(x.dict[x.codes[r]])
    } else if (x.type === 'float') {
      const v = x.data[r]
      if (v === v) sets[g].add(String(v === 0 ? 0 : v))
    } else if (x.data[r] !== NA_INT) sets[g].add(String(x.data[r]))
  }
  return sets.map((s) => s.size)
}

function randomGroups(rng: Rng, rows: number, count: number): Int32Array {
  // About one row in ten belongs to no group (-1).
  return Int32Array.from({ length: rows }, () => (rng.next() < 0.1 ? -1 : rng.int(0, count - 1)))
}

describe('distinct values per group', () => {
  const rng = new Rng(1919)
  const columns = (rows: number): Record<string, Column> => {
    const f = randomFloatColumn(rng, rows, -5, 5, { na: 0.2, decimals: 1 })
    for (let r = 0; r < rows; r += 7) if (f.data[r] === 0) f.data[r] = -0
    return {
      'small ints': randomIntColumn(rng, rows, -3, 3, { na: 0.2 }),
      'ints over the whole range': randomIntColumn(rng, rows, -2_000_000_000, 2_000_000_000, { na: 0.1 }),
      floats: f,
      text: randomTextColumn(rng, rows, ['a', 'b', 'c', 'd', ''], { na: 0.1 }),
    }
  }

  for (const rows of [0, 1, 50, 20_000]) {
    for (const groups of [1, 7, 3_000]) {
      it(`agree with the reference: ${rows} rows, ${groups} groups`, () => {
        for (const [name, x] of Object.entries(columns(rows))) {
          const ids = randomGroups(rng, rows, groups)
          expect([...distinctPerGroup(ids, groups, x, rows)], name).to.deep.equal(reference(ids, groups, x, rows))
        }
      })
    }
  }

  it('count a group with only N/A as 0', () => {
    const ids = Int32Array.from([0, 0, 1, 1])
    const x: Column = { type: 'int', data: Int32Array.from([NA_INT, NA_INT, 5, 5]) }
    expect([...distinctPerGroup(ids, 2, x, 4)]).to.deep.equal([0, 1])
  })
})
