/**
 * Where a kept result lives in the Store, and what its meta entry says.
 *
 *   res:{key}:meta          JSON StoredMeta: columns, row count, chunking, size, generation
 *   res:{key}:{gen}:{i}     chunk i of generation gen: rows [i*chunkRows, (i+1)*chunkRows),
 *                           every column, framed (frame.ts), each column encoded by codec.ts
 *
 * One key per chunk rather than per (chunk, column): `!data` always reads whole rows, so a
 * 100-row read is one or two keys instead of one or two per column. Chunk keys carry a
 * generation id chosen by each save, so saving the same key again never overwrites chunks a
 * reader of the previous meta is about to fetch; the meta names the generation it belongs to.
 * A meta key ends in `:meta` and a chunk key in digits, so no key's entries collide with another's.
 */
import type { ColumnMeta } from '../../../../shared/table.js'
import { COLUMN_KINDS, type ColumnKind } from './codec.js'

/** What a reader learns about a kept result without fetching any rows. */
export interface ResultMeta {
  readonly cols: readonly ColumnMeta[]
  /** The physical kind of each column (int, float, text), parallel to cols. */
  readonly kinds: readonly ColumnKind[]
  readonly rowCount: number
  readonly chunkRows: number
  /** Number of chunk keys: ceil(rowCount / chunkRows). */
  readonly chunks: number
  /** UTF-8 bytes of all chunk values, about what the result occupies in the Store. */
  readonly bytes: number
}

/** The meta entry as stored: ResultMeta plus the format version and the chunks' generation. */
export interface StoredMeta extends ResultMeta {
  readonly v: 1
  readonly gen: string
}

export const metaKey = (key: string): string => `res:${key}:meta`

export const chunkKey = (key: string, gen: string, index: number): string => `res:${key}:${gen}:${index}`

/** All chunk keys of a generation, in order. */
export function chunkKeys(key: string, meta: Pick<StoredMeta, 'gen' | 'chunks'>, first = 0, last = meta.chunks - 1): string[] {
  const keys: string[] = []
  for (let i = first; i <= last; i++) keys.push(chunkKey(key, meta.gen, i))
  return keys
}

/**
 * Reads a meta entry; null when it is not one this code wrote (another format version, or
 * damaged), which callers treat like an expired result: recompute and save again.
 */
export function parseMeta(text: string): StoredMeta | null {
  let meta: Partial<StoredMeta>
  try {
    meta = JSON.parse(text) as Partial<StoredMeta>
  } catch {
    return null
  }
  const ok =
    meta.v === 1 &&
    typeof meta.gen === 'string' &&
    Array.isArray(meta.cols) &&
    Array.isArray(meta.kinds) &&
    meta.kinds.length === meta.cols.length &&
    meta.kinds.every((k) => COLUMN_KINDS.includes(k)) &&
    Number.isSafeInteger(meta.rowCount) &&
    meta.rowCount! >= 0 &&
    Number.isSafeInteger(meta.chunkRows) &&
    meta.chunkRows! > 0 &&
    meta.chunks === Math.ceil(meta.rowCount! / meta.chunkRows!) &&
    Number.isSafeInteger(meta.bytes)
  return ok ? (meta as StoredMeta) : null
}

/** The public view of a stored meta: without the internal format version and generation. */
export function publicMeta(meta: StoredMeta): ResultMeta {
  const { cols, kinds, rowCount, chunkRows, chunks, bytes } = meta
  return { cols, kinds, rowCount, chunkRows, chunks, bytes }
}
