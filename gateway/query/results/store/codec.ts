/**
 * One column slice as one string, so a result can live in a string-valued Store.
 *
 * Numbers travel as base64 of their little-endian bytes: exact by construction (NaN payloads, -0
 * and NA_INT are just bytes), a third larger than the raw data, and decoded by Buffer in native
 * code instead of a parse per value. Text travels as JSON, which escapes lone surrogates and
 * control characters, so the string survives Redis's UTF-8 storage unchanged.
 */
import type { PlainColumn, ResultColumn } from '../../../../shared/protocol.js'
import { isTextColumn, textSlice } from '../../../../shared/result-text.js'

/** The kinds a column is stored as, in the order ResultColumn names them; coded text is stored as text. */
export type ColumnKind = Exclude<ResultColumn['kind'], 'coded'>

/** The kind a column is stored as. */
export const storedKind = (c: ResultColumn): ColumnKind => (c.kind === 'coded' ? 'text' : c.kind)

export const COLUMN_KINDS: readonly ColumnKind[] = ['int', 'float', 'text', 'bigint']

/** Bytes per value of the numeric kinds. */
const WIDTH = { int: 4, float: 8, bigint: 8 } as const

/** Typed arrays use the platform's byte order; the wire format is little-endian everywhere. */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1

/** Encodes rows [from, to) of a column (the caller keeps the range inside the column). */
export function encodeColumn(column: ResultColumn, from: number, to: number): string {
  if (isTextColumn(column)) return JSON.stringify(textSlice(column, from, to))
  const view = column.data.subarray(from, to)
  if (!LITTLE_ENDIAN) return swappedBytes(view).toString('base64')
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString('base64')
}

/**
 * Decodes what encodeColumn wrote for `rows` rows. Numeric data lands in a fresh typed array (its
 * own ArrayBuffer, so a Float64Array is 8-byte aligned whatever Buffer's pool offset would be).
 * Throws when the text does not hold exactly `rows` values of the kind: a corrupt entry must not
 * pass for data.
 */
export function decodeColumn(kind: ColumnKind, text: string, rows: number): PlainColumn {
  if (kind === 'text') return { kind, data: decodeText(text, rows) }
  const width = WIDTH[kind]
  const data = kind === 'int' ? new Int32Array(rows) : kind === 'bigint' ? new BigInt64Array(rows) : new Float64Array(rows)
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  // Buffer#write decodes straight into the array's memory: no intermediate Buffer to copy from.
  const written = Buffer.byteLength(text, 'base64') === rows * width ? bytes.write(text, 0, 'base64') : -1
  if (written !== rows * width) throw new Error(`Corrupt ${kind} column: expected ${rows} values of ${width} bytes.`)
  if (!LITTLE_ENDIAN) void (width === 4 ? bytes.swap32() : bytes.swap64())
  if (kind === 'int') return { kind, data: data as Int32Array }
  return kind === 'bigint' ? { kind, data: data as BigInt64Array } : { kind, data: data as Float64Array }
}

function decodeText(text: string, rows: number): string[] {
  const values: unknown = JSON.parse(text)
  if (!Array.isArray(values) || values.length !== rows || !values.every((v) => typeof v === 'string')) {
    throw new Error(`Corrupt text column: expected ${rows} strings.`)
  }
  return values as string[]
}

/** Big-endian hosts only: a little-endian copy of the values' bytes. */
function swappedBytes(view: Int32Array | Float64Array | BigInt64Array): Buffer {
  const copy = Buffer.from(view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength))
  return view.BYTES_PER_ELEMENT === 4 ? copy.swap32() : copy.swap64()
}
