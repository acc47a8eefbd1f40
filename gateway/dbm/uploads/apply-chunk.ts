/**
 * Writing one chunk's values after the upload's rows so far, a file per column, and answering
 * the upload's state as it will be once that is recorded.
 */
import { appendColumn, appendNa, emptyColumnState, mapVolumeFull, uploadDir, widenNumbers, type ChunkValues } from '../../../engine/index.js'
import type { ColumnType } from '../../../shared/table.js'
import type { ReadChunk } from '../../ingest/chunk-read-task.js'
import type { DbmContext } from '../registry.js'
import { reconcile } from './column-types.js'
import type { ColumnState, UploadState } from './state.js'

/** Writes one chunk's values after the rows so far; returns the new state (not yet stored). */
export function applyChunk(ctx: DbmContext, state: UploadState, input: ReadChunk): Promise<UploadState> {
  // A full volume while appending answers 507, as a full volume at commit does.
  return mapVolumeFull(() => appendChunk(ctx, state, input))
}

async function appendChunk(ctx: DbmContext, state: UploadState, input: ReadChunk): Promise<UploadState> {
  const n = input.rows
  const dir = uploadDir(ctx.deps.config.dataDir, state.id)
  const before = state.columns ?? input.columns.map((c): ColumnState => ({ ...emptyColumnState(null), name: c.name, declared: false }))
  // Every value is checked before any byte is written, so a refused chunk writes nothing.
  const values = before.map((col, i) => reconcile(state, col, input.columns[i], input.data[i]))
  // Columns are separate files: written at once, their fsyncs overlap instead of queueing.
  const after = await Promise.all(before.map((col, i) => appendColumnChunk(dir, state, i, col, values[i], n)))
  return { ...state, columns: after, rows: state.rows + n, chunks: state.chunks + 1 }
}

/** One column's part of a chunk: its values (null: only N/A, for a column that may have no type yet). */
async function appendColumnChunk(
  dir: string,
  state: UploadState,
  i: number,
  before: ColumnState,
  values: { type: ColumnType; values: ChunkValues } | null,
  n: number,
): Promise<ColumnState> {
  let col = before
  if (values === null) {
    // Only N/A so far: written once a chunk decides the type.
    return col.type === null ? col : { ...col, ...(await appendNa(dir, state.id, i, col, n)) }
  }
  if (col.type === null) {
    col = { ...col, type: values.type }
    if (state.rows > 0) col = { ...col, ...(await appendNa(dir, state.id, i, col, state.rows)) }
  } else if (col.type !== values.type && (col.type === 'int' || col.type === 'bigint') && (values.type === 'float' || values.type === 'bigint')) {
    col = { ...col, ...(await widenNumbers(dir, i, col, values.type)) }
  }
  return { ...col, ...(await appendColumn(dir, state.id, i, col, values.values)) }
}
