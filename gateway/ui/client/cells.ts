/**
 * How a cell is shown: the server's display rules (display-rules.ts, the very file the server
 * runs: N/A as empty, dates as YYYY-MM-DD, floats with the format's `dec` or up to six decimals)
 * plus the display kinds of the format string that a person reading a table expects to see
 * applied: `currency` ($1,234.50), `pct` (×100 and %), `commas` (thousands separators). Pure
 * functions: no DOM, so the server's tests can load the compiled file and check them.
 */
import { decimalsOf, displayDate, displayFloat, parseFormat, unsignZero } from './display-rules.js'

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
