/**
 * The exchange formats' binary bodies (Arrow, Parquet): a result read in pieces and written a
 * piece at a time, so memory holds a piece and its encoding, whatever the size of the result.
 * CSV is text and goes the way of the other text formats (result.ts, paged.ts).
 */
import type { ResultSet } from '../../../shared/protocol.js'
import { sliceColumn } from '../../../shared/result-text.js'
import type { RowRange } from '../types.js'
import { arrowSchema, arrowStream } from './arrow.js'
import { parquetFile, parquetKinds } from './parquet.js'

export { exportKind, ymdToDays, daysToYmd, ymdToIso, type ExportKind } from './columns.js'

/** The formats whose bodies are bytes. */
export type BinaryFormat = 'arrow' | 'parquet'

/** Let timers and other requests run between pieces. */
function breathe(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/**
 * Rows [from, to) of a result in memory, as pieces of `rows` rows that view its columns (no copy
 * of numbers). Pieces as large as paged.ts reads give the same bytes as a kept result's stream.
 */
export async function* resultPieces(result: ResultSet, range: RowRange, rows: number): AsyncGenerator<ResultSet> {
  for (let from = range.from; from < range.to; from += rows) {
    const to = Math.min(range.to, from + rows)
    if (from > range.from) await breathe()
    yield { cols: result.cols, columns: result.columns.map((c) => sliceColumn(c, from, to)), rowCount: to - from }
  }
}

/**
 * The body of a binary format. `head` gives the column metadata and kinds (any rows of the
 * result, even none); `pieces` every row, in order.
 */
export function binaryChunks(format: BinaryFormat, head: Pick<ResultSet, 'cols' | 'columns'>, pieces: AsyncIterable<ResultSet>): AsyncGenerator<Uint8Array> {
  return format === 'arrow' ? arrowStream(arrowSchema(head.cols, head.columns), pieces) : parquetFile(head.cols, parquetKinds(head.cols, head.columns), pieces)
}
