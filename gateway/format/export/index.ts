/**
 * The exchange formats' binary bodies (Arrow, Parquet): a result read in pieces and written a
 * piece at a time, so memory holds a piece and its encoding, whatever the size of the result.
 * CSV is text and goes the way of the other text formats (result.ts, paged.ts).
 */
import type { ResultSet } from '../../../shared/protocol.js'
import { isTextColumn, sliceColumn, textReader } from '../../../shared/result-text.js'
import type { RowRange } from '../types.js'
import { nextTurn } from '../../../shared/turns.js'
import { arrowSchema, arrowStream } from './arrow.js'
import { parquetFile, parquetKinds } from './parquet.js'

export { exportKind, ymdToDays, daysToYmd, ymdToIso, type ExportKind } from './columns.js'

/** The formats whose bodies are bytes. */
export type BinaryFormat = 'arrow' | 'parquet'

/**
 * Rows [from, to) of a result in memory, as pieces of `rows` rows that view its columns (no copy
 * of numbers). Pieces as large as paged.ts reads give the same bytes as a kept result's stream.
 */
export async function* resultPieces(result: ResultSet, range: RowRange, rows: number): AsyncGenerator<ResultSet> {
  for (let from = range.from; from < range.to; from += rows) {
    const to = Math.min(range.to, from + rows)
    if (from > range.from) await nextTurn()
    yield { cols: result.cols, columns: result.columns.map((c) => sliceColumn(c, from, to)), rowCount: to - from }
  }
}

/**
 * Text characters one record batch or row group may hold (but always one row at least). Encoding
 * a piece is one synchronous call into the Arrow or Parquet writer: 4,096 rows of 1 MB cells
 * held the event loop for over a second.
 */
export const BATCH_CHARS = 1024 * 1024

/** Rows [from, …) of a piece that fit BATCH_CHARS of text: where the batch starting at `from` ends. */
function batchEnd(piece: ResultSet, from: number): number {
  const texts = piece.columns.filter(isTextColumn).map(textReader)
  if (texts.length === 0) return piece.rowCount
  let chars = 0
  for (let r = from; r < piece.rowCount; r++) {
    for (const read of texts) chars += read(r).length
    if (chars > BATCH_CHARS && r > from) return r
  }
  return piece.rowCount
}

/**
 * Each piece cut into batches of at most BATCH_CHARS of text, with a turn of the event loop
 * between them. The cut depends on the piece's rows alone, so a result in memory and the same
 * result read back in pieces of the same rows give the same bytes.
 */
async function* batches(pieces: AsyncIterable<ResultSet>): AsyncGenerator<ResultSet> {
  for await (const piece of pieces) {
    let from = 0
    do {
      const to = batchEnd(piece, from)
      yield from === 0 && to === piece.rowCount ? piece : { cols: piece.cols, columns: piece.columns.map((c) => sliceColumn(c, from, to)), rowCount: to - from }
      from = to
      if (from < piece.rowCount) await nextTurn()
    } while (from < piece.rowCount)
  }
}

/**
 * The body of a binary format. `head` gives the column metadata and kinds (any rows of the
 * result, even none); `pieces` every row, in order.
 */
export function binaryChunks(format: BinaryFormat, head: Pick<ResultSet, 'cols' | 'columns'>, pieces: AsyncIterable<ResultSet>): AsyncGenerator<Uint8Array> {
  const cut = batches(pieces)
  return format === 'arrow' ? arrowStream(arrowSchema(head.cols, head.columns), cut) : parquetFile(head.cols, parquetKinds(head.cols, head.columns), cut)
}
