/**
 * Turns rows stepped out of sql.js into the column-major ResultSet. SQLite values carry no
 * column type, so each column's kind is decided from its values: all integers that fit in
 * 32 bits → int, all integers → bigint (64-bit, exact), other numbers → float, anything textual →
 * text. NULL becomes the N/A of the kind.
 *
 * sql.js hands INTEGER values over as BigInt (useBigInt) and REAL ones as numbers, so that a
 * value keeps what SQLite says it is: in a text column a REAL prints as SQLite prints it (2.0 is
 * "2.0", not "2"), an integer column keeps every digit, and an integer past ±(2^53 − 1) in a column
 * of decimals, which a number would not write with its own digits, is refused rather than answered
 * wrong.
 */
import { AppError } from '../../shared/errors.js'
import type { ResultColumn, ResultSet } from '../../shared/protocol.js'
import { NA_BIGINT, NA_INT, columnMeta, type ColumnMeta, type ColumnType } from '../../shared/table.js'
import { realText } from '../functions/sql/sqlite-values.js'

/** A value as sql.js gives it with useBigInt: INTEGER as bigint, REAL as number. */
export type SqlValue = bigint | number | string | Uint8Array | null

const SAFE = BigInt(Number.MAX_SAFE_INTEGER)

function kindOf(values: readonly SqlValue[]): ColumnType {
  let sawFloat = false
  let sawBig = false
  let sawNumber = false
  for (const v of values) {
    if (v === null) continue
    if (typeof v !== 'number' && typeof v !== 'bigint') return 'text'
    sawNumber = true
    const n = Number(v)
    if (typeof v === 'number' && !Number.isSafeInteger(n)) sawFloat = true
    else if (n > 2147483647 || n <= NA_INT) sawBig = true
  }
  return sawFloat ? 'float' : sawBig ? 'bigint' : sawNumber ? 'int' : 'text'
}

function toText(v: SqlValue): string {
  if (v === null) return ''
  if (v instanceof Uint8Array) return Buffer.from(v).toString('hex')
  if (typeof v === 'number') return realText(v) ?? String(v)
  return String(v)
}

/**
 * A number of a numeric column. An integer past ±(2^53 − 1) is refused when the number would not
 * be written with SQLite's digits: one a number rounds (most of them), and also one it holds
 * exactly but writes shorter (2^62 is written 4611686018427388000, which a client reading 64-bit
 * integers takes for another value). 2^53 and the few others whose digits survive are answered.
 */
function numberOf(v: number | bigint, name: string): number {
  const n = Number(v)
  if (typeof v === 'bigint' && (v > SAFE || v < -SAFE) && String(n) !== v.toString()) {
    throw new AppError(
      'INVALID_PARAMETER',
      `Column "${name}" of the result holds ${v}, which this service cannot answer exactly as a number (past ±9007199254740991, 2^53 − 1); cast it to text (CAST(${name} AS TEXT)) or to a real.`,
      { parameter: 'sql', column: name },
    )
  }
  return n
}

/** An integer of a big-integer column; −2^63, which the column keeps for N/A, is refused. */
function bigintOf(v: number | bigint, name: string): bigint {
  const b = BigInt(v)
  if (b === NA_BIGINT) {
    throw new AppError(
      'INVALID_PARAMETER',
      `Column "${name}" of the result holds ${b} (−2^63), the one 64-bit integer this service keeps for N/A; cast it to text (CAST(${name} AS TEXT)) or to a real.`,
      { parameter: 'sql', column: name },
    )
  }
  return b
}

function toColumn(kind: ColumnType, values: readonly SqlValue[], name: string): ResultColumn {
  if (kind === 'int') return { kind: 'int', data: Int32Array.from(values, (v) => (v === null ? NA_INT : Number(v))) }
  if (kind === 'bigint') return { kind: 'bigint', data: BigInt64Array.from(values, (v) => (v === null ? NA_BIGINT : bigintOf(v as number | bigint, name))) }
  if (kind === 'float') return { kind: 'float', data: Float64Array.from(values, (v) => (v === null ? Number.NaN : numberOf(v as number | bigint, name))) }
  return { kind: 'text', data: values.map(toText) }
}

/** Text columns are as wide as their name and their widest value among this many first rows (at most 64). */
export const WIDTH_SAMPLE = 1000

/**
 * The column metadata of an SQL result, however it was computed (sql.js here, the columnar
 * engine in compile/shape.ts): names made distinct, labelled with SQLite's own names, typed by
 * their values, text as wide as its name and first values.
 * @param sample the first WIDTH_SAMPLE values of text column c
 */
export function sqlColumnsMeta(labels: readonly string[], kinds: readonly ColumnType[], sample: (c: number) => readonly string[]): ColumnMeta[] {
  const names = distinctNames(labels)
  return names.map((name, c) => {
    const width = kinds[c] === 'text' ? Math.min(64, Math.max(name.length, ...sample(c).map((s) => s.length), 1)) : undefined
    return columnMeta({ name, type: kinds[c], label: labels[c], width })
  })
}

/** Result column names must be distinct to be keys of a JSON object: `a, a` becomes `a, a_2`. */
export function distinctNames(names: readonly string[]): string[] {
  const seen = new Set<string>()
  return names.map((name) => {
    let candidate = name === '' ? 'col' : name
    for (let i = 2; seen.has(candidate.toLowerCase()); i++) candidate = `${name}_${i}`
    seen.add(candidate.toLowerCase())
    return candidate
  })
}

/**
 * Collects rows column by column and enforces the row limit while stepping. With `truncate`,
 * rows past the limit are only counted (so the caller learns the whole result's size), not kept.
 */
export class ResultBuilder {
  private readonly values: SqlValue[][]
  private rows = 0

  constructor(
    private readonly names: readonly string[],
    private readonly maxRows: number,
    private readonly truncate = false,
  ) {
    this.values = names.map(() => [])
  }

  add(row: readonly SqlValue[]): void {
    if (++this.rows > this.maxRows) {
      if (this.truncate) return
      throw new AppError(
        'RESULT_TOO_LARGE',
        `The result has more than ${this.maxRows} rows (MAX_RESULT_ROWS); narrow the query with WHERE, LIMIT or an aggregate.`,
        { maxRows: this.maxRows },
      )
    }
    for (let c = 0; c < row.length; c++) this.values[c].push(row[c])
  }

  build(): ResultSet {
    const kinds = this.values.map(kindOf)
    const columns = kinds.map((k, c) => toColumn(k, this.values[c], this.names[c]))
    const cols = sqlColumnsMeta(this.names, kinds, (c) => (columns[c] as { data: readonly string[] }).data.slice(0, WIDTH_SAMPLE))
    const kept = Math.min(this.rows, this.maxRows)
    return { cols, columns, rowCount: kept, ...(kept < this.rows ? { totalRows: this.rows } : {}) }
  }
}
