/**
 * `<merge table2=…>`: the foreign worksheet's rows appended below the current ones, columns
 * matched by name; a column the foreign side lacks is N/A there, and one only the foreign side
 * has comes after the current ones, N/A on the current rows. Text dictionaries are merged.
 */
import { columnLength, gather, mergeDicts, toBigint, toFloat } from '../../columns/index.js'
import { NA_BIGINT, NA_INT, type Column, type ColumnType, type IntColumn, type TextColumn } from '../../columns/types.js'
import { deferredColumn, newColumn, Worksheet, type WsColumn } from '../worksheet.js'
import { widerNumber } from '../../columns/index.js'

/**
 * Text rows of both sides under the union of their dictionaries: one pass over each side's codes
 * through a remap table (the checker has made sure a column is text on both sides or on neither;
 * missing on the foreign side, it is N/A, code 0, there).
 */
function concatText(a: TextColumn, b: TextColumn | null, bRows: number): TextColumn {
  const n = a.codes.length
  const codes = new Int32Array(n + bRows)
  if (b === null) {
    codes.set(a.codes, 0)
    return { type: 'text', codes, dict: a.dict }
  }
  const { dict, remaps } = mergeDicts([a.dict, b.dict])
  const [ra, rb] = remaps
  for (let i = 0; i < n; i++) codes[i] = ra[a.codes[i]]
  for (let i = 0; i < bRows; i++) codes[n + i] = rb[b.codes[i]]
  return { type: 'text', codes, dict }
}

function concat(a: Column, b: Column | null, bRows: number): Column {
  if (a.type === 'text') return concatText(a, b?.type === 'text' ? b : null, bRows)
  const n = a.data.length
  const type = b !== null && b.type !== 'text' ? widerNumber(a.type, b.type) : a.type
  if (type === 'bigint') {
    // Either side made big integers (an int side widened exactly); a missing side is N/A.
    const out = new BigInt64Array(n + bRows).fill(NA_BIGINT)
    out.set(toBigint(a as IntColumn).data, 0)
    if (b !== null && b.type !== 'text') out.set(toBigint(b as IntColumn).data, n)
    return { type, data: out }
  }
  if (type === 'float') {
    const out = new Float64Array(n + bRows).fill(Number.NaN)
    const put = (c: Column, at: number) => {
      if (c.type === 'text') return
      out.set(toFloat(c).data, at)
    }
    put(a, 0)
    if (b) put(b, n)
    return { type, data: out }
  }
  const out = new Int32Array(n + bRows).fill(NA_INT)
  out.set((a as IntColumn).data, 0)
  if (b && b.type !== 'text') out.set(b.data as Int32Array, n)
  return { type: (a as IntColumn).type, data: out }
}

/**
 * Rows `index` of concat(a, b) without making it: each side gathers its own rows, the two are
 * concatenated (types and dictionaries unified as for the whole column) and each row is taken
 * from its side. For the few rows a selection keeps of a large merge.
 */
function gatherConcat(a: Column, b: Column | null, index: Int32Array): Column {
  const n = columnLength(a)
  const m = index.length
  const fromA = new Int32Array(m)
  const fromB = new Int32Array(m)
  const pick = new Int32Array(m)
  for (let i = 0; i < m; i++) {
    const r = index[i]
    const inB = r >= n
    fromA[i] = inB ? -1 : r
    fromB[i] = inB ? r - n : -1
    pick[i] = inB ? m + i : i
  }
  return gather(concat(gather(a, fromA), b === null ? null : gather(b, fromB), m), pick)
}

/**
 * Each merged column is made when first read (late materialisation): a query that merges, then
 * selects and keeps a few columns, concatenates only the selection's column, and gathers just
 * the kept rows of the others.
 */
export function runMerge(ws: Worksheet, foreign: Worksheet): Worksheet {
  const cols = ws.cols.map((c) => {
    const other = foreign.column(c.name)
    const type = c.type !== 'text' && other && other.type !== 'text' ? widerNumber(c.type, other.type) : c.type
    if (foreign.rows === 0) return type === c.type ? c : newColumn(c.name, asType(c.data(), type), c.info, c.visible)
    if (ws.rows === 0) return foreignOnly(c, other, type, foreign.rows)
    const make = (): Column => concat(c.data(), other?.data() ?? null, foreign.rows)
    const gatherRows = (index: Int32Array): Column => gatherConcat(c.data(), other?.data() ?? null, index)
    return deferredColumn(c.name, type, make, gatherRows, c.info, c.visible)
  })
  // Columns only the foreign side has come after, N/A on the current rows.
  const own = new Set(ws.cols.map((c) => c.name))
  const added = foreign.cols
    .filter((f) => !own.has(f.name))
    .map((f) => {
      if (ws.rows === 0) return f
      const none = naColumn(f.type, ws.rows)
      if (foreign.rows === 0) return newColumn(f.name, none, f.info, f.visible)
      return deferredColumn(
        f.name,
        f.type,
        () => concat(none, f.data(), foreign.rows),
        (index) => gatherConcat(none, f.data(), index),
        f.info,
        f.visible,
      )
    })
  return new Worksheet(ws.rows + foreign.rows, [...cols, ...added], ws.title)
}

/**
 * A merged column when the current side has no rows: the foreign column as it is held (no copy),
 * as the current side names and shows it; N/A where the foreign side lacks it. A split run merges
 * this way on every part (engine/parallel/plan.ts), each part holding rows of one side only.
 */
function foreignOnly(c: WsColumn, other: WsColumn | undefined, type: ColumnType, rows: number): WsColumn {
  if (other === undefined) return newColumn(c.name, naColumn(type, rows), c.info, c.visible)
  if (other.type === type) return other.with({ name: c.name, info: c.info, visible: c.visible })
  return newColumn(c.name, asType(other.data(), type), c.info, c.visible)
}

/**
 * A column as the merged `type`, as concat makes it: ints (or dates) as floats when the other
 * side is float, an int column's data under a date type or the reverse. Never float to int: the
 * merged type is float whenever either side is.
 */
function asType(col: Column, type: ColumnType): Column {
  if (col.type === type || col.type === 'text' || type === 'text') return col
  if (type === 'float') return toFloat(col)
  if (type === 'bigint') return toBigint(col as IntColumn)
  return { type, data: (col as IntColumn).data }
}

function naColumn(type: ColumnType, rows: number): Column {
  if (type === 'text') return { type, codes: new Int32Array(rows), dict: [''] }
  if (type === 'float') return { type, data: new Float64Array(rows).fill(Number.NaN) }
  if (type === 'bigint') return { type, data: new BigInt64Array(rows).fill(NA_BIGINT) }
  return { type, data: new Int32Array(rows).fill(NA_INT) }
}
