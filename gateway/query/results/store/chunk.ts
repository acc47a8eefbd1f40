/**
 * One chunk of a result: the rows [from, to) of every column, as one Store value. Each column is
 * encoded by codec.ts and the parts are framed together (frame.ts), so a row range costs one key
 * per chunk it touches, whatever the number of columns.
 */
import type { PlainColumn, ResultSet } from '../../../../shared/protocol.js'
import { decodeColumn, encodeColumn, type ColumnKind } from './codec.js'
import { frame, unframe } from './frame.js'

/** Encodes rows [from, to) of every column of the result. */
export function encodeChunk(result: ResultSet, from: number, to: number): string {
  return frame(result.columns.map((column) => encodeColumn(column, from, to)))
}

/** Decodes a chunk of `rows` rows whose columns have the given kinds; throws when it is corrupt. */
export function decodeChunk(text: string, kinds: readonly ColumnKind[], rows: number): PlainColumn[] {
  const parts = unframe(text, kinds.length)
  return kinds.map((kind, i) => decodeColumn(kind, parts[i], rows))
}
