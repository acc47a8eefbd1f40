/**
 * Loops of the one-argument math functions. Ints stay ints where the function maps integers to
 * integers (abs, sign, and ceil/floor/int, which leave them unchanged); the others give floats,
 * with results that are not finite reals (ln 0, sqrt -1, exp overflow) as N/A.
 */
import { bigintToFloats, bigintWords } from '../columns/index.js'
import { NA_INT, type BigIntColumn, type Column, type FloatColumn, type NumberColumn } from '../columns/types.js'

/** The one-argument math functions (ceiling is ceil, registered twice). */
export type UnaryName = 'abs' | 'ceil' | 'floor' | 'int' | 'sign' | 'sqrt' | 'exp' | 'ln' | 'log10'

/** Applies `name` to a numeric column. */
export function mathUnary(name: UnaryName, col: NumberColumn, n: number): Column {
  if (col.type === 'bigint') return bigintUnary(name, col, n)
  if (col.type === 'float') return floatUnary(name, col.data, n)
  const d = col.data
  switch (name) {
    case 'abs': {
      const o = new Int32Array(n)
      for (let i = 0; i < n; i++) o[i] = Math.abs(d[i]) | 0 // NA_INT is the only Int32 whose abs overflows, and |0 maps it back to NA_INT
      return { type: 'int', data: o }
    }
    case 'sign': {
      const o = new Int32Array(n)
      for (let i = 0; i < n; i++) {
        const x = d[i]
        o[i] = x === NA_INT ? NA_INT : +(x > 0) - +(x < 0)
      }
      return { type: 'int', data: o }
    }
    case 'ceil':
    case 'floor':
    case 'int':
      return { type: 'int', data: d }
    default: {
      const f = new Float64Array(n)
      for (let i = 0; i < n; i++) f[i] = d[i] === NA_INT ? NaN : d[i]
      return floatUnary(name, f, n)
    }
  }
}

/**
 * A big integer keeps its type under abs, ceil and floor (exact); sign and int give ints (int is
 * N/A past the 32-bit range); the others read it as its nearest float64 and give decimals.
 */
function bigintUnary(name: UnaryName, col: BigIntColumn, n: number): Column {
  switch (name) {
    case 'ceil':
    case 'floor':
      return col
    case 'abs':
      return { type: 'bigint', data: absBigints(col.data, n) }
    default:
      return floatUnary(name, bigintToFloats(col.data), n)
  }
}

/** |x| exactly, on the words (−x is two's complement: invert and add one); N/A stays N/A. */
function absBigints(src: BigInt64Array, n: number): BigInt64Array {
  const out = src.slice(0, n)
  const w = bigintWords(out)
  for (let i = 0; i < n; i++) {
    const hi = w[2 * i + 1]
    const lo = w[2 * i]
    if (hi >= 0 || (hi === -2147483648 && lo === 0)) continue
    const nlo = (~lo + 1) | 0
    w[2 * i] = nlo
    w[2 * i + 1] = (~hi + (nlo === 0 ? 1 : 0)) | 0
  }
  return out
}

function floatUnary(name: UnaryName, d: Float64Array, n: number): Column {
  if (name === 'int' || name === 'sign') return { type: 'int', data: toIntLoop(name, d, n) }
  const o = new Float64Array(n)
  switch (name) {
    case 'abs':
      for (let i = 0; i < n; i++) o[i] = Math.abs(d[i])
      break
    case 'ceil':
      for (let i = 0; i < n; i++) o[i] = Math.ceil(d[i])
      break
    case 'floor':
      for (let i = 0; i < n; i++) o[i] = Math.floor(d[i])
      break
    case 'sqrt':
      for (let i = 0; i < n; i++) o[i] = Math.sqrt(d[i])
      break
    case 'exp':
      for (let i = 0; i < n; i++) {
        const r = Math.exp(d[i])
        o[i] = r === Infinity ? NaN : r
      }
      break
    case 'ln':
      for (let i = 0; i < n; i++) {
        const x = d[i]
        o[i] = x > 0 ? Math.log(x) : NaN
      }
      break
    case 'log10':
      for (let i = 0; i < n; i++) {
        const x = d[i]
        o[i] = x > 0 ? Math.log10(x) : NaN
      }
      break
  }
  return { type: 'float', data: o } as FloatColumn
}

/** int(X) truncates toward zero, sign(X) is -1/0/1; N/A (or beyond the Int32 range) is N/A. */
function toIntLoop(name: 'int' | 'sign', d: Float64Array, n: number): Int32Array {
  const o = new Int32Array(n)
  if (name === 'sign') {
    for (let i = 0; i < n; i++) {
      const x = d[i]
      o[i] = x !== x ? NA_INT : +(x > 0) - +(x < 0)
    }
    return o
  }
  for (let i = 0; i < n; i++) {
    const t = Math.trunc(d[i])
    o[i] = (t | 0) === t ? t : NA_INT // NaN and out-of-range values fail the round trip
  }
  return o
}
