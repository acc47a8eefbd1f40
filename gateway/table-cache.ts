/**
 * The gateway's cache of table bytes: SQLite images and column files of immutable versions,
 * read straight from disk into SharedArrayBuffers. Workers receive the same buffers, so every
 * worker shares one copy, and since versions never change, a hit can never be stale.
 */
import type { TableMeta } from '../shared/table.js'
import { hasSqliteImage, loadColumn, loadSqliteImage, readTableMeta, type LoadedColumn } from '../engine/index.js'
import { LruCache } from './lru.js'
import { versionGoneOr } from './catalog/version-gone.js'
import { buildSqliteImageOffThread } from './queries/table-writer.js'

/** Adds a version's SQLite image to its folder unless it is there; true when this call built it. */
export type BuildSqliteImage = (dataDir: string, version: string) => Promise<boolean>

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
  /** SQLite images this gateway built (rather than found on disk). */
  private imagesBuilt = 0

  constructor(
    private readonly dataDir: string,
    budgetBytes: number,
    private readonly buildImage: BuildSqliteImage = buildSqliteImageOffThread,
  ) {
    this.lru = new LruCache<Entry>(budgetBytes, sizeOf)
  }

  get stats(): { bytes: number; hits: number; misses: number; imagesBuilt: number } {
    return { bytes: this.lru.size, hits: this.lru.hits, misses: this.lru.misses, imagesBuilt: this.imagesBuilt }
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

  /**
   * The version's SQLite image, for a query on sql.js. Writes leave it out; the first query that
   * needs it builds it on a table writer thread, into the version folder for every later query
   * and every gateway sharing DATA_DIR (engine/storage/sqlite-image-add.ts).
   */
  async sqliteImage(version: string): Promise<SharedArrayBuffer> {
    const meta = await this.meta(version)
    return this.lru.getOrLoad(`${version}/sqlite`, () =>
      this.reads(version, async () => {
        if (!(await hasSqliteImage(this.dataDir, version)) && (await this.buildImage(this.dataDir, version))) this.imagesBuilt++
        return loadSqliteImage(this.dataDir, meta)
      }),
    ) as Promise<SharedArrayBuffer>
  }

  async column(version: string, index: number): Promise<LoadedColumn> {
    const meta = await this.meta(version)
    return this.lru.getOrLoad(`${version}/c${index}`, () => this.reads(version, () => loadColumn(this.dataDir, meta, index))) as Promise<LoadedColumn>
  }
}
