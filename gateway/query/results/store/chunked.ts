/**
 * The result cache: a finished result kept in the Store in row chunks, so any gateway can answer
 * `!data` for any range by fetching only the chunks that range touches. Key layout: layout.ts.
 *
 * Consistency rules, all resting on "the meta entry is the commit point":
 * - save writes every chunk first and the meta last, so a reader that finds a meta finds the
 *   chunks it names; a meta expires no later than its chunks (chunks get one second more TTL,
 *   and the meta's TTL is shortened by the time the save took).
 * - Each save writes a fresh generation of chunk keys, and swaps the meta with a conditional
 *   batch: a reader holding the previous meta still finds the previous chunks (or, once they are
 *   deleted, re-reads the meta and retries), and of two saves racing on one key, or a save racing
 *   a drop, the later commit wins and the loser removes its own chunks.
 * - A missing chunk under a current meta means expired (or evicted by Redis): readRange answers
 *   null and the caller recomputes. Redis may evict any key under memory pressure, so readers
 *   must cope with this anyway.
 *
 * Memory: save encodes one chunk at a time and holds at most two write batches (one being sent,
 * one being filled), each bounded in bytes and keys; readRange decodes only the chunks it needs.
 */
import { randomBytes } from 'node:crypto'
import type { ResultSet } from '../../../../shared/protocol.js'
import { columnLength, isTextColumn, textReader } from '../../../../shared/result-text.js'
import type { Store, WriteOp } from '../../../../shared/store/index.js'
import { assembleRange, emptyColumn, type DecodedChunk } from './assemble.js'
import { decodeChunk, encodeChunk } from './chunk.js'
import { storedKind, type ColumnKind } from './codec.js'
import { chunkKey, chunkKeys, metaKey, parseMeta, publicMeta, type ResultMeta, type StoredMeta } from './layout.js'
import { chunkRowsFor } from './chunk-rows.js'
import { nextTurn } from '../../../../shared/turns.js'

export type { ResultMeta } from './layout.js'

/** Rows per chunk: a 100-row page touches one or two chunks, and a chunk of 8 columns is ~200 KB. */
export const DEFAULT_CHUNK_ROWS = 4096
/** Results larger than this are not kept (see save). */
export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024
/** Bytes per write batch: big enough to amortise round trips, small enough not to stall Redis. */
export const DEFAULT_BATCH_BYTES = 8 * 1024 * 1024
/** Keys per write or delete batch, whatever their size. */
const MAX_KEYS_PER_BATCH = 1000
/** Extra seconds of life for chunks, so a meta never outlives the chunks it names. */
const CHUNK_TTL_SLACK = 1
/** How often readRange starts over when a newer save replaced the chunks it was about to read. */
const READ_ATTEMPTS = 3

export interface ResultStoreOptions {
  /** Rows per chunk (default 4096). */
  readonly chunkRows?: number
  /** Seconds a kept result lives after save or touch (whole seconds above 0). */
  readonly ttl: number
  /** Largest result kept, in bytes as stored (default 256 MiB); save refuses larger ones. */
  readonly maxBytes?: number
  /** Bytes of chunk values per write batch (default 8 MiB). */
  readonly batchBytes?: number
}

/**
 * What save did: 'saved'; 'too-large' (over maxBytes: nothing is left under the key, not even an
 * earlier result; the caller serves the result from memory or recomputes it); 'superseded' (another save or a drop of the
 * same key committed while this one was writing; this one's chunks were removed).
 */
export type SaveOutcome = 'saved' | 'too-large' | 'superseded'

/** Results kept in row chunks in a Store; see the module comment for the guarantees. */
export class ResultStore {
  readonly #store: Store
  readonly #chunkRows: number
  readonly #ttl: number
  readonly #maxBytes: number
  readonly #batchBytes: number

  constructor(store: Store, opts: ResultStoreOptions) {
    this.#store = store
    this.#chunkRows = positiveInteger('chunkRows', opts.chunkRows ?? DEFAULT_CHUNK_ROWS)
    this.#ttl = positiveInteger('ttl', opts.ttl)
    this.#maxBytes = positiveInteger('maxBytes', opts.maxBytes ?? DEFAULT_MAX_BYTES)
    this.#batchBytes = positiveInteger('batchBytes', opts.batchBytes ?? DEFAULT_BATCH_BYTES)
  }

