/**
 * The two ways a big-integer key is grouped, linked and sorted, against references built with
 * BigInt and Map: values within 2^32 − 2 of each other go through the int kernels as offsets
 * from the smallest value (word-span.ts), any others through the word-pair table (word-ids.ts).
 * Columns sit at both ends of a span that just fits and one that is one too wide, at the ends of
 * the 64-bit range (−(2^63 − 1) shares its high word with N/A), across zero, and as random 64-bit
 * hashes; N/A is mixed in and must stay its own key, matched only by N/A.
 */
import { expect } from 'chai'
import { firstIndexLookup, groupBy, sortPermutation, type Column } from '../../engine/columns/index.js'
import { offsetKeys, probeOffsetKeys, wordSpan } from '../../engine/columns/word-span.js'
import { bigintWords } from '../../engine/columns/bigint.js'
import { Rng } from '../../engine/demo/random.js'
import { NA_BIGINT, NA_INT } from '../../engine/columns/types.js'

const MAX = 2n ** 63n - 1n
const FITS = 2n ** 32n - 2n
const bigints = (values: readonly bigint[]): Column => ({ type: 'bigint', data: BigInt64Array.from(values) })

/** A random 64-bit value from two 32-bit draws. */
function random64(rng: Rng): bigint {
  return BigInt.asIntN(64, (BigInt(rng.int(0, 0xffffffff)) << 32n) | BigInt(rng.int(0, 0xffffffff)))
}

/** n values in [lo, lo + width], both ends present, N/A at about one row in ten, repeats likely. */
function spread(rng: Rng, lo: bigint, width: bigint, n: number): bigint[] {
  const pool = [lo, lo + width, ...Array.from({ length: 60 }, () => lo + ((random64(rng) & MAX) % (width + 1n)))]
  const out = Array.from({ length: n }, () => (rng.chance(0.1) ? NA_BIGINT : pool[rng.int(0, pool.length - 1)]))
  out[3] = lo
  out[n - 2] = lo + width
  return out
}

/** Ids by first appearance (N/A a key like any other); -1 where the mask is 0. */
function refGroups(values: readonly bigint[], mask?: Uint8Array): number[] {
  const id = new Map<bigint, number>()
  return values.map((v, r) => {
    if (mask && mask[r] === 0) return -1
    if (!id.has(v)) id.set(v, id.size)
    return id.get(v)!
  })
}

/** Per probe, the first key row with an equal value (N/A matching N/A), else -1. */
function refLinks(keys: readonly bigint[], probes: readonly bigint[]): number[] {
  const first = new Map<bigint, number>()
  keys.forEach((v, r) => first.has(v) || first.set(v, r))
  return probes.map((v) => first.get(v) ?? -1)
}

/** Stable order, N/A first going up and last going down. */
function refSort(values: readonly bigint[], desc: boolean): number[] {
  const rank = (v: bigint): bigint => (v === NA_BIGINT ? (desc ? 2n ** 64n : -(2n ** 64n)) : desc ? -v : v)
  return values.map((_, r) => r).sort((a, b) => (rank(values[a]) < rank(values[b]) ? -1 : rank(values[a]) > rank(values[b]) ? 1 : a - b))
}

