/**
 * Parquet files and Arrow IPC streams (or files) sent as upload rows, read into the shape
 * upload_table takes from JSON: declared columns (name and type) and column-major values. The
 * upload then goes the way of any JSON upload (upload.ts), with the same checks and messages.
 *
 * Types are kept: 8, 16 and 32-bit signed integers (and 8, 16-bit unsigned) → int; unsigned
 * 32-bit and any 64-bit integer → bigint (`j`), whose values must lie within ±(2^53 − 1), the
 * range it holds exactly; floats (and Parquet decimals, read as doubles) → float; UTF-8 text → text;
 * dates (Parquet DATE, Arrow Date32/Date64) → date, as yyyymmdd; booleans → int 0/1. Nulls are
 * N/A. Anything else (timestamps, times, binary, nested lists and structs…) is refused naming
 * the column, its type and what to do, rather than stored as something it is not.
 *
 * Parquet is read by hyparquet, Arrow by apache-arrow: both plain JavaScript.
 */
import { tableFromIPC, Type, type DataType, type Table } from 'apache-arrow'
import { parquetMetadata, parquetRead, type FileMetaData, type SchemaElement } from 'hyparquet'
import { AppError } from '../../shared/errors.js'
import { BIGINT_MAX, type ColumnType } from '../../shared/table.js'
import { daysToYmd } from '../../shared/ymd.js'

/** A binary upload format, named as the URL suffixes name them. */
export type BinaryUpload = 'parquet' | 'arrow'

/** The media types of a binary upload body. */
export const BINARY_MEDIA_TYPES: Readonly<Record<BinaryUpload, readonly string[]>> = {
  parquet: ['application/vnd.apache.parquet'],
  arrow: ['application/vnd.apache.arrow.stream', 'application/vnd.apache.arrow.file'],
}

/** What upload.ts takes: typed column declarations and column-major values (null is N/A). */
export interface DecodedUpload {
  readonly cols: { readonly name: string; readonly type: ColumnType }[]
  readonly data: Record<string, unknown[]>
}

const NAMES: Record<BinaryUpload, string> = { parquet: 'Parquet', arrow: 'Arrow' }

const unreadable = (format: BinaryUpload, parameter: string, why: string): AppError =>
  new AppError(
    'INVALID_PARAMETER',
    `The ${NAMES[format]} upload could not be read (${why}); send a whole ${format === 'parquet' ? 'Parquet file' : 'Arrow IPC stream or file'}.`,
    { parameter },
  )

const unsupported = (format: BinaryUpload, parameter: string, column: string, type: string): AppError =>
  new AppError(
    'INVALID_PARAMETER',
    `Column "${column}" of the ${NAMES[format]} upload has the type ${type}, which tabula does not store; convert it to an integer, float, text or date column (timestamps to text or a date).`,
    { parameter, column },
  )

/**
 * A whole number of a bigint column, exact: within ±(2^63 − 1) (an unsigned 64-bit value past it,
 * or −2^63, which the column keeps for N/A, gets a 4xx naming the value).
 */
function bigValue(v: bigint | number, format: BinaryUpload, parameter: string, column: string): bigint {
  const n = typeof v === 'bigint' ? v : BigInt(v)
  if (n > BIGINT_MAX || n < -BIGINT_MAX) {
    throw new AppError(
      'INVALID_PARAMETER',
      `Column "${column}" of the ${NAMES[format]} upload holds ${n}, beyond the ±9223372036854775807 (2^63 − 1) a big integer column holds; store such values as text or a float.`,
      { parameter, column },
    )
  }
  return n
}

// ---------------------------------------------------------------------------------------------
// Parquet

