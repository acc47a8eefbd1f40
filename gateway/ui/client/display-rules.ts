/**
 * The display rules of a cell, one source for both sides: the server's text and HTML answers
 * (gateway/format/values.ts) and the workbench's tables (cells.ts) show N/A, dates and floats
 * alike because they run this same file.
 *
 * It lives in the workbench's folder because the browser can load only what the UI build
 * (gateway/ui/tsconfig.json) emits, and that build compiles this folder alone; the server's
 * build compiles it too, through the import in values.ts. That build has no DOM library, so
 * this file must stay pure: strings and numbers in, strings out.
 */

/**
 * Parse a `key:value;key:value` format string (`type:num;width:12;dec:2`). Keys are trimmed and
 * lower-cased, values trimmed; empty or colon-less parts are skipped. A repeated key is dropped
 * and the first one counts, as 1010data documents (`type:pct;type:num;dec:1` is a percentage).
 * The format comes from user metadata, so it must never throw.
 */
export function parseFormat(format: string): ReadonlyMap<string, string> {
  const out = new Map<string, string>()
  for (const part of format.split(';')) {
    const colon = part.indexOf(':')
    if (colon < 0) continue
    const key = part.slice(0, colon).trim().toLowerCase()
    if (key !== '' && !out.has(key)) out.set(key, part.slice(colon + 1).trim())
  }
  return out
}

/** toFixed's useful range; a float has ~17 significant digits, so more decimals are noise. */
const MAX_DECIMALS = 20

/** Decimals shown for a float whose format has no `dec`. */
const DEFAULT_DECIMALS = 6

/** The `dec:N` of a parsed format, clamped to 0…20, or null when absent or not a whole number. */
export function decimalsOf(format: ReadonlyMap<string, string>): number | null {
  const dec = format.get('dec')
  if (dec === undefined || !/^\d+$/.test(dec)) return null
  return Math.min(Number(dec), MAX_DECIMALS)
}

/** The `dec:N` of a format string: decimalsOf(parseFormat(format)). */
export const formatDecimals = (format: string): number | null => decimalsOf(parseFormat(format))

/** "-0.00" reads as a bug to people; show zero without a sign. */
export function unsignZero(text: string): string {
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text
}

/** Drop trailing zeros of a fraction (and a bare trailing point), keeping any exponent. */
function trimFraction(text: string): string {
  const e = text.search(/e/i)
  const mantissa = e < 0 ? text : text.slice(0, e)
  const exponent = e < 0 ? '' : text.slice(e)
  if (!mantissa.includes('.')) return text
  return mantissa.replace(/\.?0+$/, '') + exponent
}

/**
 * Display text of a finite float: `dec` fixed decimals when the format gives them; otherwise up
 * to six decimals with trailing zeros trimmed, and for magnitudes below 1 six significant digits
 * so that tiny values do not collapse to 0.
 */
export function displayFloat(value: number, dec: number | null): string {
  if (dec !== null) return unsignZero(value.toFixed(dec))
  const text = Math.abs(value) >= 1 || value === 0 ? value.toFixed(DEFAULT_DECIMALS) : value.toPrecision(DEFAULT_DECIMALS)
  return unsignZero(trimFraction(text))
}

/**
 * Display text of a yyyymmdd integer as YYYY-MM-DD. Values that cannot be a date (a JSON number
 * need not even be whole) are shown as the plain number rather than as a misleading date.
 */
export function displayDate(value: number): string {
  const day = value % 100
  const month = Math.floor(value / 100) % 100
  const year = Math.floor(value / 10000)
  if (!Number.isInteger(value) || value <= 0 || year > 9999 || month < 1 || month > 12 || day < 1 || day > 31) return String(value)
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}
