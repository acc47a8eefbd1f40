/**
 * `<merge table2=…>`: the foreign worksheet's rows appended below the current ones, columns
 * matched by name; a column the foreign side lacks is N/A there. Text dictionaries are merged.
 */
import { columnLength, gather, mergeDicts } from '../../columns/index.js'
import { NA_INT, type Column, type TextColumn } from '../../columns/types.js'
import { deferredColumn, Worksheet } from '../worksheet.js'

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
  if (a.type === 'float' || b?.type === 'float') {
    const out = new Float64Array(n + bRows).fill(Number.NaN)
    const put = (c: Column, at: number) => {
      if (c.type === 'text') return
      for (let i = 0; i < c.data.length; i++) out[at + i] = c.type === 'float' ? c.data[i] : c.data[i] === NA_INT ? Number.NaN : c.data[i]
    }
    put(a, 0)
    if (b) put(b, n)
    return { type: 'float', data: out }
  }
  const out = new Int32Array(n + bRows).fill(NA_INT)
  out.set(a.data, 0)
  if (b && b.type !== 'text') out.set(b.data as Int32Array, n)
  return { type: a.type, data: out }
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
    const type = c.type !== 'text' && other?.type === 'float' ? 'float' : c.type
    const make = (): Column => concat(c.data(), other?.data() ?? null, foreign.rows)
    const gatherRows = (index: Int32Array): Column => gatherConcat(c.data(), other?.data() ?? null, index)
    return deferredColumn(c.name, type, make, gatherRows, c.info, c.visible)
  })
  return new Worksheet(ws.rows + foreign.rows, cols, ws.title)
}