/** The column type of a top-level Parquet column, or the name of its type when unsupported. */
function parquetType(e: SchemaElement): ColumnType | string {
  const logical = e.logical_type?.type
  const converted = e.converted_type
  if (e.num_children !== undefined && e.num_children > 0) return `a group (${converted ?? logical ?? 'struct'})`
  if (e.repetition_type === 'REPEATED') return 'a repeated field'
  if (converted === 'DECIMAL' || logical === 'DECIMAL') return 'float'
  switch (e.type) {
    case 'BOOLEAN':
      return 'int'
    case 'INT32':
      if (converted === 'DATE' || logical === 'DATE') return 'date'
      if (converted === 'UINT_32' || (e.logical_type?.type === 'INTEGER' && e.logical_type.bitWidth === 32 && !e.logical_type.isSigned)) return 'bigint'
      if (converted === undefined || /^U?INT_(8|16)$|^INT_32$/.test(converted))
        return logical === undefined || logical === 'INTEGER' ? 'int' : `INT32 (${logical})`
      return `INT32 (${converted})`
    case 'INT64':
      if (converted === undefined || converted === 'INT_64' || converted === 'UINT_64')
        return logical === undefined || logical === 'INTEGER' ? 'bigint' : `INT64 (${logical})`
      return `INT64 (${converted})`
    case 'FLOAT':
    case 'DOUBLE':
      return 'float'
    case 'BYTE_ARRAY':
      return converted === 'UTF8' || converted === 'ENUM' || logical === 'STRING' || logical === 'ENUM' ? 'text' : 'BYTE_ARRAY (binary)'
    case 'FIXED_LEN_BYTE_ARRAY':
      return logical === 'FLOAT16' ? 'float' : `FIXED_LEN_BYTE_ARRAY (${logical ?? 'binary'})`
    default:
      return String(e.type)
  }
}

/** The top-level columns of a Parquet schema (the root's children), with their elements. */
function topColumns(meta: FileMetaData): SchemaElement[] {
  const out: SchemaElement[] = []
  const schema = meta.schema
  let i = 1
  // Walk the flattened tree: each top-level element is followed by all of its descendants.
  const skip = (at: number): number => {
    const children = schema[at].num_children ?? 0
    let next = at + 1
    for (let k = 0; k < children; k++) next = skip(next)
    return next
  }
  while (i < schema.length) {
    out.push(schema[i])
    i = skip(i)
  }
  return out
}

export async function readParquetUpload(bytes: Uint8Array, parameter: string): Promise<DecodedUpload> {
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
  let meta: FileMetaData
  try {
    meta = parquetMetadata(file)
  } catch (err) {
    throw unreadable('parquet', parameter, (err as Error).message)
  }
  const elements = topColumns(meta)
  const cols = elements.map((e) => {
    const type = parquetType(e)
    if (!['int', 'bigint', 'float', 'text', 'date'].includes(type)) throw unsupported('parquet', parameter, e.name, type)
    return { name: e.name, type: type as ColumnType }
  })
  const rows = Number(meta.num_rows)
  const data: Record<string, unknown[]> = {}
  for (const c of cols) data[c.name] = new Array<unknown>(rows).fill(null)
  try {
    await parquetRead({
      file,
      metadata: meta,
      // Dates as yyyymmdd, the form tabula stores them in.
      parsers: { dateFromDays: (days: number) => daysToYmd(days) },
      onChunk: ({ columnName, columnData, rowStart }) => {
        const out = data[columnName]
        if (out === undefined) return
        for (let i = 0; i < columnData.length; i++) out[rowStart + i] = columnData[i]
      },
    })
  } catch (err) {
    throw unreadable('parquet', parameter, (err as Error).message)
  }
  for (const c of cols) normalise(data[c.name], c, 'parquet', parameter)
  return { cols, data }
}

// ---------------------------------------------------------------------------------------------
// Arrow

function arrowColumnType(t: DataType): ColumnType | string {
  switch (t.typeId) {
    case Type.Int: {
      const { bitWidth, isSigned } = t as unknown as { bitWidth: number; isSigned: boolean }
      return bitWidth < 32 || (bitWidth === 32 && isSigned) ? 'int' : 'bigint'
    }
    case Type.Float:
      return 'float'
    case Type.Utf8:
    case Type.LargeUtf8:
      return 'text'
    case Type.Bool:
      return 'int'
    case Type.Date:
      return 'date'
    case Type.Dictionary:
      return arrowColumnType((t as unknown as { dictionary: DataType }).dictionary)
    default:
      return String(t)
  }
}

