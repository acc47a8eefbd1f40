/**
 * The big-integer kernels against BigInt arithmetic as the reference: random 64-bit values with
 * the edges mixed in (0, ±1, ±2^31, ±2^32, ±2^53 and their neighbours, ±(2^63 − 1), N/A), for the
 * word-level paths (comparisons, sorting, grouping, gathering, extremes, choosing) and the mixed
 * float/BigInt arithmetic, whose overflow past ±(2^63 − 1) must be an error, never a wrapped value.
 */
import { expect } from 'chai'
import { gather, groupBy, sortPermutation } from '../../engine/columns/index.js'
import { bigintToFloats, exactFloats, withinSafeRange } from '../../engine/columns/bigint.js'
import { Rng } from '../../engine/columns/random.js'
import { NA_BIGINT, type BigIntColumn } from '../../engine/columns/types.js'
import { bigintArith, bigintNegate } from '../../engine/functions/arith-bigint.js'
import { compareBigintFloat, compareBigints } from '../../engine/functions/compare-bigint.js'
import { choose } from '../../engine/functions/choose.js'
import { extremeBigints, modBigints, roundBigints } from '../../engine/functions/math-bigint.js'
import { groupExtremes } from '../../engine/functions/group/per-group.js'
import { mathUnary } from '../../engine/functions/math-unary.js'

const MAX = 2n ** 63n - 1n
const EDGES = [
  0n,
  1n,
  -1n,
  2n ** 31n,
  -(2n ** 31n),
  2n ** 32n,
  2n ** 32n - 1n,
  -(2n ** 32n),
  2n ** 53n,
  2n ** 53n - 1n,
  2n ** 53n + 1n,
  -(2n ** 53n),
  MAX,
  -MAX,
  MAX - 1n,
]

/** A random big integer: an edge, a small one, or any 64-bit value (N/A kept where `na`). */
function value(rng: Rng, na: boolean): bigint {
  const pick = rng.int(0, 9)
  if (na && pick === 0) return NA_BIGINT
  if (pick <= 3) return EDGES[rng.int(0, EDGES.length - 1)]
  if (pick <= 5) return BigInt(rng.int(-1000, 1000))
  const hi = BigInt(rng.int(-2147483647, 2147483647))
  const lo = BigInt(rng.int(0, 2147483647)) * 2n + BigInt(rng.int(0, 1))
  return hi * 2n ** 32n + lo
}

const column = (rng: Rng, n: number, na = true): BigInt64Array => BigInt64Array.from({ length: n }, () => value(rng, na))
const isNA = (v: bigint): boolean => v === NA_BIGINT

