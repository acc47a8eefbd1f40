/**
 * DuckDB (@duckdb/node-api, in-process, in-memory database) loaded from the same arrays as our
 * engine through its appender, one 2,048-row data chunk at a time (DuckDB's vector size): numbers
 * are written into the chunk's vectors and whole chunks appended, never row-by-row INSERTs.
 * Integers and dates are INTEGER (dates as yyyymmdd, like ours), bigint BIGINT, floats DOUBLE, text VARCHAR;
 * N/A is NULL, as in the SQLite image that api/sql reads.
 *
 * Materialising the result: each timed run is `connection.run(sql)`, which returns only when DuckDB
 * has computed every row and column of the answer and holds it in memory in its own columnar
 * form (a materialised result: the counterpart of our ResultSet). Values are not converted into
 * JavaScript objects: that would measure the Node binding (seconds for 10M rows) rather than
 * DuckDB. `CREATE TEMP TABLE … AS` was measured too and is 2-6x slower on full-table results
 * (it also writes table storage), so it would flatter us.
 */
import type { DuckDBConnection, DuckDBInstance, DuckDBMaterializedResult, DuckDBType } from '@duckdb/node-api'
import { NA_BIGINT, NA_INT } from '../shared/table.js'
import { isEncodedText, type BenchTable } from './data.js'
import { orderWeight, type Digest } from './digest.js'
import { sqlFor, type BenchQuery } from './queries.js'
import type { Target } from './target.js'

type DuckApi = typeof import('@duckdb/node-api')

