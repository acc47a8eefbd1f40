/**
 * sql.js exactly as api/sql uses it: each table's SQLite image built by the storage layer
 * (buildSqliteImage, N/A as NULL), opened and attached by the worker's SqlExecutor, the query
 * stepped row by row into the same ResultSet shape our engine returns.
 */
import type { ResultSet, SqlTableInput } from '../shared/protocol.js'
import { buildSqliteImage } from '../engine/storage/index.js'
import { sqlJs } from '../engine/storage/sqljs.js'
import { SqlExecutor } from '../engine/sql/execute.js'
import { plainValues, type BenchTable } from './data.js'
import { digestResult, type Digest } from './digest.js'
import { sqlFor, type BenchQuery } from './queries.js'
import type { Target } from './target.js'

async function image(t: BenchTable, alias: string): Promise<SqlTableInput> {
  const bytes = await buildSqliteImage(t.columns, t.data.map(plainValues))
  const sab = new SharedArrayBuffer(bytes.byteLength)
  new Uint8Array(sab).set(bytes)
  return { alias, version: `bench-${t.name}-${t.rows}`, image: sab }
}

export class SqlJsTarget implements Target {
  readonly label = 'sql.js'
  private result: ResultSet | null = null

  private constructor(
    private readonly executor: SqlExecutor,
    private readonly tables: readonly SqlTableInput[],
  ) {}

  /** Builds the images of the item (t0) and products (t1) tables. */
  static async create(item: BenchTable, products: BenchTable): Promise<SqlJsTarget> {
    const executor = new SqlExecutor(await sqlJs())
    return new SqlJsTarget(executor, [await image(item, 't0'), await image(products, 't1')])
  }

  async run(q: BenchQuery): Promise<void> {
    const sql = sqlFor(q, { item: 't0."data"', products: 't1."data"' })
    this.result = this.executor.run({ kind: 'sql', sql, tables: this.tables, maxRows: Number.MAX_SAFE_INTEGER })
  }

  async digest(q: BenchQuery): Promise<Digest> {
    if (!this.result) throw new Error('no result')
    return digestResult(this.result, q.orderKeys)
  }

  async release(): Promise<void> {
    this.result = null
  }
}
