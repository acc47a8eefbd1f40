/**
 * How many rows a kept result's chunks hold. A chunk is encoded (and read back) in one call on the
 * gateway's thread, so its size bounds how long that holds the event loop: 4,096 rows of 1 MB
 * cells made 4 GB chunks in principle, and 47 MB of long cells took 0.66 s to encode. The rows per
 * chunk halve from the store's default until no chunk holds more than CHUNK_TARGET_CHARS of text
 * (a single row may still be larger; it is one chunk then). Readers find the row count per chunk
 * in the result's meta, so every result may have its own.
 */
import type { ResultSet } from '../../../../shared/protocol.js'
import { isTextColumn, textReader } from '../../../../shared/result-text.js'

/** Characters of text a chunk may hold: encoding it as JSON is a few milliseconds. */
export const CHUNK_TARGET_CHARS = 1024 * 1024

/** What a row of numbers costs a chunk, as base64 of 4 or 8 bytes each (an upper bound). */
const NUMBER_CHARS = 12

/** The rows per chunk of `result`: `most` unless some chunk of that many would pass CHUNK_TARGET_CHARS. */
export function chunkRowsFor(result: ResultSet, most: number): number {
  const texts = result.columns.filter(isTextColumn).map(textReader)
  const perRow = (result.columns.length - texts.length) * NUMBER_CHARS
  if (texts.length === 0 || result.rowCount === 0) return most
  const rowChars = new Float64Array(result.rowCount)
  for (let r = 0; r < result.rowCount; r++) {
    let chars = perRow
    for (const read of texts) chars += read(r).length
    rowChars[r] = chars
  }
  let rows = most
  while (rows > 1 && largestChunk(rowChars, rows) > CHUNK_TARGET_CHARS) rows = Math.max(1, rows >> 1)
  return rows
}

/** The characters of the largest chunk of `rows` rows. */
function largestChunk(rowChars: Float64Array, rows: number): number {
  let largest = 0
  for (let from = 0; from < rowChars.length; from += rows) {
    let sum = 0
    const to = Math.min(rowChars.length, from + rows)
    for (let r = from; r < to; r++) sum += rowChars[r]
    if (sum > largest) largest = sum
  }
  return largest
}
