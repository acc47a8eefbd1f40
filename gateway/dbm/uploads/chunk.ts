/**
 * `upload_chunk`: adds one chunk's rows to an upload. The chunk is read before the lock, waits for
 * its turn when numbered, and is applied under the lock; it either is applied whole (its bytes
 * and the state move together) or leaves nothing that is ever read.
 */
import { discardUnapplied, dropTextCache, uploadDir } from '../../../engine/index.js'
import { AppError } from '../../../shared/errors.js'
import { binaryRowsOf } from '../../ingest/binary-tables.js'
import { defineTransaction } from '../define.js'
import { BINARY_ROW_PARAMS } from '../new-table.js'
import { applyChunk } from './apply-chunk.js'
import { CHUNK_LOCK_SECONDS, withLockedUpload } from './lock.js'
import { readingCols, readRows, sameReading, type ChunkRows } from './read-rows.js'
import { accessOf, readState, UPLOAD_PARAM, writeState, type UploadState } from './state.js'
import { awaitTurn, inFlightKey } from './turns.js'

export const UPLOAD_CHUNK = defineTransaction({
  name: 'upload_chunk',
  summary:
    'Adds rows to an upload begun with upload_begin: CSV text (with its header line), JSON data, or a Parquet file or Arrow stream, as for upload_table.',
  requires: 'the user who began the upload',
  params: {
    upload: UPLOAD_PARAM,
    seq: {
      type: 'integer',
      doc: 'The chunk number, from 1. With it, a chunk sent again (after a lost answer) is recognised and not applied twice, a missing one is reported, and chunks may be sent before the one before them is answered: each waits for its turn.',
    },
    csv: {
      type: 'any',
      doc: 'The rows as CSV text whose first line names the columns (the same line in every chunk). Or send the CSV itself as the request body (Content-Type: text/csv) with cmd in the query string.',
    },
    data: { type: 'any', doc: 'The rows as JSON, in any shape upload_table takes; instead of csv.' },
    ...BINARY_ROW_PARAMS,
  },
  oneOf: [['csv', 'data', 'parquet', 'arrow']],
  async handler(ctx, p) {
    const id = p.upload
    const access = accessOf(ctx)
    if (p.csv !== undefined && typeof p.csv !== 'string' && !(p.csv instanceof Uint8Array)) {
      throw new AppError('INVALID_PARAMETER', 'Transaction "upload_chunk": the parameter "csv" must be CSV text (a string).', { parameter: 'csv' })
    }
    // Decoded once, before the upload's state is read: an unreadable file changes nothing.
    const binary = await binaryRowsOf(
      p,
      (['csv', 'data'] as const).filter((n) => p[n] !== undefined),
    )
    const rows: ChunkRows = { csv: p.csv as string | Uint8Array | undefined, data: p.data, binary }
    const seen = await readState(access, id)
    const seq = p.seq
    if (seq !== undefined && seq <= seen.chunks) return { upload: id, rows: seen.rows, chunks: seen.chunks, duplicate: true }
    // Marked as on its way, so that the chunk after it waits for it rather than being refused.
    const marked = seq !== undefined && (await ctx.deps.store.set(inFlightKey(id, seq), '1', { nx: true, ttl: CHUNK_LOCK_SECONDS }))
    try {
      // Read before the lock: chunks sent together are read at once, on the table writer's threads.
      let chunk = await readRows(ctx, seen, rows)
      for (;;) {
        if (seq !== undefined) await awaitTurn(access, id, seq, ctx.signal)
        const done = await withLockedUpload(access, id, CHUNK_LOCK_SECONDS, ctx.signal, async (state) => {
          if (seq !== undefined && seq <= state.chunks) return { upload: id, rows: state.rows, chunks: state.chunks, duplicate: true }
          // Another chunk took the turn between awaitTurn and the lock: wait again.
          if (seq !== undefined && seq !== state.chunks + 1) return null
          // The chunk was read for the columns as they were; an earlier chunk may have settled them since.
          if (!sameReading(chunk.cols, readingCols(state))) chunk = await readRows(ctx, state, rows)
          const dir = uploadDir(ctx.deps.config.dataDir, id)
          // What an earlier chunk's failure or lost answer left is settled from the state (we hold the lock).
          await discardUnapplied(dir, state.columns)
          let next: UploadState
          try {
            next = await applyChunk(ctx, state, chunk.read)
          } catch (err) {
            // This process's dictionaries may hold values of the chunk that was not applied.
            dropTextCache(id)
            // "Nothing was saved" must be true on disk too: a chunk cut short by a full volume
            // had already written megabytes, and may have rewritten an int column as floats.
            await discardUnapplied(dir, state.columns).catch(() => undefined)
            throw err
          }
          try {
            await writeState(access, next)
          } catch (err) {
            // The files stay: a store that failed to answer may have recorded the new state after all.
            dropTextCache(id)
            throw err
          }
          // Recorded: a widened column's int copy is no longer needed.
          await discardUnapplied(dir, next.columns).catch(() => undefined)
          return { upload: id, rows: next.rows, chunks: next.chunks }
        })
        if (done) return done
      }
    } finally {
      if (marked) await ctx.deps.store.del(inFlightKey(id, seq)).catch(() => undefined)
    }
  },
})
