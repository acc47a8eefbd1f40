/**
 * The gateway's cache of table bytes: SQLite images and column files of immutable versions,
 * read straight from disk into SharedArrayBuffers. Workers receive the same buffers, so every
 * worker shares one copy, and since versions never change, a hit can never be stale.
 */
import type { TableMeta } from '../shared/table.js'
import { loadColumn, loadSqliteImage, readTableMeta, type LoadedColumn } from '../engine/storage/index.js'
import { LruCache } from './lru.js'

type Entry = SharedArrayBuffer | LoadedColumn | TableMeta

function sizeOf(e: Entry): number {
  if (e instanceof SharedArrayBuffer) return e.byteLength
  if ('buffer' in e) return e.buffer.byteLength + (e.dict?.reduce((n, s) => n + 2 * s.length + 16, 0) ?? 0)
  return 1024
}

export class TableCache {
  private readonly lru: LruCache<Entry>

  constructor(
    private readonly dataDir: string,
    budgetBytes: number,
  ) {
    this.lru = new LruCache<Entry>(budgetBytes, sizeOf)
  }

  get stats(): { bytes: number; hits: number; misses: number } {
    return { bytes: this.lru.size, hits: this.lru.hits, misses: this.lru.misses }
  }

  meta(version: string): Promise<TableMeta> {
    return this.lru.getOrLoad(`${version}/meta`, () => readTableMeta(this.dataDir, version)) as Promise<TableMeta>
  }

  async sqliteImage(version: string): Promise<SharedArrayBuffer> {
    const meta = await this.meta(version)
    return this.lru.getOrLoad(`${version}/sqlite`, () => loadSqliteImage(this.dataDir, meta)) as Promise<SharedArrayBuffer>
  }

  async column(version: string, index: number): Promise<LoadedColumn> {
    const meta = await this.meta(version)
    return this.lru.getOrLoad(`${version}/c${index}`, () => loadColumn(this.dataDir, meta, index)) as Promise<LoadedColumn>
  }
}
