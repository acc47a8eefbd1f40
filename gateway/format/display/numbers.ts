/**
 * Numbers as decimal text: exact for integers of any size (they arrive as digits, so a 64-bit
 * integer is never rounded through a float), and for floats rounded at `dec` the way a person
 * rounds the number they see (half away from zero on its shortest decimal form, so 1.005 at two
 * decimals is 1.01, where toFixed gives 1.00 from the binary value just below).
 */

/** Floats with no `dec` show up to this many decimals (trailing zeros trimmed). */
const DEFAULT_DECIMALS = 6

/** "-0.00" reads as a bug to people; show zero without a sign. */
export function unsignZero(text: string): string {
  // charCodeAt first: this runs once per shown number, and most are not negative.
  return text.charCodeAt(0) === 45 && /^-0(\.0*)?$/.test(text) ? text.slice(1) : text
}

/** Thousands separators in the whole part of a plain decimal ("-1234.5" → "-1,234.5"). */
export function groupThousands(text: string): string {
  if (/e/i.test(text)) return text // an exponent: leave it readable as it is
  const start = text.charCodeAt(0) === 45 ? 1 : 0
  const point = text.indexOf('.')
  const end = point < 0 ? text.length : point
  if (end - start <= 3) return text
  // A loop, not a lookahead regex: this runs once per shown number.
  let out = text.slice(0, start)
  const first = start + ((end - start) % 3 || 3)
  out += text.slice(start, first)
  for (let i = first; i < end; i += 3) out += ',' + text.slice(i, i + 3)
  return out + text.slice(end)
}

/** Whole-number digits (with an optional minus) and `dec` zeros after a point, as 1010data does. */
export function integerText(digits: string, dec: number | null): string {
  return dec === null || dec === 0 ? digits : `${digits}.${'0'.repeat(dec)}`
}

/** Add one to a string of decimal digits ("199" → "200", "99" → "100"). */
function incrementDigits(digits: string): string {
  let i = digits.length - 1
  while (i >= 0 && digits[i] === '9') i--
  if (i < 0) return '1' + '0'.repeat(digits.length)
  return digits.slice(0, i) + String(Number(digits[i]) + 1) + '0'.repeat(digits.length - i - 1)
}

/** Powers of ten up to the largest `dec`. */
const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i)

/**
 * `value` with exactly `dec` decimals, rounded half away from zero on its shortest decimal form.
 * toFixed rounds the binary value instead, which differs only near a tie (1.005 is stored just
 * below it) or when the digits shown pass a double's precision (noise digits); both are sent to
 * the exact decimal rounding, and the common case keeps toFixed's speed.
 */
export function fixedDecimals(value: number, dec: number): string {
  const scaled = Math.abs(value) * POW10[dec]
  if (scaled < 1e14) {
    // Up to 14 digits shown: the binary value is within 0.01 of a last-digit unit of the decimal.
    const fraction = scaled - Math.floor(scaled)
    if (Math.abs(fraction - 0.5) > 0.05) return unsignZero(value.toFixed(dec))
  }
  return decimalRounded(value, dec)
}

/**
 * Rounding on String(value), the shortest decimal that reads back as the value. Magnitudes
 * JavaScript writes with an exponent (below 1e-6 or from 1e21) use toFixed, whose binary
 * rounding is then as good as any.
 */
export function decimalRounded(value: number, dec: number): string {
  const text = String(Math.abs(value))
  if (text.includes('e')) return unsignZero(value.toFixed(dec))
  const [whole, fraction = ''] = text.split('.')
  let digits = whole + fraction.padEnd(dec + 1, '0').slice(0, dec)
  if ((fraction[dec] ?? '0') >= '5') digits = incrementDigits(digits)
  const wholeLength = digits.length - dec
  const out = dec === 0 ? digits : `${digits.slice(0, wholeLength)}.${digits.slice(wholeLength)}`
  return unsignZero((value < 0 ? '-' : '') + out)
}

/** Drop trailing zeros of a fraction (and a bare trailing point), keeping any exponent. */
function trimFraction(text: string): string {
  const e = text.search(/e/i)
  const mantissa = e < 0 ? text : text.slice(0, e)
  if (!mantissa.includes('.')) return text
  return mantissa.replace(/\.?0+$/, '') + (e < 0 ? '' : text.slice(e))
}

/**
 * A float as text: `dec` fixed decimals when given; otherwise up to six decimals with trailing
 * zeros trimmed, and for magnitudes below 1 six significant digits so that tiny values do not
 * collapse to 0.
 */
export function floatText(value: number, dec: number | null): string {
  if (dec !== null) return fixedDecimals(value, dec)
  const small = Math.abs(value) < 1 && value !== 0
  return unsignZero(trimFraction(small ? value.toPrecision(DEFAULT_DECIMALS) : fixedDecimals(value, DEFAULT_DECIMALS)))
}
