/**
 * The sort by several radix keys (radix-keys.ts) against a stable comparison sort: key widths
 * from 1 to 32 bits, two and three keys, ranges large enough for the whole-array scatter and
 * recursion into buckets, runs of equal values (digits skipped without moving), skewed values
 * (one bucket holding most rows) and small ranges finished by insertion sort.
 */
import { expect } from 'chai'
import { sortPositions } from '../../engine/columns/radix.js'
import { Rng } from '../../engine/demo/random.js'

/** n values of `bits` bits drawn from `distinct` values; skewed puts most rows on a few values. */
function values(rng: Rng, n: number, bits: number, distinct: number, skewed = false): Uint32Array {
  const top = bits === 32 ? 0xffffffff : 2 ** bits - 1
  const pool = Array.from({ length: distinct }, () => rng.int(0, top))
  pool[0] = 0
  if (pool.length > 1) pool[1] = top
  return Uint32Array.from({ length: n }, () => (skewed && rng.chance(0.9) ? pool[rng.int(0, Math.min(2, pool.length - 1))] : pool[rng.int(0, pool.length - 1)]))
}

/** Positions by the keys (first most significant), ties in position order. */
function reference(keys: readonly Uint32Array[], n: number): number[] {
  return Array.from({ length: n }, (_, i) => i).sort((a, b) => {
    for (const k of keys) if (k[a] !== k[b]) return k[a] - k[b]
    return a - b
  })
}

describe('radix sort by several keys', () => {
  const rng = new Rng(2048)
  const shapes: { name: string; n: number; keys: [bits: number, distinct: number, skewed?: boolean][] }[] = [
    {
      name: 'two 32-bit keys, many values',
      n: 60000,
      keys: [
        [32, 50000],
        [32, 50000],
      ],
    },
    {
      name: 'a narrow key before a full one',
      n: 60000,
      keys: [
        [3, 8],
        [32, 40000],
      ],
    },
    {
      name: 'a full key before a narrow one',
      n: 60000,
      keys: [
        [32, 3000],
        [1, 2],
      ],
    },
    {
      name: 'a 21-bit and a 32-bit key (a big integer past 2^53)',
      n: 50000,
      keys: [
        [21, 20000],
        [32, 20000],
      ],
    },
    {
      name: 'three keys, few values each (long runs of equal rows)',
      n: 50000,
      keys: [
        [17, 5],
        [32, 3],
        [9, 4],
      ],
    },
    {
      name: 'skewed: most rows on three values',
      n: 50000,
      keys: [
        [32, 1000, true],
        [32, 1000, true],
      ],
    },
    {
      name: 'every row equal on the first key',
      n: 40000,
      keys: [
        [20, 1],
        [32, 30000],
      ],
    },
    {
      name: 'a few rows',
      n: 40,
      keys: [
        [32, 10],
        [5, 3],
      ],
    },
    {
      name: 'just past insertion sort',
      n: 200,
      keys: [
        [30, 150],
        [32, 150],
        [2, 4],
      ],
    },
  ]
  for (const { name, n, keys } of shapes) {
    it(`orders ${name} as a stable comparison sort does`, () => {
      const cols = keys.map(([bits, distinct, skewed]) => values(rng, n, bits, distinct, skewed))
      const want = reference(cols, n)
      // sortPositions takes the arrays over as scratch space: hand it copies.
      const got = sortPositions(
        cols.map((c, k) => ({ values: c.slice(), bits: keys[k][0] })),
        n,
      )
      expect(Array.from(got)).to.deep.equal(want)
      const limit = Math.min(25, n)
      const first = sortPositions(
        cols.map((c, k) => ({ values: c.slice(), bits: keys[k][0] })),
        n,
        limit,
      )
      expect(Array.from(first)).to.deep.equal(want.slice(0, limit))
    })
  }
})