export function readArrowUpload(bytes: Uint8Array, parameter: string): DecodedUpload {
  let table: Table
  try {
    table = tableFromIPC(bytes)
  } catch (err) {
    throw unreadable('arrow', parameter, (err as Error).message)
  }
  if (table.schema.fields.length === 0) throw unreadable('arrow', parameter, 'no schema message was found')
  const cols = table.schema.fields.map((f) => {
    const type = arrowColumnType(f.type)
    if (!['int', 'bigint', 'float', 'text', 'date'].includes(type)) throw unsupported('arrow', parameter, f.name, type)
    return { name: f.name, type: type as ColumnType }
  })
  const data: Record<string, unknown[]> = {}
  cols.forEach((c, i) => {
    const vector = table.getChildAt(i)!
    const values = new Array<unknown>(table.numRows)
    for (let r = 0; r < table.numRows; r++) {
      const v: unknown = vector.get(r)
      // Arrow dates come as milliseconds since the epoch (a Date for some versions).
      values[r] = v === null || c.type !== 'date' ? v : daysToYmd((v instanceof Date ? v.getTime() : Number(v)) / 86_400_000)
    }
    data[c.name] = values
  })
  for (const c of cols) normalise(data[c.name], c, 'arrow', parameter)
  return { cols, data }
}

/** Values as upload.ts takes them: 64-bit integers as bigints, booleans as 0/1, NaN as N/A. */
function normalise(values: unknown[], c: { name: string; type: ColumnType }, format: BinaryUpload, parameter: string): void {
  for (let r = 0; r < values.length; r++) {
    const v = values[r]
    if (v === undefined || (typeof v === 'number' && Number.isNaN(v))) values[r] = null
    else if (typeof v === 'boolean') values[r] = v ? 1 : 0
    else if (typeof v === 'bigint') values[r] = bigValue(v, format, parameter, c.name)
    else if (c.type === 'bigint' && typeof v === 'number') values[r] = bigValue(v, format, parameter, c.name)
  }
}

/** The rows of a binary upload. */
export function readBinaryUpload(format: BinaryUpload, bytes: Uint8Array, parameter: string): Promise<DecodedUpload> {
  return format === 'parquet' ? readParquetUpload(bytes, parameter) : Promise.resolve(readArrowUpload(bytes, parameter))
}

/**
 * The Parquet or Arrow rows among a transaction's parameters, decoded; null when neither is given.
 * Each comes as the request's body (bytes) or, inside JSON or a form, as base64 text.
 */
export async function binaryRowsOf(params: { readonly parquet?: unknown; readonly arrow?: unknown }, others: readonly string[]): Promise<DecodedUpload | null> {
  const formats = (['parquet', 'arrow'] as const).filter((f) => params[f] !== undefined)
  if (formats.length === 0) return null
  if (formats.length > 1 || others.length > 0) {
    throw new AppError('INVALID_PARAMETER', `Give the rows in one parameter only; got ${[...formats, ...others].map((n) => `"${n}"`).join(' and ')}.`, {
      parameter: formats[0],
    })
  }
  const format = formats[0]
  return readBinaryUpload(format, bytesOf(params[format], format), format)
}

/** The bytes of a binary parameter: the body's, or base64 text (RFC 4648, either alphabet). */
function bytesOf(value: unknown, parameter: BinaryUpload): Uint8Array {
  if (value instanceof Uint8Array) return value
  if (typeof value === 'string') {
    const text = value.replace(/\s+/g, '')
    if (/^[A-Za-z0-9+/_-]*={0,2}$/.test(text) && text.length % 4 !== 1)
      return Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64')
  }
  throw new AppError(
    'INVALID_PARAMETER',
    `The parameter "${parameter}" must be the ${NAMES[parameter]} bytes as base64 text, or send them as the request body (Content-Type ${BINARY_MEDIA_TYPES[parameter][0]}) with cmd in the query string.`,
    { parameter },
  )
}

/**
 * Column declarations for a decoded upload: the file's names and types, where `declared` (the
 * transaction's `cols`, or the upload's columns so far) gives no type of its own. A declared
 * column keeps its order, label and format; one the file lacks is reported by upload.ts.
 */
export function withFileTypes(decoded: DecodedUpload, declared: readonly unknown[] | undefined): unknown[] {
  if (declared === undefined) return decoded.cols
  const typeOf = new Map(decoded.cols.map((c) => [c.name.toLowerCase(), c.type]))
  return declared.map((d) => {
    if (typeof d !== 'object' || d === null || Array.isArray(d)) return d
    const o = d as Record<string, unknown>
    const fileType = typeof o.name === 'string' ? typeOf.get(o.name.toLowerCase()) : undefined
    return o.type === undefined && fileType !== undefined ? { ...o, type: fileType } : o
  })
}
