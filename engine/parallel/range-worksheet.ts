/**
 * A part's worksheet: rows start … end-1 of the base table, read in place (typed-array views on
 * the shared column buffers, no copy), then the plan's prefix of row-local operations.
 *
 * When the plan sums, a hidden column carries each row's base row number through the prefix, so
 * that the rows left after selections and links can be cut at the fixed block edges (blocks.ts).
 */
import type { CheckedOp } from '../check/index.js'
import type { Column } from '../columns/types.js'
import { checkError } from '../check/errors.js'
import type { TableColumnInput, TableInput } from '../../shared/protocol.js'
import type { OpOf } from '../ast.js'
import { runMerge } from '../interpret/ops/merge.js'
import { step, type Tables } from '../interpret/run.js'
import { newColumn, Worksheet, type WsColumn } from '../interpret/worksheet.js'
import { storedTextColumn } from '../columns/shared-dictionary.js'
import { bytesPerValue } from '../columns/types.js'

/**
 * The same tables with no rows: a prefix run over them gives the worksheet's columns (names,
 * types, labels) without doing any of the work, e.g. a link's own pipeline.
 */
export function emptyTables(tables: Tables): Tables {
  const empty = new SharedArrayBuffer(0)
  return new Map([...tables].map(([path, t]) => [path, { ...t, rows: 0, columns: t.columns.map((c) => ({ ...c, buffer: empty })) }]))
}

/** The hidden base-row column; '#' cannot start a column name of a query. */
export const BASE_ROW = '#base-row'

function rangeColumn(c: TableColumnInput, start: number, end: number): Column {
  const n = end - start
  switch (c.spec.type) {
    case 'float':
      return { type: c.spec.type, data: new Float64Array(c.buffer, start * 8, n) }
    case 'bigint':
      return { type: c.spec.type, data: new BigInt64Array(c.buffer, start * 8, n) }
    case 'text':
      return storedTextColumn(new Int32Array(c.buffer, start * 4, n), c)
    default:
      return { type: c.spec.type, data: new Int32Array(c.buffer, start * 4, n) }
  }
}

/** The range columns made here, by their position in the table: read back when a part answers. */
const storedAt = new WeakMap<Column, number>()

/** The position in the base table of a worksheet column that is a range column as it was read, else null. */
export function storedPosition(c: WsColumn): number | null {
  const v = c.view()
  return v.index === null ? (storedAt.get(v.source) ?? null) : null
}

/**
 * 0, 1, 2, … as far as the largest table this thread split: base row numbers are a view of it
 * rather than a new array (and a pass over it) for every part. Columns are never written in
 * place, so one copy serves every part; it costs 4 bytes a row of that table, once per thread.
 */
let counting: Int32Array = new Int32Array(0)

function rowNumbers(start: number, end: number, windowed: boolean): Int32Array {
  // A window of a table larger than the cache: numbers for this range only, not for every row before it.
  if (windowed) return Int32Array.from({ length: end - start }, (_, i) => start + i)
  if (counting.length < end) {
    // Shared memory: should it ever reach an answer, it is shared with the gateway, never moved away.
    counting = new Int32Array(new SharedArrayBuffer(end * 4))
    for (let i = 0; i < end; i++) counting[i] = i
  }
  return counting.subarray(start, end)
}

/** Rows start … end-1 of a stored table, as the Base operation would give the whole of it. */
export function rangeWorksheet(tables: Tables, path: string, start: number, end: number, withBaseRows: boolean): Worksheet {
  const t: TableInput | undefined = tables.get(path)
  if (!t) throw checkError(undefined, `No such table "${path}".`, { table: path })
  // A window holds rows firstRow … of the table (TableInput.firstRow); the range must lie in it.
  const first = t.firstRow ?? 0
  const held = t.columns.length === 0 ? 0 : t.columns[0].buffer.byteLength / bytesPerValue(t.columns[0].spec.type)
  if (t.firstRow !== undefined && (start < first || end > first + held)) {
    throw new Error(`rangeWorksheet: rows ${start}…${end} of ${path} are outside its window ${first}…${first + held}`)
  }
  const cols = t.columns.map((c, i) => {
    const data = rangeColumn(c, start - first, end - first)
    storedAt.set(data, i)
    return newColumn(c.spec.name.toLowerCase(), data, {
      label: c.spec.label,
      desc: c.spec.desc,
      format: c.spec.format,
      width: c.spec.width,
      fixed: c.spec.fixed,
    })
  })
  if (withBaseRows) cols.push(newColumn(BASE_ROW, { type: 'int', data: rowNumbers(start, end, t.firstRow !== undefined) }, {}, false))
  return new Worksheet(end - start, cols, t.title)
}

/** The worksheet without the hidden base-row column. */
export function withoutBaseRows(ws: Worksheet): Worksheet {
  return ws.column(BASE_ROW) ? ws.withColumns(ws.cols.filter((c) => c.name !== BASE_ROW)) : ws
}

/**
 * Keeps the base-row column last and hidden after an operation: a hard colord drops it (then the
 * one from before, whose rows are the same, comes back) and a colord pattern may show it.
 */
function keepBaseRows(before: Worksheet, after: Worksheet): Worksheet {
  const mark = after.column(BASE_ROW) ?? before.column(BASE_ROW)
  if (!mark) return after
  return after.withColumns([...after.cols.filter((c) => c.name !== BASE_ROW), mark.with({ visible: false })])
}

/**
 * One operation of the prefix (plan.ts admits row-local kinds only), run by the interpreter's own
 * dispatcher, with the base-row column kept in place.
 */
export function prefixStep(op: CheckedOp, ws: Worksheet, tables: Tables): Worksheet {
  return keepBaseRows(ws, step(op, ws, tables))
}

/**
 * The plan's `<merge>` on a part: the foreign rows start … end-1 (none for a part of the base
 * table), through the merge's own operations, appended to the part's worksheet. The foreign rows
 * carry their own row numbers in the base-row column, since a foreign part's blocks are counted
 * in the foreign table.
 */
export function mergeStep(op: OpOf<'Merge'>, ws: Worksheet, tables: Tables, foreign: { start: number; end: number }): Worksheet {
  let other = rangeWorksheet(tables, op.table2, foreign.start, foreign.end, ws.column(BASE_ROW) !== undefined)
  for (const inner of op.ops) other = prefixStep(inner as CheckedOp, other, tables)
  return keepBaseRows(ws, runMerge(ws, other))
}

/**
 * Where each block starts among the worksheet's rows, given the block edges in base rows: entry
 * k is the first worksheet row whose base row is at or after edges[k] (rows are in base order,
 * since the prefix only selects).
 */
export function blockStarts(ws: Worksheet, edges: readonly number[]): Int32Array {
  const out = new Int32Array(edges.length)
  const mark = ws.column(BASE_ROW)
  if (!mark) throw new Error('no base rows on the worksheet')
  const rows = (mark.data() as { data: Int32Array }).data
  for (let k = 0; k < edges.length; k++) {
    let lo = 0
    let hi = rows.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (rows[mid] < edges[k]) lo = mid + 1
      else hi = mid
    }
    out[k] = lo
  }
  return out
}
