/**
 * The display text of a cell: one pure function of the value, its column's kind and its format
 * string, used by every place a person reads values (the `:text` and `:html` views, and the
 * workbench, which asks for `values_=formatted`), so they all agree. JSON stays raw unless a
 * client asks for the same text.
 *
 * What the format's `type` does (anything else is shown as if no type were given):
 * - num, nocommas, char, none: the plain number; commas: with thousands separators;
 * - pct: times 100 with a %; currency: $, separators and 2 decimals unless dec says otherwise,
 *   a minus in front of the $ (-$3.20);
 * - date (mm/dd/yy), date4y (mm/dd/yyyy), hms12, hms24, hm12, hm24 for yyyymmdd and hhmmss
 *   integers; a value that is no such date or time is shown as the plain number.
 * Then `dec` fixes the decimals (an integer gets a point and that many zeros), `padwith` and
 * `padto` fill numbers (not dates and times) and plain or `char` text out, and a `cutAt` width
 * cuts it all (width−2 characters and " >").
 * N/A (null, NaN, infinities) shows as empty, whatever the format.
 */
import { CLOCK_TYPES } from './clock.js'
import { cut, pad } from './fit.js'
import { fixedDecimals, floatText, groupThousands, integerText } from './numbers.js'
import { displaySpec, type DisplaySpec } from './spec.js'

export { parseFormat, displaySpec, widthOf, type DisplaySpec } from './spec.js'

/** What a display formatter needs to know about its column. */
export interface DisplayColumn {
  /**
   * The column's kind: 'int', 'float', 'text', 'date' (our logical types), the 1010data letters
   * i, j, f, a, or a numeric kind this code does not know yet, whose whole values are shown like
   * an int's and the rest like a float's.
   */
  readonly kind: string
  /** The `key:value;…` format string; '' when there is none. */
  readonly format: string
  /** The width a value is cut at; null or absent when values are shown whole. */
  readonly cutAt?: number | null
}

const FLOAT_KINDS = new Set(['float', 'f'])
const DATE_KINDS = new Set(['date'])

/** Display types whose text padwith and padto fill out (numbers: every type but dates and times). */
const PADDED_TEXT_TYPES = new Set(['', 'char'])

/** A number as the pieces display needs: exact digits for a whole number, else the float. */
type Numeric = { readonly digits: string } | { readonly float: number }

function numericOf(value: number | bigint, kind: string): Numeric {
  if (typeof value === 'bigint') return { digits: value.toString() }
  if (FLOAT_KINDS.has(kind) || !Number.isInteger(value)) return { float: value }
  // Past 2^53 a float holds no exact integer anyway; BigInt writes the one it holds, never 1e+21.
  return { digits: Number.isSafeInteger(value) ? String(value) : BigInt(value).toString() }
}

function plainText(n: Numeric, dec: number | null): string {
  return 'digits' in n ? integerText(n.digits, dec) : floatText(n.float, dec)
}

/** 100 times the number: exact for digits (append 00), a float product otherwise. */
function hundredTimes(n: Numeric): Numeric {
  if ('float' in n) return { float: n.float * 100 }
  return { digits: n.digits === '0' ? '0' : n.digits + '00' }
}

function magnitudeOf(n: Numeric): Numeric {
  return 'float' in n ? { float: Math.abs(n.float) } : { digits: n.digits.replace(/^-/, '') }
}

const isNegative = (n: Numeric): boolean => ('float' in n ? n.float < 0 : n.digits.startsWith('-'))

/** The number as its display type shows it, and the sign part a zero fill goes after. */
function numberText(n: Numeric, spec: DisplaySpec): { text: string; prefix: string } {
  const sign = isNegative(n) ? '-' : ''
  switch (spec.type) {
    case 'commas':
      return { text: groupThousands(plainText(n, spec.dec)), prefix: sign }
    case 'pct':
      return { text: groupThousands(plainText(hundredTimes(n), spec.dec)) + '%', prefix: sign }
    case 'currency': {
      const magnitude = magnitudeOf(n)
      const digits = 'float' in magnitude ? fixedDecimals(magnitude.float, spec.dec ?? 2) : integerText(magnitude.digits, spec.dec ?? 2)
      // A value that rounds to zero shows no minus: -$0.00 would read as a debt of nothing.
      const prefix = (sign && /[1-9]/.test(digits) ? '-' : '') + '$'
      return { text: prefix + groupThousands(digits), prefix }
    }
    default:
      return { text: plainText(n, spec.dec), prefix: sign }
  }
}

/** The date or time type that applies to a whole number, if the column shows one. */
function clockOf(spec: DisplaySpec, kind: string): ((value: number) => string | null) | undefined {
  if (spec.type === '' && DATE_KINDS.has(kind)) return CLOCK_TYPES.date
  return Object.hasOwn(CLOCK_TYPES, spec.type) ? CLOCK_TYPES[spec.type] : undefined
}

/** Fill out (padwith, padto, when `padded`) and cut (cutAt) a shown value. */
function fit(text: string, prefix: string, spec: DisplaySpec, padded: boolean, cutAt: number | null): string {
  let out = text
  const size = spec.padto ?? spec.width
  if (padded && spec.padwith !== null && size !== null) out = pad(out, spec.padwith, size, { prefix })
  return cutAt === null ? out : cut(out, cutAt)
}

/**
 * Whether text values are shown exactly as they are (no cut, no padding), so a renderer can skip
 * the formatter for a text column.
 */
export function showsTextAsIs(column: DisplayColumn): boolean {
  const spec = displaySpec(column.format)
  return (column.cutAt ?? null) === null && !(spec.padwith !== null && (spec.padto ?? spec.width) !== null && PADDED_TEXT_TYPES.has(spec.type))
}

/** A reader of a column's display text, built once per column so the row loop stays flat. */
export function displayFormatter(column: DisplayColumn): (value: unknown) => string {
  const spec = displaySpec(column.format)
  const kind = column.kind.toLowerCase()
  const cutAt = column.cutAt ?? null
  const clock = clockOf(spec, kind)
  // 1010data pads numbers of every numeric type but never dates and times, valid or not.
  const padNumbers = clock === undefined
  const padText = PADDED_TEXT_TYPES.has(spec.type)
  const showNumber = (value: number | bigint): string => {
    if (clock !== undefined && typeof value === 'number' && Number.isInteger(value)) {
      const shown = clock(value)
      if (shown !== null) return cutAt === null ? shown : cut(shown, cutAt)
    }
    const { text, prefix } = numberText(numericOf(value, kind), clock === undefined ? spec : { ...spec, type: '' })
    return fit(text, prefix, spec, padNumbers, cutAt)
  }
  return (value) => {
    if (value === null || value === undefined) return ''
    if (typeof value === 'number') return Number.isFinite(value) ? showNumber(value) : ''
    if (typeof value === 'bigint') return showNumber(value)
    return fit(String(value), '', spec, padText, cutAt)
  }
}
