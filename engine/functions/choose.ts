/**
 * The core of if() and case(): given 0/1 conditions and candidate values, each row takes the
 * value of its first true condition, or the default. Values are brought to one type first
 * (floats if any is a float; text on one merged dictionary), then written from the last
 * condition to the first so that the first true one is written last and wins.
 */
import { bigintWords, mergeDicts, toBigint, toFloat } from '../columns/index.js'
import { NA_BIGINT, NA_INT, type Column, type ColumnType, type Value } from '../columns/types.js'
import { callError, isColumn, isScalar, scalarIsNA } from './args.js'
import { truthy } from './logic.js'

/** A candidate value as the result representation: an array, or a constant. */
type Source = Int32Array | Float64Array | number

/**
 * @param conds the conditions, one per value, in priority order
 * @param values the candidate values, one per condition
 * @param fallback the default value (rows where no condition holds)
 */
export function choose(conds: readonly Value[], values: readonly Value[], fallback: Value, type: ColumnType, rows: number): Column {
  const all = [...values, fallback]
  if (type === 'bigint') return chooseBigint(conds, all, rows)
  let dict: string[] | null = null
  let sources: Source[]
  if (type === 'text') {
    const merged = textSources(all)
    dict = merged.dict
    sources = merged.sources
  } else {
    sources = all.map((v) => numericSource(v, type === 'float'))
  }
  const out = type === 'float' ? new Float64Array(rows) : new Int32Array(rows)
  fill(out, sources[sources.length - 1], rows)
  for (let k = conds.length - 1; k >= 0; k--) {
    const c = conds[k]
    if (!isColumn(c)) {
      if (!isScalar(c)) throw callError('A condition cannot be a list of values.')
      if (!scalarIsNA(c) && c.value !== 0) fill(out, sources[k], rows)
      continue
    }
    overwrite(out, asZeroOne(c, rows), sources[k], rows)
  }
  if (dict !== null) return { type: 'text', codes: out as Int32Array, dict }
  return type === 'float' ? { type, data: out as Float64Array } : { type: type as 'int' | 'date', data: out as Int32Array }
}

/**
 * choose() for big integers: every candidate as the Int32 words of its values (two a row), chosen
 * word by word with the same 0/1 arithmetic as ints, so no BigInt is made per row.
 */
function chooseBigint(conds: readonly Value[], all: readonly Value[], rows: number): Column {
  const sources = all.map((v) => bigintSource(v, rows))
  const data = new BigInt64Array(rows)
  const out = bigintWords(data)
  out.set(sources[sources.length - 1])
  for (let k = conds.length - 1; k >= 0; k--) {
    const c = conds[k]
    if (!isColumn(c)) {
      if (!isScalar(c)) throw callError('A condition cannot be a list of values.')
      if (!scalarIsNA(c) && c.value !== 0) out.set(sources[k])
      continue
    }
    const when = asZeroOne(c, rows)
    const s = sources[k]
    for (let i = 0; i < rows; i++) {
      const w = when[i]
      const lo = out[2 * i]
      const hi = out[2 * i + 1]
      out[2 * i] = lo + (s[2 * i] - lo) * w
      out[2 * i + 1] = hi + (s[2 * i + 1] - hi) * w
    }
  }
  return { type: 'bigint', data }
}

/** A candidate's values as big-integer words, a constant repeated on every row. */
function bigintSource(v: Value, rows: number): Int32Array {
  if (isScalar(v)) {
    if (v.type === 'text') throw callError('Cannot mix text and numbers in the results.')
    if (v.type === 'float') throw new Error('choose: a decimal among big integers (the checker types the result float)')
    const value = scalarIsNA(v) ? NA_BIGINT : BigInt(v.value)
    return bigintWords(new BigInt64Array(rows).fill(value))
  }
  if (!isColumn(v) || v.type === 'text' || v.type === 'float') throw callError('Cannot mix text and numbers (or lists) in the results.')
  return bigintWords(toBigint(v).data)
}

/**
 * The condition as 0/1 per row: an int column that holds only 0 and 1 (every comparison's
 * result) as it is, read once to be sure, rather than copied through truthy().
 */
function asZeroOne(c: Column, rows: number): Int32Array {
  if (c.type === 'int' && onlyZeroOne(c.data, rows)) return c.data
  return truthy(c, rows)
}

function onlyZeroOne(d: Int32Array, rows: number): boolean {
  let other = 0
  for (let i = 0; i < rows; i++) other |= d[i] & ~1
  return other === 0
}

function numericSource(v: Value, float: boolean): Source {
  if (isScalar(v)) {
    if (v.type === 'text') throw callError('Cannot mix text and numbers in the results.')
    return scalarIsNA(v) ? (float ? NaN : NA_INT) : Number(v.value)
  }
  if (!isColumn(v) || v.type === 'text') throw callError('Cannot mix text and numbers (or lists) in the results.')
  if (float) return toFloat(v).data
  if (v.type === 'int' || v.type === 'date') return v.data
  throw new Error('choose: a decimal or big integer among ints (the checker types the result wider)')
}

/** Text candidates as codes of one merged dictionary (constants as single codes). */
function textSources(values: readonly Value[]): { dict: string[]; sources: Source[] } {
  const dicts = values.map((v) => {
    if (isScalar(v) && v.type === 'text') return ['', v.value].filter((s, i) => i === 0 || s !== '')
    if (isColumn(v) && v.type === 'text') return v.dict
    throw callError('Cannot mix text and numbers (or lists) in the results.')
  })
  const { dict, remaps } = mergeDicts(dicts)
  const sources = values.map((v, k): Source => {
    const remap = remaps[k]
    if (isScalar(v)) return remap[remap.length - 1] // '' alone maps to 0
    const codes = (v as Column & { type: 'text' }).codes
    const o = new Int32Array(codes.length)
    for (let i = 0; i < codes.length; i++) o[i] = remap[codes[i]]
    return o
  })
  return { dict, sources }
}

function fill(out: Int32Array | Float64Array, src: Source, rows: number): void {
  if (typeof src === 'number') out.fill(src)
  else out.set(src.subarray(0, rows))
}

/**
 * out[i] = src[i] where when[i] is 1. `when` holds only 0 and 1 (asZeroOne), so the choice is
 * arithmetic, not a branch: a condition true for about half the rows in no order (`amount>100`)
 * mispredicted every other row. Ints take o + (s - o) * w, exact in doubles for any two int32
 * values; floats cannot (NaN, rounding), so they pick from a pair by index.
 */
function overwrite(out: Int32Array | Float64Array, when: Int32Array, src: Source, rows: number): void {
  if (out instanceof Float64Array) {
    const pair = new Float64Array(2)
    if (typeof src === 'number') {
      pair[1] = src
      for (let i = 0; i < rows; i++) {
        pair[0] = out[i]
        out[i] = pair[when[i]]
      }
    } else {
      const s = src as Float64Array
      for (let i = 0; i < rows; i++) {
        pair[0] = out[i]
        pair[1] = s[i]
        out[i] = pair[when[i]]
      }
    }
  } else if (typeof src === 'number') {
    for (let i = 0; i < rows; i++) {
      const o = out[i]
      out[i] = o + (src - o) * when[i]
    }
  } else {
    const s = src as Int32Array
    for (let i = 0; i < rows; i++) {
      const o = out[i]
      out[i] = o + (s[i] - o) * when[i]
    }
  }
}
