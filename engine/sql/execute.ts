/**
 * Runs one SQL task on sql.js. Each table version is opened once per worker from its SQLite
 * image (sql.js copies it into its in-memory file system) and kept in a small cache; a query
 * ATTACHes the versions it was handed as t0, t1… on a scratch connection with query_only set,
 * so SQLite itself refuses any write even if the gateway's guard were bypassed. Past SQLite's
 * limit of attached databases the rest are copied in first (many-tables.ts).
 */
import type { Database, SqlJsStatic } from 'sql.js'
import { AppError } from '../../shared/errors.js'
import type { ResultSet, SqlTask } from '../../shared/protocol.js'
import { ResultBuilder, type SqlValue } from './result-builder.js'
import { DEFAULT_SQL_MEMORY_MB, isOutOfMemory, sqlOutOfMemory, sqliteHeapLimitBytes } from './memory-cap.js'
import { checkTableCount } from '../../shared/sql-table-limit.js'
import { ATTACH_DIRECT, COPIES, copyTables, needsCopies, pointAtCopies } from './many-tables.js'
import { sqlError } from './sqlite-errors.js'

/** How many opened table versions a worker keeps. */
const MAX_OPEN_VERSIONS = 32

export class SqlExecutor {
  private readonly open = new Map<string, Database>()
  private readonly scratch: Database
  /** Set once a query ran SQLite out of memory: the heap grew and will not shrink (memory-cap.ts). */
  exhausted = false

  constructor(
    private readonly sql: SqlJsStatic,
    /** SQL_MEMORY_MB: SQLite's allocations stop at three quarters of it (a process-wide limit of this module). */
    private readonly capMb: number = DEFAULT_SQL_MEMORY_MB,
  ) {
    this.scratch = new sql.Database()
    this.scratch.run(`PRAGMA hard_heap_limit = ${sqliteHeapLimitBytes(capMb)}`)
    // Sorts and temporary b-trees spill into memory either way (there is no disk in sql.js);
    // saying so keeps SQLite from trying a temporary file first.
    this.scratch.run('PRAGMA temp_store = MEMORY')
    this.scratch.run('PRAGMA query_only = 1')
  }

  /**
   * The opened image of a version; least recently used versions are closed beyond the cap, but
   * never one the running query uses (`inUse`): closing a database removes its file, which an
   * ATTACH of this query may be reading (a query may read up to 64 tables, the cap is 32).
   */
  private database(version: string, image: SharedArrayBuffer, inUse: ReadonlySet<string>): Database {
    let db = this.open.get(version)
    if (db) {
      this.open.delete(version)
    } else {
      db = new this.sql.Database(new Uint8Array(image))
      if (this.open.size >= MAX_OPEN_VERSIONS) {
        for (const [old, oldDb] of this.open) {
          if (inUse.has(old)) continue
          this.open.delete(old)
          oldDb.close()
          break
        }
      }
    }
    this.open.set(version, db)
    return db
  }

  run(task: SqlTask): ResultSet {
    // The gateway refuses such a query before loading its tables (sql.ts); a task built elsewhere too.
    checkTableCount(task.tables.length)
    try {
      return this.runAttached(task)
    } catch (err) {
      // Out of memory can surface anywhere: opening an image, ATTACH, prepare, step, DETACH.
      const message = err instanceof AppError ? String(err.detail.sqlite ?? '') : err instanceof Error ? err.message : String(err)
      if (isOutOfMemory(message)) {
        this.exhausted = true
        throw sqlOutOfMemory(this.capMb)
      }
      throw err
    }
  }

  private runAttached(task: SqlTask): ResultSet {
    const attached: string[] = []
    const inUse = new Set(task.tables.map((t) => t.version))
    const fileOf = (t: SqlTask['tables'][number]) => (this.database(t.version, t.image, inUse) as unknown as { filename: string }).filename
    // More tables than SQLite attaches: the first ATTACH_DIRECT as they are, the rest as copies (many-tables.ts).
    const direct = needsCopies(task.tables.length) ? task.tables.slice(0, ATTACH_DIRECT) : task.tables
    const copied = task.tables.slice(direct.length)
    try {
      for (const t of direct) {
        // The alias is gateway-made (t0, t1…), never user text; the file name is sql.js's own.
        this.scratch.run(`ATTACH ? AS ${t.alias}`, [fileOf(t)])
        attached.push(t.alias)
      }
      if (copied.length === 0) return this.query(task)
      this.scratch.run(`ATTACH ':memory:' AS ${COPIES}`)
      attached.push(COPIES)
      this.scratch.run('PRAGMA query_only = 0')
      try {
        copyTables(
          this.scratch,
          copied.map((t) => ({ alias: t.alias, filename: fileOf(t) })),
        )
      } finally {
        this.scratch.run('PRAGMA query_only = 1')
      }
      return this.query({ ...task, sql: pointAtCopies(task.sql, new Set(copied.map((t) => t.alias))) })
    } finally {
      for (const alias of attached) this.scratch.run(`DETACH ${alias}`)
    }
  }

  private query(task: SqlTask): ResultSet {
    let stmt
    try {
      stmt = this.scratch.prepare(task.sql)
    } catch (err) {
      throw sqlError(err)
    }
    try {
      const builder = new ResultBuilder(stmt.getColumnNames(), task.maxRows, task.truncate === true)
      for (;;) {
        let more: boolean
        try {
          more = stmt.step()
        } catch (err) {
          throw sqlError(err)
        }
        if (!more) break
        builder.add(readRow(stmt))
      }
      return builder.build()
    } finally {
      stmt.free()
    }
  }
}

/**
 * The current row. SQLite lets a value grow to 1e9 bytes, past the longest string V8 can make
 * (about 512 Mi characters): sql.js then throws while decoding it, which is the query asking for
 * too large a value, not a fault of the service.
 */
function readRow(stmt: { get(params: null, config: { useBigInt: boolean }): unknown }): SqlValue[] {
  try {
    // BigInt for INTEGER, number for REAL: result-builder.ts keeps the difference.
    return stmt.get(null, { useBigInt: true }) as SqlValue[]
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_STRING_TOO_LONG' || /string longer than|invalid string length/i.test(String((err as Error)?.message))) {
      throw new AppError(
        'RESULT_TOO_LARGE',
        'A value of the result is longer than the most one text can hold (about 512 Mi characters); make it shorter (substr) or leave it out (truncate_ does not help: it cuts rows, not values).',
        { maxChars: 2 ** 29 - 24 },
      )
    }
    throw err
  }
}
