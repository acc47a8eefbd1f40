/**
 * The gateway's cache of table bytes: SQLite images and column files of immutable versions,
 * read straight from disk into SharedArrayBuffers. Workers receive the same buffers, so every
 * worker shares one copy, and since versions never change, a hit can never be stale.
 */
import { bytesPerValue, type TableMeta } from '../../shared/table.js'
import type { TableInput } from '../../shared/protocol.js'
import { hasSqliteImage, loadColumn, loadColumnRows, loadDictionary, loadSqliteImage, readTableMeta, type LoadedColumn } from '../../engine/index.js'
import { cacheUser } from './cache-user.js'
import { FairLruCache } from './fair-lru.js'
import { WindowPool, type WindowBuffers } from './window-pool.js'
import { AppError } from '../../shared/errors.js'
import { versionGoneOr } from '../catalog/version-gone.js'
import { buildSqliteImageOffThread } from './table-writer.js'

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
  /** Shared fairly between users: a user within their share keeps their tables (fair-lru.ts). */
  private readonly lru: FairLruCache<Entry>
  /**
   * Loads in progress per version: the only moments this gateway reads a version's files (once
   * loaded, queries use the shared memory). A retired version is removed only while this is 0.
   */
  private readonly reading = new Map<string, number>()
  /** SQLite images this gateway built (rather than found on disk). */
  private imagesBuilt = 0

  constructor(
    private readonly dataDir: string,
    readonly budgetBytes: number,
    private readonly buildImage: BuildSqliteImage = buildSqliteImageOffThread,
    windowBuffers = 2,
  ) {
    this.lru = new FairLruCache<Entry>(budgetBytes, sizeOf, { whose: cacheUser })
    this.windows = new WindowPool(windowBuffers)
  }

  /** The reused buffers that windows of tables larger than the budget are read into: one per part at once. */
  readonly windows: WindowPool

  get stats(): { bytes: number; hits: number; misses: number; imagesBuilt: number; windowBytes: number } {
    return { bytes: this.lru.size, hits: this.lru.hits, misses: this.lru.misses, imagesBuilt: this.imagesBuilt, windowBytes: this.windows.bytes }
  }

  /** Bytes of the cache charged to a user (the last to use each entry). */
  bytesOf(uid: string): number {
    return this.lru.bytesOf(uid)
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
  async sqliteImage(version: string, path?: string): Promise<SharedArrayBuffer> {
    await this.mustFit(version, path, 'an SQL query on sql.js reads the whole table')
    const meta = await this.meta(version)
    return this.lru.getOrLoad(`${version}/sqlite`, () =>
      this.reads(version, async () => {
        if (!(await hasSqliteImage(this.dataDir, version)) && (await this.buildImage(this.dataDir, version))) this.imagesBuilt++
        return loadSqliteImage(this.dataDir, meta)
      }),
    ) as Promise<SharedArrayBuffer>
  }

  /**
   * Whether the version's column files fit the cache's budget (TABLE_CACHE_MB). One that does not
   * is never loaded whole (column() refuses it): queries read it a window of rows at a time
   * (window(), docs/large-tables.md).
   */
  async fits(version: string): Promise<boolean> {
    return tableBytes(await this.meta(version)) <= this.budgetBytes
  }

  /** Refuses to load a version whole when it is larger than the budget: 413 naming TABLE_CACHE_MB. */
  private async mustFit(version: string, path: string | undefined, why: string): Promise<void> {
    const meta = await this.meta(version)
    if (tableBytes(meta) > this.budgetBytes) throw tableTooLarge(path ?? `version ${version}`, tableBytes(meta), this.budgetBytes, why)
  }

  async column(version: string, index: number, path?: string): Promise<LoadedColumn> {
    await this.mustFit(version, path, 'this use reads the whole table')
    const meta = await this.meta(version)
    return this.lru.getOrLoad(`${version}/c${index}`, () => this.reads(version, () => loadColumn(this.dataDir, meta, index))) as Promise<LoadedColumn>
  }

  /** A text column's dictionary, cached (it serves every window of the column). */
  private async dictionary(version: string, index: number): Promise<LoadedColumn> {
    const meta = await this.meta(version)
    return this.lru.getOrLoad(`${version}/d${index}`, () =>
      this.reads(version, async () => ({ type: 'text' as const, buffer: new SharedArrayBuffer(0), ...(await loadDictionary(this.dataDir, meta, index)) })),
    ) as Promise<LoadedColumn>
  }

  /**
   * Rows from … to-1 of every column of a version, as a task's table window (TableInput.firstRow),
   * read from the row segments that hold them, into `buffers` when given (window-pool.ts).
   * Not cached: a table larger than the budget read through an LRU smaller than itself would only
   * push everything else out, to no later hit.
   */
  async window(version: string, path: string, title: string, from: number, to: number, buffers?: WindowBuffers): Promise<TableInput> {
    const meta = await this.meta(version)
    const columns = await this.reads(version, () =>
      Promise.all(
        meta.columns.map(async (spec, i) => {
          const into = buffers?.buffer(i, (to - from) * bytesPerValue(spec.type))
          if (spec.type !== 'text') return { spec, buffer: await loadColumnRows(this.dataDir, meta, i, from, to, undefined, into) }
          const dict = await this.dictionary(version, i)
          return { spec, buffer: await loadColumnRows(this.dataDir, meta, i, from, to, dict.dict!.length, into), dict: dict.sharedDict! }
        }),
      ),
    )
    return { path, version, rows: meta.rows, title, columns, firstRow: from }
  }

  /** A version's dictionaries alone, for reading a window's text codes on this thread. */
  async dictionaries(version: string): Promise<(readonly string[] | null)[]> {
    const meta = await this.meta(version)
    return Promise.all(meta.columns.map(async (spec, i) => (spec.type === 'text' ? (await this.dictionary(version, i)).dict! : null)))
  }
}

/** The bytes of a version's column files: what loading it whole costs the cache. */
export const tableBytes = (meta: TableMeta): number => meta.columns.reduce((n, c) => n + meta.rows * bytesPerValue(c.type), 0)

/** 413: a query or request would need the whole of a table larger than the cache. */
export function tableTooLarge(path: string, bytes: number, budget: number, why: string): AppError {
  const mb = (n: number) => Math.ceil(n / (1024 * 1024))
  return new AppError(
    'TABLE_TOO_LARGE',
    `Table ${path} holds ${mb(bytes)} MB, more than the table cache (TABLE_CACHE_MB = ${mb(budget)}), and ${why}; ` +
      'such a table is read a segment at a time only by selections, computed columns, tabulations, decomposable g_ functions and links to smaller tables (docs/large-tables.md). ' +
      'Tabulate first (what follows a <tabu> runs on its merged groups), or raise TABLE_CACHE_MB.',
    { table: path, bytes, limit: budget, setting: 'TABLE_CACHE_MB' },
  )
}