describe('big-integer keys: the int path for close values and the word path for the rest', () => {
  const rng = new Rng(3838)
  const n = 4000
  const cases: { name: string; values: bigint[]; offsets: boolean }[] = [
    { name: 'a span that just fits, from 0', values: spread(rng, 0n, FITS, n), offsets: true },
    { name: 'a span that just fits, across zero', values: spread(rng, -(2n ** 31n) - 5n, FITS, n), offsets: true },
    { name: 'a span that just fits, up to 2^63 − 1', values: spread(rng, MAX - FITS, FITS, n), offsets: true },
    { name: 'a span that just fits, from −(2^63 − 1)', values: spread(rng, -MAX, FITS, n), offsets: true },
    { name: 'a narrow span past 2^53', values: spread(rng, 2n ** 53n + 7n, 5000n, n), offsets: true },
    { name: 'a span one too wide', values: spread(rng, -(2n ** 40n), FITS + 1n, n), offsets: false },
    { name: 'a span one too wide, from −(2^63 − 1)', values: spread(rng, -MAX, FITS + 1n, n), offsets: false },
    { name: 'both ends of the 64-bit range', values: spread(rng, -MAX, 2n * MAX, n), offsets: false },
    // Words shared between keys: a table that compared one word would merge them.
    {
      name: 'one low word, many high words',
      values: Array.from({ length: n }, () => (rng.chance(0.1) ? NA_BIGINT : BigInt(rng.int(-3000, 3000)) * 2n ** 32n + 12345n)),
      offsets: false,
    },
    {
      name: 'two high words, many low words',
      values: Array.from({ length: n }, () => (rng.chance(0.1) ? NA_BIGINT : BigInt(rng.int(0, 1) * 2 + 3) * 2n ** 32n + BigInt(rng.int(0, 3000)))),
      offsets: false,
    },
    { name: 'random 64-bit hashes', values: Array.from({ length: n }, (_, r) => (r % 11 === 0 ? NA_BIGINT : random64(new Rng(r % 700)))), offsets: false },
  ]

  for (const { name, values, offsets } of cases) {
    describe(name, () => {
      const col = bigints(values)
      const distinct = [...new Set(values)]

      it(offsets ? 'is within an Int32 span' : 'is too wide for an Int32 span', () => {
        expect(wordSpan(bigintWords(BigInt64Array.from(values)), n) !== null).to.equal(offsets)
      })

      it('groups by the exact value, with and without a mask', () => {
        expect(Array.from(groupBy([col], n).ids)).to.deep.equal(refGroups(values))
        const mask = Uint8Array.from(values, (_, r) => +(r % 5 !== 1))
        expect(Array.from(groupBy([col], n, mask).ids)).to.deep.equal(refGroups(values, mask))
        // A second key column: the big-integer ids combined with another column's.
        const other: Column = { type: 'int', data: Int32Array.from(values, (_, r) => r % 3) }
        const pairs = values.map((v, r) => `${v}:${r % 3}`)
        const want = new Map<string, number>()
        expect(Array.from(groupBy([col, other], n).ids)).to.deep.equal(pairs.map((p) => (want.has(p) ? want.get(p)! : (want.set(p, want.size), want.size - 1))))
      })

      it('links to the first equal key, N/A to N/A only, and values outside the key range to nothing', () => {
        // Key sides with and without N/A; probes hit the keys, miss just past each end and far away.
        const keysWithNa = values.slice(0, 1500)
        const keysWithoutNa = keysWithNa.filter((v) => v !== NA_BIGINT)
        const sorted = distinct.filter((v) => v !== NA_BIGINT).sort((a, b) => (a < b ? -1 : 1))
        const lo = sorted[0]
        const hi = sorted[sorted.length - 1]
        const misses = [lo - 1n, hi + 1n, lo - 2n ** 32n, hi + 2n ** 32n, 0n, 1n, -1n, MAX, -MAX, random64(rng)].filter((v) => v >= -MAX && v <= MAX)
        const probes = [...values, ...misses, NA_BIGINT]
        for (const keys of [keysWithNa, keysWithoutNa]) {
          const { match, distinct: count } = firstIndexLookup([bigints(keys)], keys.length, [bigints(probes)], probes.length)
          expect(Array.from(match)).to.deep.equal(refLinks(keys, probes))
          expect(count).to.equal(new Set(keys).size)
        }
        // Int probes are compared as big integers (NA_INT as N/A).
        const ints = [0, 1, -1, 5, 2147483647, -2147483647, NA_INT]
        const { match } = firstIndexLookup([bigints(keysWithNa)], keysWithNa.length, [{ type: 'int', data: Int32Array.from(ints) }], ints.length)
        expect(Array.from(match)).to.deep.equal(
          refLinks(
            keysWithNa,
            ints.map((v) => (v === NA_INT ? NA_BIGINT : BigInt(v))),
          ),
        )
      })

      it('sorts by the exact value both ways, ties in row order', () => {
        for (const desc of [false, true]) expect(Array.from(sortPermutation([{ col, desc }], n))).to.deep.equal(refSort(values, desc))
      })
    })
  }

  it('gives N/A its own Int32 key and the smallest value NA_INT + 1, and counts probes outside the span', () => {
    const values = [-MAX + 3n, NA_BIGINT, -MAX, -MAX + FITS]
    const w = bigintWords(BigInt64Array.from(values))
    const s = wordSpan(w, values.length)
    expect(s).to.not.equal(null)
    expect(Array.from(offsetKeys(w, values.length, s!))).to.deep.equal([NA_INT + 4, NA_INT, NA_INT + 1, 0x7fffffff])
    const probes = [-MAX - 0n, -MAX + FITS + 1n, NA_BIGINT, MAX]
    const p = probeOffsetKeys(bigintWords(BigInt64Array.from(probes)), probes.length, s!)
    expect(Array.from(p.keys)).to.deep.equal([NA_INT + 1, NA_INT, NA_INT, NA_INT])
    expect(p.outside).to.equal(2)
  })
})
