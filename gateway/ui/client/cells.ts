/**
 * How a cell is shown: the server's display rules (gateway/format/values.ts: N/A as empty, dates
 * as YYYY-MM-DD, floats with the format's `dec` or up to six decimals) plus the display kinds of
 * the format string that a person reading a table expects to see applied: `currency` ($1,234.50),
 * `pct` (×100 and %), `commas` (thousands separators). Pure functions: no DOM, so the server's
 * tests can load the compiled file and check them.
 */

/** The 1010data type letters of `!cols`: i integer, j big integer, f float, a text. */
export type TypeLetter = 'i' | 'j' | 'f' | 'a'

export interface ColumnInfo {
  readonly name: string
  readonly label: string
  /** null when `!cols` does not say (sql reports name, label and width only). */
  readonly type: TypeLetter | null
  /** The `key:value;…` format string; '' when unknown. */
  readonly format: string
}

/** Column-major `!cols:json`: one array per property. */
export type ColsDictionary = Readonly<Record<string, readonly unknown[]>>

const TYPE_LETTERS: readonly string[] = ['i', 'j', 'f', 'a']

/** The columns described by `!cols:json`, in result order. */
export function columnsOf(cols: ColsDictionary): ColumnInfo[] {
  const names = cols.name ?? []
  return names.map((name, c) => {
    const type = String(cols.type?.[c] ?? '')
    return {
      name: String(name),
      label: String(cols.label?.[c] ?? name),
      type: TYPE_LETTERS.includes(type) ? (type as TypeLetter) : null,
      format: String(cols.format?.[c] ?? ''),
    }
  })
}

/** `key:value;…` as a map, keys lower-cased, a later key winning: as the server parses it. */
export function parseFormat(format: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const part of format.split(';')) {
    const colon = part.indexOf(':')
    if (colon < 0) continue
    const key = part.slice(0, colon).trim().toLowerCase()
    if (key !== '') out.set(key, part.slice(colon + 1).trim())
  }
  return out
}

/** toFixed's range; more decimals than a float holds are noise anyway. */
const MAX_DECIMALS = 20
const DEFAULT_DECIMALS = 6

/** The `dec:N` of a format, clamped to 0…20; null when absent or not a whole number. */
export function decimalsOf(format: Map<string, string>): number | null {
  const dec = format.get('dec')
  if (dec === undefined || !/^\d+$/.test(dec)) return null
  return Math.min(Number(dec), MAX_DECIMALS)
}

function unsignZero(text: string): string {
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text
}

function trimFraction(text: string): string {
  const e = text.search(/e/i)
  const mantissa = e < 0 ? text : text.slice(0, e)
  const exponent = e < 0 ? '' : text.slice(e)
  if (!mantissa.includes('.')) return text
  return mantissa.replace(/\.?0+$/, '') + exponent
}

/** A float as the server shows it: `dec` fixed decimals, else up to six (six significant below 1). */
export function displayFloat(value: number, dec: number | null): string {
  if (dec !== null) return unsignZero(value.toFixed(dec))
  const text = Math.abs(value) >= 1 || value === 0 ? value.toFixed(DEFAULT_DECIMALS) : value.toPrecision(DEFAULT_DECIMALS)
  return unsignZero(trimFraction(text))
}

/** A yyyymmdd integer as YYYY-MM-DD; a value that cannot be a date stays the plain integer. */
export function displayDate(value: number): string {
  const day = value % 100
  const month = Math.floor(value / 100) % 100
  const year = Math.floor(value / 10000)
  if (!Number.isInteger(value) || value <= 0 || year > 9999 || month < 1 || month > 12 || day < 1 || day > 31) return String(value)
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

/** Thousands separators in the whole part of a plain decimal number ("-1234.5" → "-1,234.5"). */
export function groupThousands(text: string): string {
  const m = /^(-?)(\d+)(\.\d*)?$/.exec(text)
  if (m === null) return text // an exponent or anything unexpected: leave it readable as it is
  return m[1] + m[2].replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (m[3] ?? '')
}

/** Whether the column holds numbers: by its type, or (sql) by the values it shows. */
export function isNumericColumn(column: ColumnInfo, values: readonly unknown[]): boolean {
  if (column.type !== null) return column.type !== 'a'
  let numbers = 0
  for (const v of values) {
    if (typeof v === 'number') numbers++
    else if (v !== null) return false
  }
  return numbers > 0
}

/** A reader giving the display text of the column's cells (JSON values of `!data:json.rows`). */
export function cellFormatter(column: ColumnInfo): (value: unknown) => string {
  const format = parseFormat(column.format)
  const kind = (format.get('type') ?? '').toLowerCase()
  const dec = decimalsOf(format)
  const integer = column.type === 'i' || column.type === 'j'
  const plain = (v: number): string => (integer ? String(v) : displayFloat(v, dec))
  let show: (v: number) => string
  if (integer && kind.startsWith('date')) show = displayDate
  else if (kind === 'currency') {
    show = (v) => {
      const text = groupThousands(unsignZero(Math.abs(v).toFixed(dec ?? 2)))
      return (v < 0 && /[1-9]/.test(text) ? '-$' : '$') + text
    }
  } else if (kind === 'pct') show = (v) => groupThousands(displayFloat(v * 100, dec)) + '%'
  else if (kind === 'commas') show = (v) => groupThousands(plain(v))
  else show = plain
  return (value) => {
    if (value === null || value === undefined) return '' // N/A
    if (typeof value === 'number') return Number.isFinite(value) ? show(value) : ''
    return String(value)
  }
}
