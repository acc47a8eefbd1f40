/**
 * Our engine, in-process on one thread, doing what a worker does for api/run plus the gateway's
 * parse and check: parse → check → interpret over the SharedArrayBuffer columns → ResultSet (the
 * one result shape every renderer reads; numeric columns stay typed arrays, text becomes strings).
 */
import type { ResultSet, TableInput } from '../shared/protocol.js'
import type { ColumnSpec } from '../shared/table.js'
import { parseQuery, tableRefs } from '../engine/parse/index.js'
import { checkQuery } from '../engine/check/index.js'
import { runOps } from '../engine/interpret/index.js'
import { toResultSet } from '../engine/parallel/wire.js'
import { digestResult, type Digest } from './digest.js'
import type { BenchQuery } from './queries.js'
import type { Target } from './target.js'

/** Runs one macro query to a ResultSet, as the gateway and a worker together would. */
export function runMacro(xml: string, tables: ReadonlyMap<string, TableInput>): ResultSet {
  const ops = parseQuery(xml, {})
  const schemas = new Map<string, readonly ColumnSpec[]>()
  for (const path of tableRefs(ops)) {
    const t = tables.get(path)
    if (!t) throw new Error(`bench table ${path} missing`)
    schemas.set(
      path,
      t.columns.map((c) => c.spec),
    )
  }
  const checked = checkQuery(ops, schemas)
  return toResultSet(runOps(checked.ops, tables), Number.MAX_SAFE_INTEGER)
}

export class OursTarget implements Target {
  readonly label = 'ours'
  private result: ResultSet | null = null
  private readonly tables: ReadonlyMap<string, TableInput>

  constructor(tables: readonly TableInput[]) {
    this.tables = new Map(tables.map((t) => [t.path, t]))
  }

  async run(q: BenchQuery): Promise<void> {
    this.result = runMacro(q.xml, this.tables)
  }

  async digest(q: BenchQuery): Promise<Digest> {
    if (!this.result) throw new Error('no result')
    return digestResult(this.result, q.orderKeys)
  }

  async release(): Promise<void> {
    this.result = null
  }
}
