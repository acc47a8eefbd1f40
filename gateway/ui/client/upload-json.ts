/**
 * A JSON file cut into upload_chunk `data` parameters: an array of row objects
 * ([{"a": 1, "b": "x"}, …]) or columns ({"a": [1, …], "b": ["x", …]}), the shapes upload_table
 * takes with named columns. JSON cannot be cut before it is parsed, so the file is read whole in
 * the browser; the rows are then sent a chunk at a time like a CSV file's.
 */
import type { UploadChunk } from './upload-chunk.js'

type Rows =
  | { readonly kind: 'rows'; readonly rows: readonly Record<string, unknown>[] }
  | { readonly kind: 'columns'; readonly columns: Readonly<Record<string, readonly unknown[]>> }

const SHAPES = 'an array of row objects ([{"a": 1, "b": "x"}, …]) or an object of columns ({"a": [1, …], "b": ["x", …]})'

async function parse(file: Blob): Promise<Rows> {
  let value: unknown
  try {
    value = JSON.parse(await file.text())
  } catch (err) {
    throw new Error(`The file is not valid JSON (${err instanceof Error ? err.message : String(err)}).`, { cause: err })
  }
  if (Array.isArray(value) && value.every((r) => typeof r === 'object' && r !== null && !Array.isArray(r))) {
    return { kind: 'rows', rows: value as Record<string, unknown>[] }
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every(Array.isArray)) {
    return { kind: 'columns', columns: value as Record<string, unknown[]> }
  }
  throw new Error(`The JSON file must hold ${SHAPES}.`)
}

const rowCount = (r: Rows): number => (r.kind === 'rows' ? r.rows.length : Math.max(0, ...Object.values(r.columns).map((c) => c.length)))

/** The column names: the keys of the columns, or of the rows in the order they first appear. */
export async function jsonColumns(file: Blob): Promise<string[]> {
  const r = await parse(file)
  if (r.kind === 'columns') return Object.keys(r.columns)
  const names = new Set<string>()
  for (const row of r.rows) for (const k of Object.keys(row)) names.add(k)
  return [...names]
}

export async function* jsonChunks(file: Blob, chunkBytes: number): AsyncGenerator<UploadChunk> {
  const r = await parse(file)
  const total = rowCount(r)
  // About chunkBytes of the file's text per chunk, by its average row.
  const perChunk = Math.max(1, Math.floor(chunkBytes / Math.max(1, file.size / Math.max(1, total))))
  for (let from = 0; from < total; from += perChunk) {
    const to = Math.min(total, from + perChunk)
    const data =
      r.kind === 'rows' ? r.rows.slice(from, to) : Object.fromEntries(Object.entries(r.columns).map(([name, values]) => [name, values.slice(from, to)]))
    yield { data, done: to / total, firstRow: from + 1 }
  }
}
