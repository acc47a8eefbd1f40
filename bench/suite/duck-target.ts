/**
 * DuckDB with a fixed number of threads, running a question's SQL over the suite's tables in one
 * in-memory database (bench/duck.ts loads them). A run is `connection.run(sql)`: DuckDB computes
 * and holds the whole answer in its own columnar form, the counterpart of tabula's ResultSet.
 */
import type { DuckDBMaterializedResult } from '@duckdb/node-api'
import type { DuckDb } from '../duck.js'
import { orderedSum, orderKeyIndex, SAMPLE_ROWS, type Kind, type SuiteDigest } from './digest.js'
import type { SuiteQuestion } from './questions/index.js'
import type { SuiteTarget } from './target.js'

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`

function kindOf(type: string): Kind {
  if (type === 'VARCHAR') return 'text'
  if (type === 'DOUBLE' || type === 'FLOAT' || type.startsWith('DECIMAL')) return 'float'
  return 'int'
}

function* columnValues(result: DuckDBMaterializedResult, column: number): Iterable<unknown> {
  for (let c = 0; c < result.chunkCount; c++) {
    const chunk = result.getChunk(c)
    const vector = chunk.getColumnVector(column)
    for (let j = 0; j < chunk.rowCount; j++) yield vector.getItem(j)
  }
}

function sampleRows(result: DuckDBMaterializedResult): string[] {
  if (result.chunkCount === 0) return []
  return result
    .getChunk(0)
    .getRows()
    .slice(0, SAMPLE_ROWS)
    .map((row) => row.map((v) => (v === null ? 'N/A' : String(v))).join(' | '))
}

export class DuckTarget implements SuiteTarget {
  private result: DuckDBMaterializedResult | null = null

  constructor(
    private readonly db: DuckDb,
    private readonly threads: number,
    readonly label: string,
  ) {}

  async before(): Promise<void> {
    await this.db.setThreads(this.threads)
  }

  async run(q: SuiteQuestion): Promise<void> {
    this.result = await this.db.conn.run(q.sql)
  }

  /**
   * Kinds, order sums and the sample from the held answer; counts and sums by SQL over the same
   * question (reading every value of a 10M-row answer through the binding takes too long).
   */
  async digest(q: SuiteQuestion): Promise<SuiteDigest> {
    const result = this.result
    if (!result) throw new Error('no answer')
    const names = result.columnNames()
    const types = result.columnTypes().map((t) => t.toString())
    const parts = ['count(*)::DOUBLE']
    names.forEach((name, i) => {
      const c = `q.${quote(name)}`
      if (types[i] === 'VARCHAR') parts.push(`count(NULLIF(${c}, ''))::DOUBLE`, `coalesce(sum(length(${c})), 0)::DOUBLE`)
      else parts.push(`count(${c})::DOUBLE`, `coalesce(sum(${c}), 0)::DOUBLE`)
    })
    const sums = (await this.db.conn.runAndReadAll(`SELECT ${parts.join(', ')} FROM (${q.sql}) AS q`)).getRows()[0].map(Number)
    if (sums[0] !== result.rowCount) throw new Error(`held ${result.rowCount} rows, the digest query counted ${sums[0]}`)
    const ordered = q.orderKeys.map((k) => {
      return orderedSum(columnValues(result, orderKeyIndex(names, k)))
    })
    return {
      rows: result.rowCount,
      columns: names.map((name, i) => ({ name: name.toLowerCase(), nonNull: sums[1 + 2 * i], sum: sums[2 + 2 * i] })),
      ordered,
      kinds: types.map(kindOf),
      sample: sampleRows(result),
    }
  }

  async release(): Promise<void> {
    this.result = null
  }
}
