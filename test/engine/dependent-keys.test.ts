/**
 * Group-by on several keys (issue 39) against a reference built with a Map of key tuples: keys
 * that are functions of the first (x − 1, a value beside an id unique per row) are left out by
 * columns/dependent-keys.ts and must give the same ids, first-appearance order included, as keys
 * that do split groups; N/A is a key like any other, big integers past 2^53 keep every bit, floats
 * group -0 with 0 and every NaN together. Also the sampled sizing of word tables
 * (distinct-sample.ts) on ids unique per row.
 */
import { expect } from 'chai'
import { groupBy, type Column } from '../../engine/columns/index.js'
import { constantWithinGroups } from '../../engine/columns/dependent-keys.js'
import { estimatedDistinct } from '../../engine/columns/distinct-sample.js'
import { bigintWords } from '../../engine/columns/bigint.js'
import { Rng } from '../../engine/columns/random.js'
import { NA_BIGINT, NA_INT } from '../../engine/columns/types.js'

const ints = (values: readonly number[]): Column => ({ type: 'int', data: Int32Array.from(values) })
const bigs = (values: readonly bigint[]): Column => ({ type: 'bigint', data: BigInt64Array.from(values) })
const floats = (values: readonly number[]): Column => ({ type: 'float', data: Float64Array.from(values) })
const texts = (codes: readonly number[], dict: readonly string[]): Column => ({ type: 'text', codes: Int32Array.from(codes), dict })

/** A cell as group-by compares it: -0 as 0, every NaN one value. */
function cellKey(c: Column, r: number): string {
  if (c.type === 'text') return `t${c.codes[r]}`
  if (c.type === 'bigint') return `b${c.data[r]}`
  const v = c.data[r]
  return v !== v ? 'NaN' : `n${v === 0 ? 0 : v}`
}

/** Ids by first appearance of the tuple; -1 where the mask is 0. */
function refIds(cols: readonly Column[], rows: number, mask?: Uint8Array): { ids: number[]; count: number } {
  const seen = new Map<string, number>()
  const ids = Array.from({ length: rows }, (_, r) => {
    if (mask && mask[r] === 0) return -1
    const k = cols.map((c) => cellKey(c, r)).join('|')
    if (!seen.has(k)) seen.set(k, seen.size)
    return seen.get(k)!
  })
  return { ids, count: seen.size }
}

function expectSameGroups(cols: readonly Column[], rows: number, mask?: Uint8Array): void {
  const got = groupBy(cols, rows, mask ?? null)
  const want = refIds(cols, rows, mask)
  expect(got.count).to.equal(want.count)
  expect(Array.from(got.ids)).to.deep.equal(want.ids)
}

/** A 64-bit value from two 32-bit draws: most lie far past 2^53. */
const random64 = (rng: Rng): bigint => BigInt.asIntN(64, (BigInt(rng.int(0, 0xffffffff)) << 32n) | BigInt(rng.int(0, 0xffffffff)))