describe('big-integer kernels against BigInt arithmetic', () => {
  const rng = new Rng(3801)
  const n = 3000
  const a = column(rng, n)
  const b = column(rng, n)

  it('compares two columns and a column with a constant exactly, with the N/A rules', () => {
    const ops = ['=', '<>', '<', '>', '<=', '>='] as const
    const holds = (op: (typeof ops)[number], x: bigint, y: bigint): number => {
      if (isNA(x) || isNA(y)) return op === '=' ? +(isNA(x) && isNA(y)) : op === '<>' ? +!(isNA(x) && isNA(y)) : 0
      return +(op === '=' ? x === y : op === '<>' ? x !== y : op === '<' ? x < y : op === '>' ? x > y : op === '<=' ? x <= y : x >= y)
    }
    for (const op of ops) {
      expect(Array.from(compareBigints(op, a, b, n))).to.deep.equal(Array.from(a, (x, i) => holds(op, x, b[i])))
      expect(Array.from(compareBigints(op, a, b[7], n))).to.deep.equal(Array.from(a, (x) => holds(op, x, b[7])))
    }
  })

  it('compares big integers with decimals exactly, where the nearest double of each would tie', () => {
    const ys = Float64Array.from(b, (v, i) => (i % 5 === 0 ? NaN : i % 3 === 0 ? Number(v) + 0.5 : Number(v)))
    const exact = (x: bigint, y: number): number => {
      // x against the double y, compared as rationals: y is whole past 2^53, or has a fraction.
      const whole = BigInt(Math.floor(y))
      return x < whole ? -1 : x > whole ? 1 : y === Math.floor(y) ? 0 : -1
    }
    for (const op of ['=', '<', '>='] as const) {
      const want = Array.from(a, (x, i) => {
        const y = ys[i]
        if (isNA(x) || Number.isNaN(y)) return op === '=' ? +(isNA(x) && Number.isNaN(y)) : 0
        const o = exact(x, y)
        return +(op === '=' ? o === 0 : op === '<' ? o < 0 : o >= 0)
      })
      expect(Array.from(compareBigintFloat(op, a, ys, n))).to.deep.equal(want)
    }
  })

  it('adds, subtracts, multiplies and negates exactly, and refuses a result past ±(2^63 − 1)', () => {
    const small = BigInt64Array.from(b, (v) => (isNA(v) ? v : v % 3037000499n)) // products of these stay in range
    for (const op of ['+', '-', '*'] as const) {
      const x = op === '*' ? BigInt64Array.from(a, (v) => (isNA(v) ? v : v % 3037000499n)) : BigInt64Array.from(a, (v) => (isNA(v) ? v : v / 2n))
      const y = op === '*' ? small : BigInt64Array.from(b, (v) => (isNA(v) ? v : v / 2n))
      const want = Array.from(x, (v, i) => (isNA(v) || isNA(y[i]) ? NA_BIGINT : op === '+' ? v + y[i] : op === '-' ? v - y[i] : v * y[i]))
      expect(Array.from(bigintArith(op, x, y, n))).to.deep.equal(want)
      expect(Array.from(bigintArith(op, x, 5n, n))).to.deep.equal(Array.from(x, (v) => (isNA(v) ? v : op === '+' ? v + 5n : op === '-' ? v - 5n : v * 5n)))
    }
    expect(Array.from(bigintNegate(a, n))).to.deep.equal(Array.from(a, (v) => (isNA(v) ? v : -v)))
    expect(() => bigintArith('+', BigInt64Array.of(MAX), 1n, 1)).to.throw(/Big integer overflow: 9223372036854775807 \+ 1/)
    expect(() => bigintArith('-', BigInt64Array.of(-MAX), BigInt64Array.of(1n), 1)).to.throw(/overflow/)
    expect(() => bigintArith('*', BigInt64Array.of(2n ** 32n), 2n ** 31n, 1)).to.throw(/overflow/)
    expect(Array.from(bigintArith('*', BigInt64Array.of(2n ** 32n), 2n ** 30n, 1))).to.deep.equal([2n ** 62n])
  })

  it('takes abs, mod, round and row-wise extremes exactly', () => {
    const abs = mathUnary('abs', { type: 'bigint', data: a }, n) as BigIntColumn
    expect(Array.from(abs.data)).to.deep.equal(Array.from(a, (v) => (isNA(v) ? v : v < 0n ? -v : v)))
    const divisor = BigInt64Array.from(b, (v, i) => (i % 11 === 0 ? 0n : v))
    const mod = (x: bigint, y: bigint): bigint => {
      const r = x % y
      return r !== 0n && r < 0n !== y < 0n ? r + y : r
    }
    expect(Array.from(modBigints(a, divisor, n))).to.deep.equal(
      Array.from(a, (x, i) => (isNA(x) || isNA(divisor[i]) || divisor[i] === 0n ? NA_BIGINT : mod(x, divisor[i]))),
    )
    const round = (x: bigint, u: bigint): bigint => {
      const m = x < 0n ? -x : x
      const down = (m / u) * u
      const up = 2n * (m - down) >= u ? down + u : down
      const r = x < 0n ? -up : up
      return r > MAX || r < -MAX ? NA_BIGINT : r
    }
    for (const unit of [1n, 10n, 1000n, 2n ** 40n]) {
      expect(Array.from(roundBigints(a, unit, n))).to.deep.equal(Array.from(a, (x) => (isNA(x) ? x : round(x, unit))))
    }
    const acc = a.slice()
    extremeBigints(acc, b, n, true)
    expect(Array.from(acc)).to.deep.equal(Array.from(a, (x, i) => (isNA(x) || isNA(b[i]) ? NA_BIGINT : x > b[i] ? x : b[i])))
  })

  it('sorts, groups and gathers by the exact values', () => {
    const order = sortPermutation([{ col: { type: 'bigint', data: a }, desc: false }], n)
    const sorted = Array.from(order, (r) => a[r])
    // N/A (−2^63) sorts first going up, as the smallest value.
    expect(sorted).to.deep.equal([...a].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)))
    const down = Array.from(sortPermutation([{ col: { type: 'bigint', data: a }, desc: true }], n), (r) => a[r])
    const na = down.filter(isNA).length
    expect(down.slice(0, n - na)).to.deep.equal([...a].filter((v) => !isNA(v)).sort((x, y) => (x > y ? -1 : x < y ? 1 : 0)))
    const groups = groupBy([{ type: 'bigint', data: a }], n)
    const firstOf = new Map<bigint, number>()
    a.forEach((v) => firstOf.has(v) || firstOf.set(v, firstOf.size))
    expect(Array.from(groups.ids)).to.deep.equal(Array.from(a, (v) => firstOf.get(v)))
    const index = Int32Array.from({ length: 500 }, (_, i) => (i % 7 === 0 ? -1 : (i * 37) % n))
    expect(Array.from((gather({ type: 'bigint', data: a }, index) as BigIntColumn).data)).to.deep.equal(Array.from(index, (r) => (r < 0 ? NA_BIGINT : a[r])))
  })

  it('takes per-group extremes and chooses between big integers without rounding', () => {
    const gid = Int32Array.from({ length: n }, (_, i) => (i % 13 === 0 ? -1 : i % 17))
    const best = groupExtremes(gid, 17, { type: 'bigint', data: a }, n, true) as BigIntColumn
    const want = new Array<bigint>(17).fill(NA_BIGINT)
    a.forEach((v, i) => {
      const g = gid[i]
      if (g >= 0 && !isNA(v) && (isNA(want[g]) || v > want[g])) want[g] = v
    })
    expect(Array.from(best.data)).to.deep.equal(want)
    const cond = { type: 'int' as const, data: Int32Array.from({ length: n }, (_, i) => i % 2) }
    const chosen = choose([cond], [{ type: 'bigint', data: a }], { type: 'bigint', data: b }, 'bigint', n) as BigIntColumn
    expect(Array.from(chosen.data)).to.deep.equal(Array.from(a, (v, i) => (i % 2 === 1 ? v : b[i])))
  })

  it('reads big integers as floats: nearest doubles, and exactly only within ±(2^53 − 1)', () => {
    expect(Array.from(bigintToFloats(a))).to.deep.equal(Array.from(a, (v) => (isNA(v) ? NaN : Number(v))))
    const safe = BigInt64Array.of(2n ** 53n - 1n, -(2n ** 53n - 1n), NA_BIGINT)
    expect(withinSafeRange(safe)).to.equal(true)
    expect(withinSafeRange(BigInt64Array.of(2n ** 53n))).to.equal(false)
    expect(withinSafeRange(BigInt64Array.of(-(2n ** 53n)))).to.equal(false)
    expect(() => exactFloats(BigInt64Array.of(2n ** 53n + 1n), 'A test')).to.throw(/A test is computed exactly only for big integers within ±9007199254740991/)
  })
})
