/**
 * How a cell is shown. The workbench formats nothing itself: it reads pages with
 * `values_=formatted`, so the server's display rules (gateway/format/display/), the very code
 * behind the `:text` and `:html` views, give every cell's text and all three show the same
 * thing. Pure functions: no DOM, so the server's tests can load the compiled file and check them.
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

/** A number as the server shows one with no display type: 12, -3.5, 1e-7. */
const NUMBER_TEXT = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i

/**
 * Whether the column holds numbers: by its type, or (sql, which reports none) by its values,
 * numbers or the text of numbers, with N/A (null, or '' once formatted) not counting either way.
 */
export function isNumericColumn(column: ColumnInfo, values: readonly unknown[]): boolean {
  if (column.type !== null) return column.type !== 'a'
  let numbers = 0
  for (const v of values) {
    if (typeof v === 'number' || (typeof v === 'string' && NUMBER_TEXT.test(v))) numbers++
    else if (v !== null && v !== '') return false
  }
  return numbers > 0
}

/** The text of a cell the server sent: formatted text as it is, N/A (null) as empty. */
export function cellText(value: unknown): string {
  return value === null || value === undefined ? '' : String(value)
}