  /**
   * Keeps the result under `key` with the TTL, replacing any earlier one. Results over maxBytes
   * are refused before any chunk is written when a cheap lower bound of their size already says
   * so, and otherwise as soon as the bytes written exceed it (what was written is removed), so
   * one huge result can never flood Redis; an earlier result under the key is then removed too.
   */
  async save(key: string, result: ResultSet): Promise<SaveOutcome> {
    checkShape(result)
    const token = await this.#store.watch([metaKey(key)])
    const previous = token.values[0] === null ? null : parseMeta(token.values[0])
    const gen = randomBytes(8).toString('hex')
    const started = Date.now()
    const tooLarge = sizeLowerBound(result) > this.#maxBytes
    // Smaller chunks for long text, so that encoding one is a short stretch (chunk-rows.ts).
    const chunkRows = tooLarge ? this.#chunkRows : chunkRowsFor(result, this.#chunkRows)
    const chunks = Math.ceil(result.rowCount / chunkRows)
    const written = tooLarge ? null : await this.#writeChunks(key, gen, result, chunkRows, chunks)
    if (written === null) {
      // An earlier result under the key is no longer the answer: remove it too (unless a newer
      // save replaced it meanwhile), so readers recompute instead of reading stale rows.
      if (previous && (await this.#store.batch([{ op: 'del', key: metaKey(key) }], token))) {
        await this.#deleteChunks(key, previous.gen, previous.chunks)
      }
      return 'too-large'
    }

    const meta: StoredMeta = {
      v: 1,
      gen,
      cols: result.cols,
      kinds: result.columns.map(storedKind),
      rowCount: result.rowCount,
      chunkRows,
      chunks,
      bytes: written,
    }
    // The chunks written first die first; shortening the meta's life by the save's duration keeps
    // it from outliving them (CHUNK_TTL_SLACK covers the rounding to whole seconds).
    const metaTtl = Math.max(1, this.#ttl - Math.floor((Date.now() - started) / 1000))
    const committed = await this.#store.batch([{ op: 'set', key: metaKey(key), value: JSON.stringify(meta), ttl: metaTtl }], token)
    if (!committed) {
      await this.#deleteChunks(key, gen, chunks)
      return 'superseded'
    }
    if (previous) await this.#deleteChunks(key, previous.gen, previous.chunks)
    return 'saved'
  }

  /** The columns and size of a kept result, or null when there is none (or it expired). */
  async meta(key: string): Promise<ResultMeta | null> {
    const meta = await this.#storedMeta(key)
    return meta && publicMeta(meta)
  }

  /**
   * The rows [from, to) of a kept result, clipped to it (from below 0 reads from 0, `to` past
   * the end or Infinity reads to the end; an empty range answers no rows with the columns). Reads
   * the meta and then, in one mget, only the chunks overlapping the range. Null when the result
   * is not there or has expired, in whole or in part: the caller recomputes.
   */
  async readRange(key: string, from: number, to: number): Promise<ResultSet | null> {
    if (!Number.isInteger(from) && from !== -Infinity) throw new RangeError(`readRange: from must be an integer (got ${from}).`)
    if (!Number.isInteger(to) && to !== Infinity) throw new RangeError(`readRange: to must be an integer (got ${to}).`)
    let seenGen: string | null = null
    for (let attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
      const meta = await this.#storedMeta(key)
      // The same generation as last time with a chunk missing: expired, not replaced.
      if (!meta || meta.gen === seenGen) return null
      seenGen = meta.gen
      const lo = Math.max(0, from)
      const hi = Math.min(meta.rowCount, to)
      if (hi <= lo) return { cols: meta.cols, columns: meta.kinds.map((kind) => emptyColumn(kind, 0)), rowCount: 0 }
      const first = Math.floor(lo / meta.chunkRows)
      const last = Math.floor((hi - 1) / meta.chunkRows)
      const values = await this.#store.mget(chunkKeys(key, meta, first, last))
      // A missing chunk: expired, or a newer save deleted this generation after we read the meta.
      if (values.some((v) => v === null)) continue
      const decoded = values.map((text, i): DecodedChunk => {
        const start = (first + i) * meta.chunkRows
        return { start, columns: decodeChunk(text!, meta.kinds, Math.min(meta.chunkRows, meta.rowCount - start)) }
      })
      return { cols: meta.cols, columns: assembleRange(meta.kinds, decoded, lo, hi), rowCount: hi - lo }
    }
    return null
  }

  /**
   * Gives a kept result its full TTL again; false when there is none. Refreshes every chunk, not
   * just the meta: otherwise a result in steady use would lose its chunks one TTL after the save
   * and be recomputed. One EXPIRE per chunk, in batches, chunks before the meta so the meta never
   * outlives them; a 1M-row result at the default chunk size is one batch of ~250 commands.
   */
  async touch(key: string): Promise<boolean> {
    const meta = await this.#storedMeta(key)
    if (!meta) return false
    const ops: WriteOp[] = chunkKeys(key, meta).map((k) => ({ op: 'expire', key: k, ttl: this.#ttl + CHUNK_TTL_SLACK }))
    ops.push({ op: 'expire', key: metaKey(key), ttl: this.#ttl })
    for (let i = 0; i < ops.length; i += MAX_KEYS_PER_BATCH) await this.#store.batch(ops.slice(i, i + MAX_KEYS_PER_BATCH))
    return true
  }

  /**
   * Deletes a kept result: the meta first, so readers stop finding it, then its chunks. False
   * when there was none. A save of the same key still writing then ends 'superseded'.
   */
  async drop(key: string): Promise<boolean> {
    const meta = await this.#storedMeta(key)
    const existed = (await this.#store.del(metaKey(key))) > 0
    if (meta) await this.#deleteChunks(key, meta.gen, meta.chunks)
    return existed
  }

  async #storedMeta(key: string): Promise<StoredMeta | null> {
    const text = await this.#store.get(metaKey(key))
    return text === null ? null : parseMeta(text)
  }

  /**
   * Writes every chunk of a generation, encoding one chunk at a time and sending a batch while the
   * next one is filled. Returns the bytes written, or null (after removing them) once they pass
   * maxBytes. On a Store error the chunks written so far are removed and the error is rethrown.
   */
  async #writeChunks(key: string, gen: string, result: ResultSet, chunkRows: number, chunks: number): Promise<number | null> {
    const ttl = this.#ttl + CHUNK_TTL_SLACK
    let bytes = 0
    let pending: WriteOp[] = []
    let pendingBytes = 0
    let inFlight: Promise<void> = Promise.resolve()
    const send = async (): Promise<void> => {
      // Wait for the previous batch first (rethrowing its failure): at most two batches exist.
      await inFlight
      const ops = pending
      pending = []
      pendingBytes = 0
      if (ops.length === 0) return
      const sending = this.#store.batch(ops).then(() => undefined)
      // Marked handled now; a failure surfaces at the next `await inFlight` instead of as an
      // unhandled rejection while the next batch is being encoded.
      sending.catch(() => undefined)
      inFlight = sending
    }
    try {
      for (let i = 0; i < chunks; i++) {
        // A turn of the event loop before each chunk: each is bounded work, all of them are not,
        // and the first would otherwise run on in the turn that received the result.
        await nextTurn()
        const from = i * chunkRows
        const value = encodeChunk(result, from, Math.min(result.rowCount, from + chunkRows))
        const size = Buffer.byteLength(value)
        bytes += size
        if (bytes > this.#maxBytes) {
          await inFlight
          await this.#deleteChunks(key, gen, i)
          return null
        }
        pending.push({ op: 'set', key: chunkKey(key, gen, i), value, ttl })
        pendingBytes += size
        if (pendingBytes >= this.#batchBytes || pending.length >= MAX_KEYS_PER_BATCH) await send()
      }
      await send()
      await inFlight
      return bytes
    } catch (err) {
      // Best effort, once nothing is in flight any more: the chunks would expire anyway, but a
      // failed save should not hold memory until then.
      await inFlight.catch(() => undefined)
      await this.#deleteChunks(key, gen, chunks).catch(() => undefined)
      throw err
    }
  }

  /** Deletes chunks [0, count) of a generation, a bounded number of keys per command. */
  async #deleteChunks(key: string, gen: string, count: number): Promise<void> {
    const keys = chunkKeys(key, { gen, chunks: count })
    for (let i = 0; i < keys.length; i += MAX_KEYS_PER_BATCH) await this.#store.del(...keys.slice(i, i + MAX_KEYS_PER_BATCH))
  }
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`ResultStore: ${name} must be a whole number above 0 (got ${value}).`)
  return value
}

/** A result whose columns do not match its metadata is a bug upstream; refuse it loudly. */
function checkShape(result: ResultSet): void {
  if (result.columns.length !== result.cols.length) {
    throw new TypeError(`ResultStore: ${result.columns.length} columns but ${result.cols.length} column descriptions.`)
  }
  if (!Number.isSafeInteger(result.rowCount) || result.rowCount < 0) throw new TypeError(`ResultStore: bad rowCount ${result.rowCount}.`)
  const short = result.columns.findIndex((c) => columnLength(c) < result.rowCount)
  if (short >= 0) throw new TypeError(`ResultStore: column ${short} has fewer than ${result.rowCount} rows.`)
}

/** Base64 characters per value of the numeric kinds (4 per 3 bytes). */
const ENCODED_WIDTH: Record<Exclude<ColumnKind, 'text'>, number> = { int: (4 / 3) * 4, float: (8 / 3) * 4, bigint: (8 / 3) * 4 }

/**
 * A quick lower bound of the stored size: exact for numbers (less padding), and for text the
 * UTF-16 length plus quotes and comma, which UTF-8 bytes and JSON escapes only ever exceed.
 */
function sizeLowerBound(result: ResultSet): number {
  let bytes = 0
  for (const column of result.columns) {
    if (!isTextColumn(column)) {
      bytes += result.rowCount * ENCODED_WIDTH[column.kind]
      continue
    }
    const text = textReader(column)
    for (let i = 0; i < result.rowCount; i++) bytes += text(i).length + 3
  }
  return bytes
}
