/**
 * Which of `count` partitions each row's key tuple falls to, so that a partition holds whole
 * groups: equal tuples always fall to the same one. Values are told apart as the group-by kernel
 * tells them: text by its code (one column, one dictionary), ints and dates as they are, floats
 * with -0 as 0 and every NaN (N/A) alike.
 */
import { bigintWords } from './bigint.js'
import type { Column } from './types.js'

/** Mixes a 32-bit value into a running hash (the multiply-xorshift steps of a common finalizer). */
function mix(h: number, v: number): number {
  let x = Math.imul(h ^ v, 0x9e3779b1)
  x ^= x >>> 15
  x = Math.imul(x, 0x85ebca6b)
  return x ^ (x >>> 13)
}

/** A hash as a partition: its top bits scaled to [0, count), no division. */
const partitionOf = (h: number, count: number): number => ((h >>> 0) * count * 2.3283064365386963e-10) | 0

const bits = new Float64Array(1)
const halves = new Int32Array(bits.buffer)

/** The key tuple of each row hashed (one column of int codes: read as it is). */
function hashes(cols: readonly Column[], rows: number): Int32Array {
  const hash = new Int32Array(rows)
  for (const col of cols) {
    if (col.type === 'bigint') {
      const w = bigintWords(col.data)
      for (let r = 0; r < rows; r++) hash[r] = mix(mix(hash[r], w[2 * r]), w[2 * r + 1])
    } else if (col.type === 'float') {
      const d = col.data
      for (let r = 0; r < rows; r++) {
        const v = d[r]
        bits[0] = v === 0 ? 0 : v === v ? v : Number.NaN
        hash[r] = mix(mix(hash[r], halves[0]), halves[1])
      }
    } else {
      const d = col.type === 'text' ? col.codes : col.data
      for (let r = 0; r < rows; r++) hash[r] = mix(hash[r], d[r])
    }
  }
  return hash
}

/** The rows, in order, whose key tuple falls to partition `index` of `count`. */
export function rowsOfPartition(cols: readonly Column[], rows: number, index: number, count: number): Int32Array {
  const one = cols.length === 1 && cols[0].type !== 'float' && cols[0].type !== 'bigint'
  // One int column is hashed as it is read rather than into a column of hashes first.
  const keys = one ? (cols[0].type === 'text' ? cols[0].codes : (cols[0].data as Int32Array)) : hashes(cols, rows)
  const hashed = !one
  const at = (k: number): number => partitionOf(hashed ? k : mix(0, k), count)
  let n = 0
  for (let r = 0; r < rows; r++) n += +(at(keys[r]) === index)
  // The partition is worked out again rather than kept: a pass of two multiplies a row costs
  // less than writing and reading back four bytes a row of fresh memory.
  const out = new Int32Array(n)
  let k = 0
  for (let r = 0; r < rows; r++) {
    out[k] = r
    k += +(at(keys[r]) === index)
  }
  return out
}
