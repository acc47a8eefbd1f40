/**
 * Table and column metadata shared by the gateway (catalog, renderers) and the engine (storage,
 * interpreter). Plain data only: these objects are stored as JSON and cross thread boundaries.
 */
import { formatWidth, withFormatWidth } from './format-width.js'

/**
 * Logical column types. Dates are yyyymmdd integers, as the macro language expects. `bigint` is
 * 1010data's `j`: signed 64-bit integers, held in a BigInt64Array with NA_BIGINT (−2^63) for N/A,
 * so every value from −(2^63 − 1) to 2^63 − 1 is exact; arithmetic past it is refused.
 */
export type ColumnType = 'int' | 'bigint' | 'float' | 'text' | 'date'

export const COLUMN_TYPES: readonly ColumnType[] = ['int', 'bigint', 'float', 'text', 'date']

/** N/A sentinels: one per physical representation. Text N/A is the empty string. */
export const NA_INT = -2147483648
export const NA_FLOAT = Number.NaN

/** A big integer's N/A: −2^63, the one signed 64-bit value a `j` column cannot hold. */
export const NA_BIGINT = -(2n ** 63n)

/** The largest `j` value, 2^63 − 1 (the smallest is its negation: −2^63 is N/A). */
export const BIGINT_MAX = 2n ** 63n - 1n

/** The largest whole number a float64 holds exactly, and so every JSON reader (2^53 − 1). */
export const SAFE_INT_MAX = Number.MAX_SAFE_INTEGER

/** Whether values of this type take 8 bytes a value: decimals (float64) and big integers (int64). */
export const isWideType = (type: ColumnType): type is 'float' | 'bigint' => type === 'float' || type === 'bigint'

/** Bytes one value of this type takes in a column buffer (text: its dictionary code). */
export const bytesPerValue = (type: ColumnType): 4 | 8 => (isWideType(type) ? 8 : 4)

/** Metadata of one stored column (meta.json). */
export interface ColumnSpec {
  readonly name: string
  readonly type: ColumnType
  readonly label?: string
  readonly desc?: string
  readonly width?: number
  readonly format?: string
  readonly fixed?: boolean
}

/** meta.json of one immutable table version. */
export interface TableMeta {
  readonly version: string
  readonly rows: number
  readonly columns: readonly ColumnSpec[]
  /**
   * Only in versions written before images were built on demand, always 'data.sqlite'. A version
   * gets its image when a query first needs it, after meta.json was written for good, so the
   * image is found by its file name alone (engine/storage/layout.ts SQLITE_FILE).
   */
  readonly sqlite?: string
  /**
   * Row segments (docs/large-tables.md): the first row of each segment, from 0, rising. Absent:
   * one segment, a file per column (c<i>.bin); present: a file per column and segment
   * (c<i>.s<k>.bin), so a query over a table larger than TABLE_CACHE_MB reads a segment at a time.
   */
  readonly segments?: readonly number[]
  /**
   * Set on every version written since big integers became 64-bit: a `bigint` column's file holds
   * little-endian int64 values. Absent, it holds the float64 values (NaN for N/A, whole numbers
   * within ±2^53) older versions were written with, converted as the column is read.
   */
  readonly int64?: true
  readonly createdAt: string
}

/** The column metadata a result reports (`!cols`), in the 1010data vocabulary. */
export interface ColumnMeta {
  readonly name: string
  readonly label: string
  readonly desc: string
  /** 1010data type letter: i integer, j big integer, f float, a text. */
  readonly type: 'i' | 'j' | 'f' | 'a'
  readonly fixed: 0 | 1
  readonly width: number
  readonly format: string
  /** Our logical type, which tells renderers that an integer column holds dates. */
  readonly logical: ColumnType
  /**
   * The width shown values are cut at (width−2 characters and " >"): set only when the column's
   * own format states its width. Widths we fill in by default (16 for text) would otherwise cut
   * every longer name and path in listings and text answers.
   */
  readonly cutAt?: number
}

const TYPE_LETTER: Record<ColumnType, ColumnMeta['type']> = { int: 'i', bigint: 'j', float: 'f', text: 'a', date: 'i' }
const DEFAULT_WIDTH: Record<ColumnType, number> = { int: 10, bigint: 16, float: 12, text: 16, date: 10 }
const DEFAULT_FORMAT: Record<ColumnType, string> = {
  int: 'type:num;width:10',
  bigint: 'type:num;width:16',
  float: 'type:num;width:12;dec:2',
  text: 'type:char;width:16',
  date: 'type:date;width:10',
}

/** The widest width 1010data accepts in a format. */
const MAX_CUT_WIDTH = 100

/**
 * Fill in label, width and format defaults for a stored column. The width and the format's
 * `width:` agree (format-width.ts): a width written in a given format wins, since the format is
 * what a table owner edits (set_table_info); then the column's own width; then the type's
 * default. The type's default format only supplies the kind (`type:char`), never the width.
 */
export function columnMeta(spec: ColumnSpec): ColumnMeta {
  const statedWidth = spec.format ? formatWidth(spec.format) : null
  const width = statedWidth ?? spec.width ?? DEFAULT_WIDTH[spec.type]
  return {
    name: spec.name,
    label: spec.label ?? spec.name,
    desc: spec.desc ?? '',
    type: TYPE_LETTER[spec.type],
    fixed: spec.fixed ? 1 : 0,
    width,
    format: withFormatWidth(spec.format || DEFAULT_FORMAT[spec.type], width),
    logical: spec.type,
    // 1010data's widths run from 1 to 100; a width outside them cuts nothing.
    ...(statedWidth !== null && statedWidth >= 1 && statedWidth <= MAX_CUT_WIDTH && { cutAt: statedWidth }),
  }
}

/** A dotted path part: lower-case letter first, then lower-case letters, digits, underscore. */
export const PATH_PART = /^[a-z][a-z0-9_]*$/

export function isValidPath(path: string): boolean {
  return path.length > 0 && path.length <= 512 && path.split('.').every((p) => PATH_PART.test(p))
}

/** A column name: a letter first, then letters, digits and underscores. */
export const COLUMN_NAME = /^[A-Za-z][A-Za-z0-9_]*$/
