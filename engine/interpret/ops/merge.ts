/**
 * `<merge table2=…>`: the foreign worksheet's rows appended below the current ones, columns
 * matched by name; a column the foreign side lacks is N/A there. Text dictionaries are merged.
 */
import { textColumnFromStrings } from '../../columns/index.js'
import { NA_INT, type Column } from '../../columns/types.js'
import { newColumn, Worksheet } from '../worksheet.js'

function strings(c: Column | null, rows: number): string[] {
  if (c === null) return new Array<string>(rows).fill('')
  if (c.type === 'text') return Array.from(c.codes, (code) => c.dict[code])
  return Array.from(c.data as ArrayLike<number>, String)
}

function concat(a: Column, b: Column | null, bRows: number): Column {
  if (a.type === 'text') return textColumnFromStrings([...strings(a, 0), ...strings(b, bRows)])
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

export function runMerge(ws: Worksheet, foreign: Worksheet): Worksheet {
  const cols = ws.cols.map((c) => {
    const other = foreign.column(c.name)?.data() ?? null
    return newColumn(c.name, concat(c.data(), other, foreign.rows), c.info, c.visible)
  })
  return new Worksheet(ws.rows + foreign.rows, cols, ws.title)
}
