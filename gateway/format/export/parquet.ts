/**
 * Results as Parquet, written by hyparquet-writer (plain JavaScript: no native or wasm binary).
 * One row group per piece of rows; the writer's buffer is emptied after each row group (the
 * library calls the writer's flush there, and counts file offsets on its own), so a large result
 * is written a row group at a time. Types: export/columns.ts; dates are INT32 with the DATE
 * logical type, big integers INT64, text BYTE_ARRAY with the STRING logical type; N/A is null.
 */
import { ByteWriter, ParquetWriter } from 'hyparquet-writer'
import type { ResultColumn, ResultSet } from '../../../shared/protocol.js'
import type { ColumnMeta } from '../../../shared/table.js'
import { NA_BIGINT, NA_INT } from '../../../shared/table.js'
import { textReader } from '../../../shared/result-text.js'
import { exportKind, ymdToDays, type ExportKind } from './columns.js'

/** The writer's schema type (hyparquet-writer carries its own copy of hyparquet's types). */
type SchemaElement = ConstructorParameters<typeof ParquetWriter>[0]['schema'][number]

function element(name: string, kind: ExportKind): SchemaElement {
  const base = { name, repetition_type: 'OPTIONAL' } as const
  switch (kind) {
    case 'int32':
      return { ...base, type: 'INT32' }
    case 'int64':
      return { ...base, type: 'INT64' }
    case 'float64':
      return { ...base, type: 'DOUBLE' }
    case 'utf8':
      return { ...base, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } }
    case 'date':
      return { ...base, type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } }
  }
}

/** The column kinds of a result, decided once from its metadata and first piece. */
export function parquetKinds(cols: readonly ColumnMeta[], columns: readonly ResultColumn[]): ExportKind[] {
  return cols.map((m, c) => exportKind(m, columns[c]))
}

function values(kind: ExportKind, column: ResultColumn, length: number): (number | bigint | string | null)[] {
  const out = new Array<number | bigint | string | null>(length)
  switch (column.kind) {
    case 'int': {
      const src = column.data
      for (let r = 0; r < length; r++) out[r] = src[r] === NA_INT ? null : kind === 'date' ? ymdToDays(src[r]) : src[r]
      return out
    }
    case 'float': {
      const src = column.data
      for (let r = 0; r < length; r++) out[r] = Number.isNaN(src[r]) ? null : src[r]
      return out
    }
    case 'bigint': {
      const src = column.data
      for (let r = 0; r < length; r++) out[r] = src[r] === NA_BIGINT ? null : src[r]
      return out
    }
    case 'text':
    case 'coded': {
      const read = textReader(column)
      for (let r = 0; r < length; r++) {
        const s = read(r)
        out[r] = s === '' ? null : s
      }
      return out
    }
  }
}

/** The Parquet file of a result given in pieces, a row group per piece. */
export async function* parquetFile(cols: readonly ColumnMeta[], kinds: readonly ExportKind[], pieces: AsyncIterable<ResultSet>): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = []
  const writer: ByteWriter & { flush?: () => void } = new ByteWriter()
  // As the library's own file writer does: hand the buffer's bytes on and start it again; the
  // writer's `offset` (the file position the metadata records) keeps counting.
  writer.flush = () => {
    if (writer.index > 0) out.push(writer.getBytes().slice())
    writer.index = 0
  }
  writer.finish = writer.flush
  const schema: SchemaElement[] = [{ name: 'root', num_children: cols.length }, ...cols.map((m, c) => element(m.name, kinds[c]))]
  const pq = new ParquetWriter({ writer, schema, createdBy: 'tabula' })
  for await (const piece of pieces) {
    if (piece.rowCount === 0) continue
    // No statistics of text columns: the writer keeps each row group's min and max text whole and
    // encodes them all in the footer in one call (100 row groups of 1 MB cells: 0.9 s of event loop).
    const columnData = cols.map((m, c) => ({ name: m.name, data: values(kinds[c], piece.columns[c], piece.rowCount), statistics: kinds[c] !== 'utf8' }))
    await pq.write({ columnData, rowGroupSize: piece.rowCount })
    yield* out.splice(0)
  }
  await pq.finish()
  yield* out.splice(0)
}
