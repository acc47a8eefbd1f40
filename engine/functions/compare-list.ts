/**
 * List membership for `X = 'NY' 'CA'` (1 when X equals any member) and `X <> …` (equals none).
 * Text looks each member up once and then reads a per-code table; numbers scan a short list
 * or binary-search a sorted one. N/A equals a member only if that member is N/A.
 */
import { lookupCode } from '../columns/index.js'
import { NA_INT, type Column } from '../columns/types.js'
import { isFloat64 } from '../columns/index.js'

const LINEAR_LIMIT = 8

/** 0/1 per row: does the row's value occur in `values`? (negated when `none`) */
export function listMembership(col: Column, values: readonly (number | string)[], n: number, none: boolean): Int32Array {
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
  const nums = values.map(Number)
  const naMember = nums.some((v) => v !== v || v === NA_INT) ? 1 : 0
  const members = Float64Array.from(nums.filter((v) => v === v && v !== NA_INT)).sort()
  if (isFloat64(col)) {
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
