/**
 * SQLite's conversions between numbers and text, and its round(), one value at a time, for the
 * SQL kernels (text.ts). Each returns SQLite's answer, or `undefined` where it cannot be sure
 * of it (the kernel then declines the plan, and the query runs on sql.js).
 *
 * How SQLite (3.53 on, as in sql.js) turns a double into decimal digits, as measured against
 * sql.js: it takes the value's first 18 (sometimes 19) significant digits, rounded, and works
 * from those digits alone:
 * - as text (CAST, ||) a real is `%!.17g`: those digits rounded again to 17, shortened only
 *   where they end in a run of 0s or 9s from the 14th digit that a shorter number gives back;
 *   always a decimal point (`1.0`), an exponent below 1e-4 and from 1e17 up (`1.0e+17`);
 * - round(x, n) is `%!.nf` of those digits (rounded half up), read back as a double.
 * The 18 digits come from a 64-bit product, not exactly: where the value is close to halfway
 * between two 18-digit numbers, both are tried, and a disagreement is declined.
 */

const TWO52 = 2 ** 52

/** An integer as SQLite prints it (-0 is the integer 0). */
export const integerText = (v: number): string => String(v === 0 ? 0 : v)

/** The exact value of a positive finite double as mantissa × 2^exponent, the mantissa of 64 bits (top bit set). */
function binary64(a: number): { m: bigint; e: number } {
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, a)
  const hi = view.getUint32(0)
  const lo = view.getUint32(4)
  const biased = (hi >>> 20) & 0x7ff
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo)
  const e = biased === 0 ? -1074 : biased - 1075
  if (biased !== 0) m |= 1n << 52n
  // Normalise to 64 bits, as SQLite does before scaling.
  const shift = 64 - m.toString(2).length
  return { m: m << BigInt(shift), e: e - shift }
}

/**
 * The candidates for SQLite's 18-digit reading of a positive double: `digits` (18 or 19 of them)
 * and the power of ten of its last digit. Two candidates where the value lies near halfway.
 */
function decimalReadings(a: number): { digits: string[]; exp: number } {
  const { m, e } = binary64(a)
  // SQLite's estimate of the power of ten that brings the value to 18 digits.
  const p = 17 - (((e + 63) * 78913) >> 18)
  let num = m
  let den = 1n
  if (e >= 0) num <<= BigInt(e)
  else den <<= BigInt(-e)
  if (p >= 0) num *= 10n ** BigInt(p)
  else den *= 10n ** BigInt(-p)
  const q = num / den
  const twice = (2n * (num % den) * 8n) / den // the fraction in eighths of a unit, times 2
  // Within a quarter of a unit of halfway, SQLite's inexact product may round either way.
  if (twice >= 4n && twice < 12n) return { digits: [q.toString(), (q + 1n).toString()], exp: -p }
  return { digits: [(twice >= 8n ? q + 1n : q).toString()], exp: -p }
}

/** Rounds digit string z (a number z × 10^exp) to `keep` digits half up; the digits and the new exponent of the first. */
function roundDigits(z: string, keep: number): { z: string; carried: boolean } {
  if (keep >= z.length) return { z, carried: false }
  if (keep < 0) return { z: '', carried: false }
  const head = z.slice(0, keep)
  if (z.charCodeAt(keep) < 53) return { z: head, carried: false }
  const up = (BigInt(head === '' ? '0' : head) + 1n).toString()
  const width = Math.max(keep, 1)
  return up.length > width || (keep === 0 && up === '1') ? { z: up, carried: true } : { z: up.padStart(keep, '0'), carried: false }
}

/**
 * Whether d × 10^exp reads back as exactly `a`. SQLite reads it with a 64-bit product that is
 * not always the nearest double (sql.js prints 0.000999 as 0.00099900000000000011): only a
 * reading that is certain is answered, a whole number (exact powers of ten) or a decimal that
 * is `a` exactly (0.5, 2.25); null otherwise.
 */
function readsBackAs(a: number, d: string, exp: number): boolean | null {
  if (exp >= 0) return Number(`${d}e${exp}`) === a
  const { m, e } = binary64(a)
  // a = m × 2^e; d × 10^exp = a exactly when d × 2^-e = m × 10^-exp (e is negative here for a
  // fraction; a whole a with exp < 0 has d ending in zeros, which the caller strips).
  const left = e < 0 ? BigInt(d) << BigInt(-e) : BigInt(d)
  const right = (e < 0 ? m : m << BigInt(e)) * 10n ** BigInt(-exp)
  return left === right ? true : null
}

/**
 * SQLite's 17 significant digits of a reading (`%!.17g`): the digits kept (trailing zeros
 * dropped) and the position of the decimal point (value = 0.digits × 10^point); null where
 * SQLite's shortening depends on a reading that is not certain.
 */
function seventeen(a: number, z: string, exp: number): { digits: string; point: number } | null {
  let point = z.length + exp
  let keep = 17
  if (z[15] === '9' && z[14] === '9') {
    let jj = 14
    while (jj > 0 && z[jj - 1] === '9') jj--
    const v2 = jj === 0 ? '1' : (BigInt(z.slice(0, jj)) + 1n).toString()
    const back = readsBackAs(a, v2, exp + z.length - jj)
    if (back === null) return null
    if (back) keep = jj + 1
  } else if (point >= z.length || (z[15] === '0' && z[14] === '0' && z[13] === '0')) {
    let jj = 13
    while (z[jj - 1] === '0') jj--
    const back = readsBackAs(a, z.slice(0, jj), exp + z.length - jj)
    if (back === null) return null
    if (back) keep = jj + 1
  }
  const r = roundDigits(z, keep)
  if (r.carried) point++
  return { digits: r.z.replace(/0+$/, ''), point }
}

