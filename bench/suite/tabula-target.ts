/**
 * tabula as the service runs a query: parsed and checked (the gateway's thread), then run on the
 * worker pool through the gateway's runOnPool, split over the workers when the plan allows. The
 * answer is the ResultSet the gateway would render, text still as dictionary codes.
 */
import type { ResultSet, TableInput } from '../../shared/protocol.js'
import type { ColumnSpec } from '../../shared/table.js'
import { parseQuery, tableRefs } from '../../engine/parse/index.js'
import { checkQuery } from '../../engine/check/index.js'
import { digestOurs } from './digest-result.js'
import type { SuiteDigest } from './digest.js'
import type { SuiteQuestion } from './questions/index.js'
import type { EnginePool } from './run-on-pool.js'
import type { SuiteTarget } from './target.js'

export class TabulaTarget implements SuiteTarget {
  private result: ResultSet | null = null

  constructor(
    readonly label: string,
    private readonly pool: EnginePool,
    private readonly tables: ReadonlyMap<string, TableInput>,
  ) {}

  async run(q: SuiteQuestion): Promise<void> {
    const ops = parseQuery(q.xml, {})
    const schemas = new Map<string, readonly ColumnSpec[]>()
    for (const path of tableRefs(ops)) {
      const t = this.tables.get(path)
      if (!t) throw new Error(`suite table ${path} missing`)
      schemas.set(
        path,
        t.columns.map((c) => c.spec),
      )
    }
    const checked = checkQuery(ops, schemas)
    const tables = [...schemas.keys()].map((p) => this.tables.get(p)!)
    this.result = await this.pool.run({ kind: 'run', ops: checked.ops, tables, maxRows: this.pool.maxRows })
  }

  async digest(q: SuiteQuestion): Promise<SuiteDigest> {
    if (!this.result) throw new Error('no answer')
    return digestOurs(this.result, q.orderKeys)
  }

  async release(): Promise<void> {
    this.result = null
  }
}
