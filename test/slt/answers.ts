/**
 * Comparing an answer the sqllogictest way: every value is printed by the column type the record
 * declares (I an integer, R a real with three decimals, T text; NULL as `NULL`, the empty text as
 * `(empty)`), the values are sorted as the record says (`rowsort` whole rows, `valuesort` every
 * value on its own), then compared one by one with the expected lines, or, when the record gives
 * `<n> values hashing to <md5>`, counted and hashed (md5 of every value followed by a newline).
 */
import { createHash } from 'node:crypto'
import type { Expected, SortMode } from './records.js'

/** A cell as `api/sql:json.rows` gives it. */
export type Cell = number | string | boolean | null

/**
 * One cell printed for a column of type `type`. Tabula's text N/A is the empty text (a stored
 * text is never empty, see docs/sql.md), so `""` prints as NULL, as SQLite's NULL would.
 */
export function formatCell(cell: Cell, type: string): string {
  if (cell === null || cell === '') return 'NULL'
  if (typeof cell === 'boolean') cell = cell ? 1 : 0
  switch (type) {
    case 'I':
      return typeof cell === 'number' ? integerText(cell) : integerText(leadingNumber(cell))
    case 'R':
      return fixed3(typeof cell === 'number' ? cell : leadingNumber(cell))
    default:
      return typeof cell === 'number' ? sqliteNumberText(cell) : printable(cell)
  }
}

/** The values of an answer, printed, sorted as `sort` says, in one flat list. */
export function answerValues(rows: readonly (readonly Cell[])[], types: string, sort: SortMode): string[] {
  const printed = rows.map((row) => row.map((cell, c) => formatCell(cell, types[c] ?? 'T')))
  if (sort === 'rowsort') printed.sort(compareRows)
  const flat = printed.flat()
  if (sort === 'valuesort') flat.sort(compareText)
  return flat
}

/** The md5 sqllogictest gives for a list of values. */
export function hashValues(values: readonly string[]): string {
  const md5 = createHash('md5')
  for (const v of values) md5.update(`${v}\n`)
  return md5.digest('hex')
}

/** Why `values` is not the expected answer, or undefined when it is. */
export function mismatch(values: readonly string[], columns: number, expected: Expected): string | undefined {
  if (expected.kind === 'hash') {
    if (values.length !== expected.count) return `${values.length} values where ${expected.count} were expected`
    const md5 = hashValues(values)
    return md5 === expected.md5 ? undefined : `values hash to ${md5}, expected ${expected.md5}: ${preview(values)}`
  }
  const lines = expected.lines
  if (sameList(values, lines)) return undefined
  // Some scripts write a row a line, its values separated by spaces.
  if (columns > 1 && values.length === lines.length * columns) {
    const rows: string[] = []
    for (let i = 0; i < values.length; i += columns) rows.push(values.slice(i, i + columns).join(' '))
    if (sameList(rows, lines)) return undefined
  }
  return `got ${preview(values)}, expected ${preview(lines)}`
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((v, i) => v === b[i])

function preview(values: readonly string[]): string {
  const shown = values.slice(0, 12).join(', ')
  return values.length > 12 ? `[${shown}, … ${values.length} values]` : `[${shown}]`
}

/** C's strcmp on the printed values (ASCII: code-unit order is byte order). */
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

function compareRows(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) {
    const c = compareText(a[i], b[i])
    if (c !== 0) return c
  }
  return 0
}

/** An integer as SQLite gives a number for `%d`: a real truncated toward zero. */
function integerText(n: number): string {
  const t = Math.trunc(n)
  return Object.is(t, -0) ? '0' : t.toFixed(0)
}

/**
 * `%.3f` as C prints it: the exact binary value rounded to three decimals, a tie to the even
 * digit (JavaScript's toFixed rounds a tie up, as 0.0625 → "0.063" where C prints "0.062").
 */
export function fixed3(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : n < 0 ? '-inf' : 'nan'
  const negative = n < 0 || Object.is(n, -0)
  const exact = Math.abs(n).toFixed(40)
  const dot = exact.indexOf('.')
  const kept = exact.slice(0, dot + 4)
  const rest = exact.slice(dot + 4)
  let out = Math.abs(n).toFixed(3)
  if (/^50*$/.test(rest)) {
    // A tie: round to even on the last kept digit.
    const lastDigit = Number(kept[kept.length - 1])
    out = lastDigit % 2 === 0 ? kept : Math.abs(n).toFixed(3)
  }
  return negative ? `-${out}` : out
}

/** The number a text starts with, as SQLite converts text to a number (0 when none). */
function leadingNumber(text: string): number {
  const m = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(text)
  return m ? Number(m[0]) : 0
}

/**
 * A number as SQLite's text: an integer in digits, a real as `%!.15g` (15 significant digits,
 * trailing zeros dropped but one kept after the point: 2.0, 0.5, 1.0e+20).
 */
export function sqliteNumberText(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 63) return n.toFixed(0)
  if (!Number.isFinite(n)) return n > 0 ? 'Inf' : n < 0 ? '-Inf' : 'NULL'
  const [mantissa, expText] = n.toExponential(14).split('e')
  const exp = Number(expText)
  if (exp < -4 || exp >= 15) {
    const digits = trimZeros(mantissa)
    return `${digits}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`
  }
  return trimZeros(n.toFixed(14 - exp))
}

const trimZeros = (s: string): string => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '.0') : `${s}.0`)

/** Text as sqllogictest prints it: characters outside printable ASCII become `@`. */
function printable(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '@')
}
