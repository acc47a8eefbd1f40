/**
 * The CSV text of one upload_chunk as the upload's columns: read and typed by the uploads' one
 * reader and inference (shared/csv/), then matched to the columns the upload declared, or that
 * its first chunk's header named.
 */
import { AppError } from '../../shared/errors.js'
import { COLUMN_NAME, type ColumnSpec, type ColumnType } from '../../shared/table.js'
import { readCsvColumns } from '../../shared/csv/read.js'
import { TYPE_WORDS, type WrongValue } from '../../shared/csv/infer.js'
import { typeCells, type CellColumn } from '../../shared/csv/cells.js'
import type { ChunkText } from '../../shared/csv/chunk-text.js'

/** A chunk's columns and values: numbers as stored, text as distinct values and codes. */
export interface ChunkInput {
  readonly columns: readonly ColumnSpec[]
  readonly data: readonly (Int32Array | Float64Array | BigInt64Array | ChunkText)[]
}

const invalid = (message: string): AppError => new AppError('INVALID_PARAMETER', message, { parameter: 'csv' })

/** How a message names a cell's place: chunks are numbered, so their rows by line only. */
function wrongValue(name: string, cells: CellColumn, lines: Int32Array): WrongValue {
  return (r, type) => {
    const v = cells.text(r)
    const shown = JSON.stringify(v.length > 37 ? `${v.slice(0, 37)}...` : v)
    return invalid(
      `A value of the wrong type: column "${name}" (${type}) on line ${lines[r]} of the CSV has ${shown}; give ${TYPE_WORDS[type]}, or an empty value for N/A.`,
    )
  }
}

/**
 * The chunk as the columns `cols` names (in that order, types where given) or, without cols, as
 * the header names them. The header must name exactly those columns (case ignored).
 */
export function chunkCsvInput(text: string, cols: readonly { name: string; type?: ColumnType }[] | undefined): ChunkInput {
  const { header, columns: cells, lines } = readCsvColumns(text)
  const seen = new Map<string, number>()
  header.forEach((name, i) => {
    if (!COLUMN_NAME.test(name))
      throw invalid(`Invalid column name ${JSON.stringify(name)} (column ${i + 1} of the CSV header): use a letter followed by letters, digits or underscores.`)
    const key = name.toLowerCase()
    if (seen.has(key))
      throw invalid(`Duplicate column names: "${header[seen.get(key)!]}" and "${name}" in the CSV header (names ignore case); give each column its own name.`)
    seen.set(key, i)
  })
  const order: readonly { name: string; type?: ColumnType }[] = cols ?? header.map((name) => ({ name }))
  if (cols) {
    const extra = header.find((h) => !cols.some((c) => c.name.toLowerCase() === h.toLowerCase()))
    if (extra !== undefined)
      throw invalid(`The CSV header has a column "${extra}" that the upload does not have (it has ${cols.map((c) => c.name).join(', ')}).`)
  }
  const columns: ColumnSpec[] = []
  const data: (Int32Array | Float64Array | BigInt64Array | ChunkText)[] = []
  for (const c of order) {
    const at = seen.get(c.name.toLowerCase())
    if (at === undefined) throw invalid(`The CSV header has no column "${c.name}", which the upload has; every chunk's header names the same columns.`)
    const { type, values } = typeCells(cells[at], c.type, wrongValue(c.name, cells[at], lines))
    columns.push({ name: c.name, type })
    data.push(values)
  }
  return { columns, data }
}