describe('group-by on keys that are functions of the first key, against a reference', () => {
  const rng = new Rng(3939)
  const n = 3000
  const x = Array.from({ length: n }, () => (rng.chance(0.05) ? NA_INT : rng.int(-50_000, 50_000)))
  const shifted = (k: number): Column => ints(x.map((v) => (v === NA_INT ? NA_INT : v - k)))

  it('groups by x, x − 1, x − 2, x + 3 as by x (N/A and negatives included), and skips the shifted keys', () => {
    const cols = [ints(x), shifted(1), shifted(2), shifted(-3)]
    const first = groupBy([cols[0]], n)
    for (const c of cols.slice(1)) expect(constantWithinGroups(c, first)).to.equal(true)
    expectSameGroups(cols, n)
    expect(Array.from(groupBy(cols, n).ids)).to.deep.equal(Array.from(first.ids))
  })

  it('splits groups when one row breaks the dependence, even the very last row', () => {
    const broken = x.map((v) => (v === NA_INT ? NA_INT : v - 1))
    const last = n - 1
    x[last] = x[0] // row n-1 now shares x with row 0 ...
    broken[last] = broken[0] + 1 // ... but not its second key
    const cols = [ints(x), ints(broken)]
    expect(constantWithinGroups(cols[1], groupBy([cols[0]], n))).to.equal(false)
    expectSameGroups(cols, n)
  })

  it('keeps big integers past 2^53 apart (N/A among them) beside a key that is constant per id', () => {
    const ids = Array.from({ length: n }, (_, r) => (r % 97 === 0 ? NA_BIGINT : random64(rng)))
    // A few ids repeat, with the same second key: still one group each.
    for (let r = 10; r < n; r += 250) ids[r] = ids[r - 7]
    const ip = ids.map((v) => Number(BigInt.asIntN(32, v)) | 0)
    const near = ids.map((v) => (v === NA_BIGINT ? v : v + 1n)) // 2^53 + 1 apart from 2^53 as a double would not be
    const cols = [bigs(ids), ints(ip), bigs(near)]
    expect(constantWithinGroups(cols[1], groupBy([cols[0]], n))).to.equal(true)
    expectSameGroups(cols, n)
    // The same values with a second key that differs within an id must split it.
    const split = ip.map((v, r) => (r === n - 3 ? v + 1 : v))
    ids[n - 3] = ids[5]
    split[n - 3] = split[5] + 1
    expectSameGroups([bigs(ids), ints(split)], n)
  })

  it('groups text beside a float that is a function of it: -0 with 0, every NaN together', () => {
    const codes = Array.from({ length: n }, () => rng.int(0, 40))
    const value = (c: number): number => (c === 0 ? Number.NaN : c % 5 === 0 ? 0 : c / 3)
    const f = codes.map((c, r) => (c === 0 ? (r % 3 === 0 ? -Number.NaN : Number.NaN) : c % 5 === 0 && r % 2 === 0 ? -0 : value(c)))
    const dict = Array.from({ length: 41 }, (_, i) => (i === 0 ? '' : `w${String(i).padStart(2, '0')}`))
    const cols = [texts(codes, dict), floats(f)]
    expect(constantWithinGroups(cols[1], groupBy([cols[0]], n))).to.equal(true)
    expectSameGroups(cols, n)
  })

  it('combines keys that do split groups, three of them, with and without a mask', () => {
    const users = Array.from({ length: 200 }, () => random64(rng))
    const u = Array.from({ length: n }, () => users[rng.int(0, users.length - 1)])
    const m = Array.from({ length: n }, () => (rng.chance(0.02) ? Number.NaN : rng.int(0, 59)))
    const phrase = Array.from({ length: n }, () => rng.int(0, 30))
    const dict = Array.from({ length: 31 }, (_, i) => (i === 0 ? '' : `p${String(i).padStart(2, '0')}`))
    const cols = [bigs(u), floats(m), texts(phrase, dict)]
    expectSameGroups(cols, n)
    expectSameGroups(
      cols,
      n,
      Uint8Array.from({ length: n }, () => (rng.chance(0.3) ? 0 : 1)),
    )
    // A key dependent on the first between two that are not.
    expectSameGroups([bigs(u), ints(u.map((v) => Number(v & 0xffffn))), texts(phrase, dict)], n)
  })

  it('groups many ids unique per row (a word table sized from a sample) as the reference does', () => {
    const rows = 200_000
    const ids = Array.from({ length: rows }, (_, r) => (r % 1000 === 5 ? NA_BIGINT : random64(rng)))
    expect(estimatedDistinct(bigintWords(BigInt64Array.from(ids)), rows)).to.be.within(0.8 * rows, rows)
    const ip = Array.from({ length: rows }, () => rng.int(-5, 5))
    expectSameGroups([bigs(ids), ints(ip)], rows)
    expectSameGroups(
      [bigs(ids)],
      rows,
      Uint8Array.from({ length: rows }, (_, r) => r % 3),
    )
  })

  it('estimates the distinct keys of sorted runs as of shuffled ones, and says 0 for few', () => {
    const rows = 400_000
    // 40,000 values in sorted runs of 10: a strided sample would see no repeat at all.
    const runs = BigInt64Array.from({ length: rows }, (_, r) => (BigInt(Math.floor(r / 10)) << 33n) + 12345n)
    const estimate = estimatedDistinct(bigintWords(runs), rows)
    expect(estimate).to.be.within(30_000, 55_000)
    expect(estimatedDistinct(bigintWords(BigInt64Array.from({ length: rows }, (_, r) => BigInt(r % 50) << 40n)), rows)).to.equal(0)
  })
})
