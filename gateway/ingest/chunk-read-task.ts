/**
 * Reading one upload_chunk's CSV on a table-writer thread (gateway/tables/table-writer.ts):
 * the scan, the typing, the cell limits and the text encoding are most of an upload's CPU, and
 * here two chunks of one upload are read at once, beside the gateway's thread, which only puts
 * the chunks' values into the upload's files in order (gateway/dbm/uploads/apply-chunk.ts).
 *
 * The answer is what crosses back cheaply: numbers as typed arrays, text as distinct values and
 * codes (shared/csv/chunk-text.ts). A refusal crosses as an error payload, as the engine
 * worker's do, with the message the gateway would have given.
 */
import { Piscina } from 'piscina'
import { AppError, toPayload, type ErrorPayload } from '../../shared/errors.js'
import type { ColumnType } from '../../shared/table.js'
import { checkCellLimits, type CellLimits } from '../../engine/index.js'
import { chunkCsvInput, type ChunkInput } from './chunk-csv.js'

export interface ChunkReadTask {
  /** The chunk's CSV, header line first: text, or the request's bytes (UTF-8). */
  readonly csv: string | Uint8Array
  /** The columns in the upload's order and the types the chunk must take (see chunkCsvInput). */
  readonly cols?: readonly { name: string; type?: ColumnType }[]
  readonly limits: CellLimits
}

export interface ReadChunk extends ChunkInput {
  readonly rows: number
}

export type ChunkReadOutcome = { readonly ok: true; readonly chunk: ReadChunk } | { readonly ok: false; readonly error: ErrorPayload }

/**
 * The chunk's bytes as text. Bytes that are not UTF-8 (a file saved as Latin-1, say) are refused
 * rather than read as U+FFFD, which would store other text than the file holds without a word.
 */
function utf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new AppError(
      'INVALID_PARAMETER',
      'The CSV body is not valid UTF-8; save the file as UTF-8 (or convert it, e.g. iconv -f latin1 -t utf-8) and upload it again.',
      { parameter: 'csv' },
    )
  }
}

/** Reads a chunk; throws what chunkCsvInput and checkCellLimits throw. */
function readChunk(task: ChunkReadTask): ReadChunk {
  const text = typeof task.csv === 'string' ? task.csv : utf8(task.csv)
  const { columns, data } = chunkCsvInput(text, task.cols)
  checkCellLimits(columns, data, task.limits)
  const first = data[0]
  return { columns, data, rows: first === undefined ? 0 : 'codes' in first ? first.codes.length : first.length }
}

/** The outcome, its arrays' buffers handed over to the gateway's thread rather than copied. */
function moved(outcome: ChunkReadOutcome): unknown {
  if (!outcome.ok) return outcome
  const buffers = new Set(outcome.chunk.data.map((d) => ('codes' in d ? d.codes.buffer : d.buffer) as ArrayBuffer))
  return Piscina.move({ [Piscina.transferableSymbol]: [...buffers], [Piscina.valueSymbol]: outcome } as never)
}

/** Answers a ChunkReadOutcome (moved: see `moved`). */
export default function chunkReadTask(task: ChunkReadTask): unknown {
  try {
    return moved({ ok: true, chunk: readChunk(task) })
  } catch (err) {
    const e = err instanceof AppError ? err : new AppError('INTERNAL', 'The chunk could not be read.', { cause: String((err as Error)?.stack ?? err) })
    return { ok: false, error: toPayload(e) }
  }
}
