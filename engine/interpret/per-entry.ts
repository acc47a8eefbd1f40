/**
 * An expression that reads one text column and nothing else, row by row (`contains(URL;'x')`,
 * `strlen(Referer)`, SQL's `instr(lower(t), 'a') > 0`, …), has one value per dictionary entry:
 * it is evaluated once per entry, over a worksheet whose rows are the entries, and the answer
 * is read back by each row's code. A column of 2M rows and 200k distinct URLs then costs 200k
 * evaluations and one gather, not 2M. Row-wise is the promise the parallel planner relies on
 * too (functions/row-wise-expr.ts): a row's value depends on that row alone.
 *
 * A column computed this way remembers the codes it was read through and its value per entry,
 * so an expression over it and its source (SQL's planner names shared subexpressions as
 * columns: `if(e0 > 0; substr(Referer; e0 + 3); Referer)`) is still a function of one
 * column's entries and is evaluated per entry as well.
 */
import type { Expr } from '../ast.js'
import { gather } from '../columns/gather.js'
import type { Column, TextColumn } from '../columns/types.js'
import { rowWiseExpr } from '../functions/row-wise-expr.js'
import { asColumn, evalExpr, toMask } from './eval.js'
import { newColumn, Worksheet, type WsColumn } from './worksheet.js'

/**
 * Entries are evaluated instead of rows only when they are at most this share of the rows: a
 * dictionary (shared by a table's segments) may be larger than the rows a query reads.
 */
const ENTRY_SHARE = 0.5

/** Where a column computed per entry came from: row r's value is `perEntry[codes[r]]`. */
interface Lineage {
  /** The codes of the text column it was computed from, this very array. */
  readonly codes: Int32Array
  readonly dict: readonly string[]
  readonly perEntry: Column
}

const lineages = new WeakMap<Column, Lineage>()

/** The columns an expression reads, as entries of one text column's dictionary; null when it does not fit. */
interface Entries {
  readonly codes: Int32Array
  readonly dict: readonly string[]
  /** Each column `e` reads, as a column over the entries. */
  readonly columns: readonly WsColumn[]
}

function entriesOf(e: Expr, ws: Worksheet, rows: number): Entries | null {
  if (e.kind !== 'Call' && e.kind !== 'Bin' && e.kind !== 'Not' && e.kind !== 'Neg') return null
  const names = new Set<string>()
  if (!rowWiseExpr(e, names) || names.size === 0) return null
  // Every column read must be one text column (the same codes and dictionary) or computed from it.
  let root: { codes: Int32Array; dict: readonly string[] } | null = null
  const read: { name: string; perEntry: Column | null }[] = []
  for (const name of names) {
    const col = ws.column(name)?.data()
    if (col === undefined) return null
    const lineage = lineages.get(col)
    const from = lineage ?? (col.type === 'text' ? col : null)
    if (from === null || (root !== null && (from.codes !== root.codes || from.dict !== root.dict))) return null
    root = { codes: from.codes, dict: from.dict }
    read.push({ name, perEntry: lineage?.perEntry ?? null })
  }
  if (root === null || root.dict.length > rows * ENTRY_SHARE) return null
  const identity = new Int32Array(root.dict.length)
  for (let k = 0; k < identity.length; k++) identity[k] = k
  const source: TextColumn = { type: 'text', codes: identity, dict: root.dict }
  const columns = read.map(({ name, perEntry }) => newColumn(name, perEntry ?? source))
  return { codes: root.codes, dict: root.dict, columns }
}

/**
 * `e` evaluated per entry, as a column over the entries; null when it does not fit or the
 * entries' evaluation fails (an entry no row holds may be one a function refuses: the rows are
 * then evaluated, and report their own error if there is one).
 */
function overEntries(e: Expr, ws: Worksheet, rows: number): { perEntry: Column; entries: Entries } | null {
  const entries = entriesOf(e, ws, rows)
  if (entries === null) return null
  const sheet = new Worksheet(entries.dict.length, entries.columns)
  try {
    const perEntry = asColumn(evalExpr(e, sheet), sheet.rows)
    return perEntry === null ? null : { perEntry, entries }
  } catch {
    return null
  }
}

/** `e` as a column of the worksheet's rows, evaluated per dictionary entry; null when it does not fit. */
export function columnPerEntry(e: Expr, ws: Worksheet): Column | null {
  const found = overEntries(e, ws, ws.rows)
  if (found === null) return null
  const { codes, dict } = found.entries
  const column = gather(found.perEntry, codes)
  lineages.set(column, { codes, dict, perEntry: found.perEntry })
  return column
}

/**
 * For a selection: the codes of the column `e` reads, and which entries `e` holds on (1; N/A and
 * 0 do not), or null when it does not fit. `candidates` is how many rows the selection tests.
 */
export function selectionPerEntry(e: Expr, ws: Worksheet, candidates: number): { codes: Int32Array; holds: Uint8Array } | null {
  const found = overEntries(e, ws, candidates)
  return found === null ? null : { codes: found.entries.codes, holds: toMask(found.perEntry, found.entries.dict.length) }
}

/** Whether a column was computed per entry (what tests check the path by). */
export const computedPerEntry = (column: Column): boolean => lineages.has(column)