/** The DuckDB module, or the reason it cannot be used here. */
export async function loadDuckDb(): Promise<{ api: DuckApi } | { error: string }> {
  try {
    const api = (await import('@duckdb/node-api')) as DuckApi
    return { api }
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) }
  }
}

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`

function sqlType(type: string): string {
  return type === 'float' ? 'DOUBLE' : type === 'text' ? 'VARCHAR' : type === 'bigint' ? 'BIGINT' : 'INTEGER'
}

/** Whether a numeric column holds an N/A (NaN, NA_INT or NA_BIGINT). */
function hasNa(d: Int32Array | Float64Array | BigInt64Array): boolean {
  if (d instanceof BigInt64Array) return d.includes(NA_BIGINT)
  if (d instanceof Float64Array) return d.some((v) => v !== v)
  return d.includes(NA_INT)
}

export class DuckDb {
  private constructor(
    private readonly api: DuckApi,
    readonly instance: DuckDBInstance,
    readonly conn: DuckDBConnection,
  ) {}

  static async open(api: DuckApi): Promise<DuckDb> {
    const instance = await api.DuckDBInstance.create(':memory:')
    const conn = await instance.connect()
    return new DuckDb(api, instance, conn)
  }

  async version(): Promise<string> {
    const r = await this.conn.runAndReadAll('SELECT version()')
    return String(r.getRows()[0][0])
  }

  /**
   * CREATE TABLE and append every row through data chunks. Numbers without N/A are copied into a
   * chunk's vector whole (its `items` array, then one flush); text, and numbers holding N/A, value
   * by value.
   */
  async load(t: BenchTable): Promise<void> {
    const { api } = this
    const defs = t.columns.map((c) => `${quote(c.name)} ${sqlType(c.type)}`).join(', ')
    await this.conn.run(`CREATE OR REPLACE TABLE ${quote(t.name)} (${defs})`)
    const types: DuckDBType[] = t.columns.map((c) =>
      c.type === 'float' ? api.DOUBLE : c.type === 'text' ? api.VARCHAR : c.type === 'bigint' ? api.BIGINT : api.INTEGER,
    )
    const columns = t.columns.map((c, ci) => {
      const values = t.data[ci]
      if (c.type === 'text')
        return { kind: 'text' as const, text: isEncodedText(values) ? values : null, plain: isEncodedText(values) ? null : (values as readonly string[]) }
      const numbers = values as Int32Array | Float64Array | BigInt64Array
      return { kind: 'number' as const, numbers, bulk: !hasNa(numbers) }
    })
    const appender = await this.conn.createAppender(t.name)
    const size = api.DuckDBVector.standardSize()
    try {
      for (let from = 0; from < t.rows; from += size) {
        const n = Math.min(size, t.rows - from)
        const chunk = api.DuckDBDataChunk.create(types, n)
        columns.forEach((c, ci) => {
          const vector = chunk.getColumnVector(ci)
          if (c.kind === 'text') {
            if (c.text) {
              const { codes, dict } = c.text
              for (let i = 0; i < n; i++) {
                const code = codes[from + i]
                vector.setItem(i, code === 0 ? null : dict[code])
              }
            } else {
              const s = c.plain!
              for (let i = 0; i < n; i++) {
                const v = s[from + i]
                vector.setItem(i, v === '' ? null : v)
              }
            }
          } else if (c.bulk) {
            const items = (vector as unknown as { items: Int32Array | Float64Array | BigInt64Array }).items
            items.set(c.numbers.subarray(from, from + n) as never)
          } else if (c.numbers instanceof BigInt64Array) {
            for (let i = 0; i < n; i++) {
              const v = c.numbers[from + i]
              vector.setItem(i, v === NA_BIGINT ? null : v)
            }
          } else if (c.numbers instanceof Float64Array) {
            const d = c.numbers
            for (let i = 0; i < n; i++) {
              const v = d[from + i]
              vector.setItem(i, v === v ? v : null)
            }
          } else {
            const d = c.numbers
            for (let i = 0; i < n; i++) {
              const v = d[from + i]
              vector.setItem(i, v === NA_INT ? null : v)
            }
          }
          vector.flush()
        })
        appender.appendDataChunk(chunk)
      }
      appender.flushSync()
    } finally {
      appender.closeSync()
    }
    const check = await this.conn.runAndReadAll(`SELECT count(*)::INTEGER FROM ${quote(t.name)}`)
    const n = Number(check.getRows()[0][0])
    if (n !== t.rows) throw new Error(`DuckDB table ${t.name} has ${n} rows after loading ${t.rows}`)
  }

  async setThreads(n: number): Promise<void> {
    await this.conn.run(`SET threads = ${n}`)
  }

  close(): void {
    this.conn.closeSync()
    this.instance.closeSync()
  }
}

/** DuckDB with a fixed number of threads, as one column of the report. */
export class DuckTarget implements Target {
  private result: DuckDBMaterializedResult | null = null

  constructor(
    private readonly db: DuckDb,
    private readonly threads: number,
    readonly label: string,
  ) {}

  async before(): Promise<void> {
    await this.db.setThreads(this.threads)
  }

  private sql(q: BenchQuery): string {
    return sqlFor(q, { item: 'item', products: 'products' })
  }

  async run(q: BenchQuery): Promise<void> {
    this.result = await this.db.conn.run(this.sql(q))
  }

  /**
   * Row count and order-key sums from the materialised result itself; the per-column counts and
   * sums by SQL over the same query (reading every value of a 10M-row result through the
   * binding would take longer than the whole benchmark).
   */
  async digest(q: BenchQuery): Promise<Digest> {
    const result = this.result
    if (!result) throw new Error('no result')
    const names = result.columnNames()
    const types = result.columnTypes().map((t) => t.toString())
    const parts = ['count(*)::DOUBLE']
    names.forEach((name, i) => {
      const c = `q.${quote(name)}`
      if (types[i] === 'VARCHAR') parts.push(`count(NULLIF(${c}, ''))::DOUBLE`, `coalesce(sum(length(${c})), 0)::DOUBLE`)
      else parts.push(`count(${c})::DOUBLE`, `coalesce(sum(${c}), 0)::DOUBLE`)
    })
    const r = await this.db.conn.runAndReadAll(`SELECT ${parts.join(', ')} FROM (${this.sql(q)}) AS q`)
    const row = r.getRows()[0].map(Number)
    if (row[0] !== result.rowCount) throw new Error(`materialised ${result.rowCount} rows, the digest query counted ${row[0]}`)
    const ordered = q.orderKeys.map((k) => {
      const ci = names.findIndex((n) => n.toLowerCase() === k)
      if (ci < 0) throw new Error(`order key ${k} is not in the result`)
      let sum = 0
      let i = 0
      for (let c = 0; c < result.chunkCount; c++) {
        const chunk = result.getChunk(c)
        const vector = chunk.getColumnVector(ci)
        for (let j = 0; j < chunk.rowCount; j++, i++) sum += orderWeight(i) * Number(vector.getItem(j))
      }
      return sum
    })
    return {
      rows: result.rowCount,
      columns: names.map((name, i) => ({ name: name.toLowerCase(), nonNull: row[1 + 2 * i], sum: row[2 + 2 * i] })),
      ordered,
    }
  }

  async release(): Promise<void> {
    // The result's native memory goes with the object (the harness collects garbage before each
    // timed run).
    this.result = null
  }
}
