/**
 * The gateway's cache of table bytes: SQLite images and column files of immutable versions,
 * read straight from disk into SharedArrayBuffers. Workers receive the same buffers, so every
 * worker shares one copy, and since versions never change, a hit can never be stale.
 */
import type { TableMeta } from '../shared/table.js'
import { loadColumn, loadSqliteImage, readTableMeta, type LoadedColumn } from '../engine/index.js'
import { LruCache } from './lru.js'
import { versionGoneOr } from './catalog/version-gone.js'

type Entry = SharedArrayBuffer | LoadedColumn | TableMeta

function sizeOf(e: Entry): number {
  if (e instanceof SharedArrayBuffer) return e.byteLength
  if ('buffer' in e)
    return (
      e.buffer.byteLength +
      (e.dict?.reduce((n, s) => n + 2 * s.length + 16, 0) ?? 0) +
      (e.sharedDict ? e.sharedDict.units.byteLength + e.sharedDict.ends.byteLength : 0)
    )
  return 1024
}

export class TableCache {
  private readonly lru: LruCache<Entry>
  /**
   * Loads in progress per version: the only moments this gateway reads a version's files (once
   * loaded, queries use the shared memory). A retired version is removed only while this is 0.
   */
  private readonly reading = new Map<string, number>()

  constructor(
    private readonly dataDir: string,
    budgetBytes: number,
  ) {
    this.lru = new LruCache<Entry>(budgetBytes, sizeOf)
  }

  get stats(): { bytes: number; hits: number; misses: number } {
    return { bytes: this.lru.size, hits: this.lru.hits, misses: this.lru.misses }
  }

  /** Whether a load of this version's files is under way on this gateway. */
  isReading(version: string): boolean {
    return (this.reading.get(version) ?? 0) > 0
  }

  private async reads<T>(version: string, load: () => Promise<T>): Promise<T> {
    this.reading.set(version, (this.reading.get(version) ?? 0) + 1)
    try {
      return await load()
    } catch (err) {
      throw await versionGoneOr(this.dataDir, version, err)
    } finally {
      const left = (this.reading.get(version) ?? 1) - 1
      if (left === 0) this.reading.delete(version)
      else this.reading.set(version, left)
    }
  }

  meta(version: string): Promise<TableMeta> {
    return this.lru.getOrLoad(`${version}/meta`, () => this.reads(version, () => readTableMeta(this.dataDir, version))) as Promise<TableMeta>
  }

  async sqliteImage(version: string): Promise<SharedArrayBuffer> {
    const meta = await this.meta(version)
    return this.lru.getOrLoad(`${version}/sqlite`, () => this.reads(version, () => loadSqliteImage(this.dataDir, meta))) as Promise<SharedArrayBuffer>
  }

  async column(version: string, index: number): Promise<LoadedColumn> {
    const meta = await this.meta(version)
    return this.lru.getOrLoad(`${version}/c${index}`, () => this.reads(version, () => loadColumn(this.dataDir, meta, index))) as Promise<LoadedColumn>
  }
}
