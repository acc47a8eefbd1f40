/**
 * mod, round and the row-wise max/min over big integers, exact. They compute in BigInt, one value
 * at a time: slower than the float64 loops, but these are rarely run over big integers (an id's
 * remainder for a shard, a rounding of nanoseconds), and an answer rounded by float64 would be wrong.
 */
import { NA_BIGINT } from '../columns/types.js'

/** x mod y with the sign of y (mod(-1;7) = 6), as for ints; N/A when either is N/A or y is 0. */
export function modBigints(a: BigInt64Array, b: BigInt64Array | bigint, n: number): BigInt64Array {
  const o = new BigInt64Array(n)
  for (let i = 0; i < n; i++) {
    const x = a[i]
    const y = typeof b === 'bigint' ? b : b[i]
    if (x === NA_BIGINT || y === NA_BIGINT || y === 0n) o[i] = NA_BIGINT
    else {
      const r = x % y
      o[i] = r !== 0n && r < 0n !== y < 0n ? r + y : r
    }
  }
  return o
}

/** x rounded to the nearest multiple of `unit` (> 0), halves away from zero; N/A past the 64-bit range. */
export function roundBigints(a: BigInt64Array, unit: bigint, n: number): BigInt64Array {
  const o = new BigInt64Array(n)
  const limit = -NA_BIGINT - 1n
  for (let i = 0; i < n; i++) {
    const x = a[i]
    if (x === NA_BIGINT) {
      o[i] = NA_BIGINT
      continue
    }
    const magnitude = x < 0n ? -x : x
    const down = (magnitude / unit) * unit
    const up = 2n * (magnitude - down) >= unit ? down + unit : down
    const r = x < 0n ? -up : up
    o[i] = r > limit || r < -limit ? NA_BIGINT : r
  }
  return o
}

/** Row-wise max (or min) into `acc`; N/A if either is N/A. */
export function extremeBigints(acc: BigInt64Array, b: BigInt64Array | bigint, n: number, isMax: boolean): void {
  for (let i = 0; i < n; i++) {
    const x = acc[i]
    const y = typeof b === 'bigint' ? b : b[i]
    acc[i] = x === NA_BIGINT || y === NA_BIGINT ? NA_BIGINT : isMax === x > y ? x : y
  }
}