function formatG(negative: boolean, digits: string, point: number): string {
  const sign = negative ? '-' : ''
  const exp = point - 1
  if (exp < -4 || exp > 16) {
    const e = Math.abs(exp)
    return `${sign}${digits[0]}.${digits.length > 1 ? digits.slice(1) : '0'}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`
  }
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`
  const whole = digits.length > point ? digits.slice(0, point) : digits.padEnd(point, '0')
  return `${sign}${whole}.${digits.length > point ? digits.slice(point) : '0'}`
}

/** A real as SQLite prints it (CAST AS TEXT, ||); undefined where its digits are uncertain. */
export function realText(v: number): string | undefined {
  if (!Number.isFinite(v)) return undefined
  if (v === 0) return '0.0'
  const a = Math.abs(v)
  const { digits, exp } = decimalReadings(a)
  const texts = new Set(
    digits.map((z) => {
      const s = seventeen(a, z, exp)
      return s === null ? '' : formatG(v < 0, s.digits, s.point)
    }),
  )
  return texts.size === 1 && !texts.has('') ? [...texts][0] : undefined
}

/**
 * SQLite's round(x, n) of a real (n already an integer): n clamped to 0..30, half away from zero,
 * the result a real (a zero always +0.0). Undefined where SQLite's digits are uncertain.
 */
export function sqliteRound(x: number, digits: number): number | undefined {
  const n = Math.min(30, Math.max(0, digits))
  if (!(x >= -TWO52 && x <= TWO52)) return x
  // SQLite adds ±0.5 in doubles and truncates to an integer (so -0.4 gives +0.0).
  if (n === 0) return Math.trunc(x + (x < 0 ? -0.5 : 0.5)) + 0
  if (x === 0) return 0
  const a = Math.abs(x)
  const { digits: readings, exp } = decimalReadings(a)
  const results = new Set(
    readings.map((z0) => {
      let z = z0
      let point = z.length + exp
      let roundTo = point + n
      if (roundTo === 0 && z.charCodeAt(0) >= 53) {
        z = '0' + z
        point++
        roundTo = 1
      }
      if (roundTo > 0 && (roundTo < z.length || z.length > 26)) {
        if (roundTo > 26) roundTo = 26
        if (roundTo === 17) return Number.NaN // SQLite shortens here as for text: not followed
        const r = roundDigits(z, roundTo)
        z = r.z
        if (r.carried) point++
      }
      // %.nf prints the digits up to n places after the point.
      const shown = z.slice(0, Math.max(0, point + n))
      if (shown === '' || /^0*$/.test(shown)) return 0
      return Number(`${x < 0 ? '-' : ''}0.${shown}e${point}`) + 0
    }),
  )
  if (results.size !== 1) return undefined
  const r = [...results][0]
  return r === r ? r : undefined
}

const SPACE = /^[ \t\n\v\f\r]*/
const INTEGER_PREFIX = /^[ \t\n\v\f\r]*([+-]?)([0-9]+)/
const REAL_PREFIX = /^[ \t\n\v\f\r]*([+-]?)(([0-9]+)\.?([0-9]*)|\.([0-9]+))([eE]([+-]?[0-9]+))?/

/**
 * CAST(text AS INTEGER): the leading integer (after white space and a sign), 0 when there is
 * none; undefined beyond 2^53 (SQLite keeps 64 bits, saturating).
 */
export function textToInteger(s: string): number | undefined {
  const m = INTEGER_PREFIX.exec(s)
  if (m === null) return 0
  const digits = m[2].replace(/^0+(?=.)/, '')
  if (digits.length > 16) return undefined
  const v = Number(digits)
  if (v > 2 ** 53) return undefined
  return m[1] === '-' ? -v + 0 : v
}

/** The leading real number of a text: its value, and whether it was written as an integer. */
function realPrefix(s: string): { v: number; integer: boolean } | null | undefined {
  const m = REAL_PREFIX.exec(s)
  if (m === null) return null
  const whole = m[3] ?? ''
  const frac = m[4] ?? m[5] ?? ''
  // Beyond 15 significant digits, or far from 1, SQLite's reading may round otherwise.
  const significant = (whole + frac).replace(/^0+/, '').replace(/0+$/, '')
  if (significant.length > 15) return undefined
  const exp = m[7] === undefined ? 0 : Number(m[7])
  if (Math.abs(exp) > 250) return significant.length === 0 ? { v: m[1] === '-' ? -0 : 0, integer: false } : undefined
  const text = m[0].slice(SPACE.exec(m[0])![0].length)
  const integer = !/[.eE]/.test(m[0])
  return { v: Number(text), integer }
}

/** CAST(text AS REAL): the leading number, 0.0 when there is none. */
export function textToReal(s: string): number | undefined {
  const p = realPrefix(s)
  if (p === undefined) return undefined
  return p === null ? 0 : p.v
}

/**
 * CAST(text AS NUMERIC): the leading number as an integer when it is one (written as one, or a
 * real with no fraction within 64 bits), else as a real; 0 when there is none.
 */
export function textToNumeric(s: string): { v: number; integer: boolean } | undefined {
  const p = realPrefix(s)
  if (p === undefined) return undefined
  if (p === null) return { v: 0, integer: true }
  if (p.integer) return Math.abs(p.v) > 2 ** 53 ? undefined : { v: p.v + 0, integer: true }
  // A real read from the text is an integer when it is whole and below 2^51 in magnitude.
  if (Number.isInteger(p.v) && p.v >= -(2 ** 51) && p.v < 2 ** 51) return { v: p.v + 0, integer: true }
  return { v: p.v, integer: false }
}
