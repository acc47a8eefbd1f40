/**
 * Results as an Arrow IPC stream (application/vnd.apache.arrow.stream), one record batch per
 * piece of rows, so a large result is never held as one buffer.
 *
 * apache-arrow's stream writer queues its output for an asynchronous reader; here each batch is
 * written by a writer of its own and the bytes are cut along the stream format's message
 * boundaries (Arrow columnar format, "IPC Streaming Format": the schema message, then one
 * message per batch, then the end-of-stream marker 0xFFFFFFFF 0x00000000). The schema's bytes
 * are known from a writer given the schema alone. No dictionaries are written, so nothing but
 * the schema sits between the stream's start and its first batch.
 */
import { Date_, DateUnit, Field, Float64, Int32, Int64, makeData, RecordBatch, RecordBatchStreamWriter, Schema, Struct, Table, Utf8 } from 'apache-arrow'
import type { DataType } from 'apache-arrow'
import type { ResultColumn, ResultSet } from '../../../shared/protocol.js'
import type { ColumnMeta } from '../../../shared/table.js'
import { NA_BIGINT, NA_INT } from '../../../shared/table.js'
import { textReader } from '../../../shared/result-text.js'
import { exportKind, ymdToDays, type ExportKind } from './columns.js'

/** The end-of-stream marker: a continuation token and a zero length. */
const END_OF_STREAM = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0])

function arrowType(kind: ExportKind): DataType {
  switch (kind) {
    case 'int32':
      return new Int32()
    case 'int64':
      return new Int64()
    case 'float64':
      return new Float64()
    case 'utf8':
      return new Utf8()
    case 'date':
      return new Date_(DateUnit.DAY)
  }
}

/** The Arrow schema of a result: its column names, each column's type, every one nullable (N/A). */
export function arrowSchema(cols: readonly ColumnMeta[], columns: readonly ResultColumn[]): Schema {
  return new Schema(cols.map((m, c) => new Field(m.name, arrowType(exportKind(m, columns[c])), true)))
}

/** A validity bitmap (bit set = a value) and the count of nulls, from a per-row test. */
function validity(length: number, isNull: (row: number) => boolean): { nullBitmap: Uint8Array | undefined; nullCount: number } {
  const bits = new Uint8Array((length + 7) >> 3)
  let nullCount = 0
  for (let r = 0; r < length; r++) {
    if (isNull(r)) nullCount++
    else bits[r >> 3] |= 1 << (r & 7)
  }
  return { nullBitmap: nullCount === 0 ? undefined : bits, nullCount }
}

function utf8Data(type: Utf8, column: Extract<ResultColumn, { kind: 'text' | 'coded' }>, length: number) {
  const read = textReader(column)
  const offsets = new Int32Array(length + 1)
  let bytes = 0
  for (let r = 0; r < length; r++) {
    bytes += Buffer.byteLength(read(r))
    offsets[r + 1] = bytes
  }
  const data = Buffer.allocUnsafe(bytes)
  for (let r = 0; r < length; r++) data.write(read(r), offsets[r])
  // Text N/A is the empty string: a null, as in every other format.
  return makeData({
    type,
    length,
    valueOffsets: offsets,
    data: new Uint8Array(data.buffer, data.byteOffset, bytes),
    ...validity(length, (r) => offsets[r] === offsets[r + 1]),
  })
}

function columnData(type: DataType, kind: ExportKind, column: ResultColumn, length: number) {
  switch (column.kind) {
    case 'int': {
      const src = column.data
      if (kind === 'date') {
        const days = new Int32Array(length)
        const nulls = new Uint8Array(length)
        for (let r = 0; r < length; r++) {
          const d = src[r] === NA_INT ? null : ymdToDays(src[r])
          if (d === null) nulls[r] = 1
          else days[r] = d
        }
        return makeData({ type: type as Date_, length, data: days, ...validity(length, (r) => nulls[r] === 1) })
      }
      return makeData({ type: type as Int32, length, data: src.slice(0, length), ...validity(length, (r) => src[r] === NA_INT) })
    }
    case 'float': {
      const src = column.data
      const isNull = (r: number): boolean => Number.isNaN(src[r])
      return makeData({ type: type as Float64, length, data: src.slice(0, length), ...validity(length, isNull) })
    }
    case 'bigint': {
      const src = column.data
      const isNull = (r: number): boolean => src[r] === NA_BIGINT
      const out = src.slice(0, length)
      // N/A's slot holds 0 under the validity bitmap, as Arrow writers leave a null's value.
      for (let r = 0; r < length; r++) if (isNull(r)) out[r] = 0n
      return makeData({ type: type as Int64, length, data: out, ...validity(length, isNull) })
    }
    case 'text':
    case 'coded':
      return utf8Data(type as Utf8, column, length)
  }
}

/** A result (a piece of one) as a record batch of the schema. */
export function recordBatch(schema: Schema, piece: ResultSet): RecordBatch {
  const children = schema.fields.map((f, c) => columnData(f.type, exportKind(piece.cols[c], piece.columns[c]), piece.columns[c], piece.rowCount))
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: piece.rowCount, nullCount: 0, children }))
}

/** The Arrow IPC stream of a schema and its batches, a message (or two) per chunk. */
export async function* arrowStream(schema: Schema, pieces: AsyncIterable<ResultSet>): AsyncGenerator<Uint8Array> {
  const schemaOnly = RecordBatchStreamWriter.writeAll(new Table(schema)).toUint8Array(true)
  const schemaBytes = schemaOnly.length - END_OF_STREAM.length
  yield schemaOnly.subarray(0, schemaBytes)
  for await (const piece of pieces) {
    if (piece.rowCount === 0) continue
    const bytes = RecordBatchStreamWriter.writeAll([recordBatch(schema, piece)]).toUint8Array(true)
    yield bytes.subarray(schemaBytes, bytes.length - END_OF_STREAM.length)
  }
  yield END_OF_STREAM
}
