/**
 * Uploads in chunks: `upload_begin`, `upload_chunk` (any number, in order), `upload_commit` or
 * `upload_abort`. upload_table needs every row in one request and in memory; these take a large
 * file a few megabytes at a time with bounded memory on both sides. Chunks of one upload are
 * applied one at a time (a lock in the Store), each whole or not at all (see chunk.ts).
 *
 * This file is the folder's public API. Each transaction has a file of its own (begin.ts,
 * chunk.ts, commit.ts, abort.ts); the upload's record in the Store is state.ts, its lock lock.ts,
 * the order of numbered chunks turns.ts, reading a chunk read-rows.ts, writing it apply-chunk.ts
 * with the columns' types settled in column-types.ts, who may upload where permissions.ts, and
 * removing ended or abandoned uploads cleanup.ts.
 */
import type { Transaction } from '../registry.js'
import { UPLOAD_ABORT } from './abort.js'
import { UPLOAD_BEGIN } from './begin.js'
import { UPLOAD_CHUNK } from './chunk.js'
import { UPLOAD_COMMIT } from './commit.js'

export { removeEndedUploads } from './cleanup.js'

export const UPLOAD_CHUNK_TRANSACTIONS: readonly Transaction[] = [UPLOAD_BEGIN, UPLOAD_CHUNK, UPLOAD_COMMIT, UPLOAD_ABORT]
