/**
 * List membership for `X = 'NY' 'CA'` (1 when X equals any member) and `X <> …` (equals none).
 * Text looks each member up once and then reads a per-code table; numbers scan a short list
 * or binary-search a sorted one. N/A equals a member only if that member is N/A.
 */
import { lookupCode } from '../columns/index.js'
import { NA_BIGINT, NA_INT, type Column } from '../columns/types.js'

const LINEAR_LIMIT = 8

/** 0/1 per row: does the row's value occur in `values`? (negated when `none`) */
export function listMembership(col: Column, values: readonly (number | bigint | string)[], n: number, none: boolean): Int32Array {
  const flip = none ? 1 : 0
  const o = new Int32Array(n)
  if (col.type === 'text') {
    const hit = new Int32Array(col.dict.length)
    for (const v of values) {
      const code = lookupCode(col.dict, String(v))
      if (code >= 0) hit[code] = 1
    }
    const codes = col.codes
    for (let i = 0; i < n; i++) o[i] = hit[codes[i]] ^ flip
    return o
  }
  if (col.type === 'bigint') return bigintMembership(col.data, values as readonly (number | bigint)[], n, flip)
  const nums = values as readonly (number | bigint)[]
  // N/A members are NaN (eval.ts): −2^31 in a list is that number, never an int's N/A.
  const naMember = nums.some((v) => v !== v) ? 1 : 0
  const members = Float64Array.from(nums.flatMap((v) => (typeof v === 'bigint' ? exactDouble(v) : v === v ? [v] : []))).sort()
  if (col.type === 'float') {
    const data = col.data
    for (let i = 0; i < n; i++) {
      const x = data[i]
      o[i] = (x !== x ? naMember : contains(members, x)) ^ flip
    }
  } else {
    const data = col.data
    for (let i = 0; i < n; i++) {
      const x = data[i]
      o[i] = (x === NA_INT ? naMember : contains(members, x)) ^ flip
    }
  }
  return o
}

/** A big integer as the one double equal to it, if there is one (past 2^53 most have none). */
const exactDouble = (v: bigint): number[] => (BigInt(Number(v)) === v ? [Number(v)] : [])

/** Membership of big integers: members kept exactly (a whole number of another type as its integer). */
function bigintMembership(data: BigInt64Array, values: readonly (number | bigint)[], n: number, flip: number): Int32Array {
  const o = new Int32Array(n)
  const members = new Set<bigint>()
  let naMember = 0
  for (const v of values) {
    if (typeof v === 'bigint') members.add(v)
    else if (v !== v) naMember = 1
    else if (Number.isInteger(v)) members.add(BigInt(v))
  }
  for (let i = 0; i < n; i++) {
    const x = data[i]
    o[i] = (x === NA_BIGINT ? naMember : +members.has(x)) ^ flip
  }
  return o
}

function contains(sorted: Float64Array, x: number): number {
  const k = sorted.length
  if (k <= LINEAR_LIMIT) {
    for (let j = 0; j < k; j++) if (sorted[j] === x) return 1
    return 0
  }
  let lo = 0
  let hi = k
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid] < x) lo = mid + 1
    else hi = mid
  }
  return lo < k && sorted[lo] === x ? 1 : 0
}
