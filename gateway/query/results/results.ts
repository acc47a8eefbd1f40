/**
 * Results: everything this gateway holds of finished query results, in one place. A result is a
 * pure function of its recipe (the query and the immutable table versions it read), so every copy
 * is found by the recipe's key and none is ever stale:
 * - the key itself: the SHA-256 of the recipe's JSON, the same bytes every gateway (and every
 *   earlier version of the gateway) computes, so a result kept in Redis by one is found by all;
 * - the memo: whole results in this gateway's memory, bounded in bytes (RESULT_MEMO_MB);
 * - the rendered answers: small answers already rendered from a result (rendered-answers.ts);
 * - the Store copy: the result in row chunks (store/), readable by every gateway, written
 *   by this gateway at most once per half TTL (recent-store-copies.ts).
 *
 * Every route that answers a query's result goes through here: the session's api/sql and api/run,
 * and instances and dynamic widgets alike.
 */
import { createHash } from 'node:crypto'
import type { ResultSet } from '../../../shared/protocol.js'
import type { Store } from '../../../shared/store/types.js'
import { ClockCache } from '../../cache/clock-cache.js'
import type { Logger } from '../../logger.js'
import { FairLruCache } from '../../tables/fair-lru.js'
import { readableOf, sliceResult, type ReadableResult } from './readable-result.js'
import { RecentStoreCopies } from './recent-store-copies.js'
import { RenderedAnswers } from './rendered-answers.js'
import { ResultStore } from './store/chunked.js'

/**
 * What an entry of the memo costs in the gateway's memory, so that its budget bounds memory and
 * not only column bytes. Measured with heap snapshots and process.memoryUsage() after collection
 * (2026-11-27, Node 20; test/gateway/cache-charges.test.ts keeps it honest): a result that came
 * from a worker takes about 650 bytes whatever its columns (the entry, the ResultSet, its arrays,
 * the 64-character key and the Map slot), and each column about 500 more (its object, its typed
 * array's object and backing store, its ColumnMeta and their strings). Charging only the column
 * data, as before, counted a one-row result at a sixth of its size, so a budget of 256 MiB let the
 * memo grow to gigabytes under distinct small queries.
 */
const ENTRY_OVERHEAD_BYTES = 640
const COLUMN_OVERHEAD_BYTES = 512
/** A string: its UTF-16 characters (one-byte strings take less), its header and its array slot. */
const stringsBytes = (strings: readonly string[]): number => strings.reduce((s, v) => s + 2 * v.length + 24, 0)

/** What the memo charges for a result. */
export function resultBytes(r: ResultSet): number {
  let n = ENTRY_OVERHEAD_BYTES
  for (const c of r.columns) {
    n += COLUMN_OVERHEAD_BYTES
    if (c.kind === 'text') n += stringsBytes(c.data)
    else if (c.kind === 'coded') n += c.codes.byteLength + stringsBytes(c.dict)
    else n += c.data.byteLength
  }
  for (const m of r.cols) n += 2 * (m.name.length + m.label.length + m.desc.length + m.format.length)
  return n
}

/** Budget of the recipe text → key memo, charged by text length (UTF-16) plus the key and overhead. */
const KEY_TEXT_MEMO_BYTES = 4 * 1024 * 1024

export interface ResultsOptions {
  /** Memory for whole results (RESULT_MEMO_MB). */
  readonly memoBytes: number
  /** Seconds a result copied to the Store lives there (SESSION_TTL). */
  readonly ttlSeconds: number
  /** Largest result copied to the Store (RESULT_STORE_MB). */
  readonly storeBytes: number
}

export class Results {
  /** Whole results by recipe key; concurrent loads of one key share one run. */
  readonly memo: FairLruCache<ResultSet>
  /** Small non-HTML answers rendered from results, by recipe key, format and what was asked. */
  readonly rendered = new RenderedAnswers()
  /** Results in the Store, in row chunks, readable by every gateway. */
  readonly store: ResultStore
  readonly #recentCopies: RecentStoreCopies
  readonly #log: Logger
  /** Keys by recipe object: a request asks for its recipe's key several times. */
  readonly #keys = new WeakMap<object, string>()
  /** Keys by recipe JSON: a repeated query makes a new recipe object with the same text. */
  readonly #keysByText = new ClockCache<string>(KEY_TEXT_MEMO_BYTES, (hash, text) => 2 * text.length + 2 * hash.length + 64)

  constructor(store: Store, log: Logger, opts: ResultsOptions) {
    this.memo = new FairLruCache<ResultSet>(opts.memoBytes, resultBytes)
    this.store = new ResultStore(store, { ttl: opts.ttlSeconds, maxBytes: opts.storeBytes })
    this.#recentCopies = new RecentStoreCopies(opts.ttlSeconds)
    this.#log = log
  }

  /**
   * The recipe's key: the SHA-256 (hex) of its JSON. Never change what is hashed: results kept in
   * the Store by other gateways, older ones included, are found by it. Recipes are never changed
   * after they are made, so the key is remembered per object, and per JSON text.
   */
  key(recipe: object): string {
    let key = this.#keys.get(recipe)
    if (key === undefined) {
      const text = JSON.stringify(recipe)
      key = this.#keysByText.get(text)
      if (key === undefined) {
        key = createHash('sha256').update(text).digest('hex')
        this.#keysByText.set(text, key)
      }
      this.#keys.set(recipe, key)
    }
    return key
  }

  /**
   * Copies a result to the Store for other gateways, in the background, unless this gateway wrote
   * it within half the TTL (the copy there holds the same rows; writing it again would only renew
   * its lifetime). A failed write only costs another gateway a recompute, and is forgotten so the
   * next request for the result tries again.
   */
  keep(key: string, result: ResultSet): void {
    if (!this.#recentCopies.claim(key)) return
    this.store.save(key, result).catch((err: unknown) => {
      this.#recentCopies.forget(key)
      this.#log({ level: 'warn', msg: 'result not kept in the store', key, err: String(err) })
    })
  }

  /**
   * The result under `key` as the index widget reads it, cheapest source first: the memo (the
   * whole result in memory), the Store copy (any gateway wrote it; a range reads only its chunks),
   * or `compute` (which runs the recipe and so leaves the result in the memo), then kept.
   */
  async readable(key: string, compute: () => Promise<ResultSet>): Promise<ReadableResult> {
    const local = this.memo.get(key)
    if (local) return readableOf(local)
    const meta = await this.store.meta(key)
    if (meta) {
      return {
        cols: meta.cols,
        rowCount: meta.rowCount,
        rows: async (from, to) => (await this.store.readRange(key, from, to)) ?? sliceResult(await compute(), from, to),
      }
    }
    const result = await compute()
    this.keep(key, result)
    return readableOf(result)
  }
}
