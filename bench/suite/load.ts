/**
 * Generates the suite's tables and loads them into both systems: for tabula as the gateway hands
 * tables to the workers (every column in a SharedArrayBuffer, text as dictionary codes; see
 * bench/data.ts toTableInput), and into one in-memory DuckDB with the same values (N/A = NULL).
 * The generated arrays die when this returns, so they slow no garbage collection in timed runs.
 */
import type { TableInput } from '../../shared/protocol.js'
import { toTableInput, type BenchTable } from '../data.js'
import { DuckDb, type loadDuckDb } from '../duck.js'
import { makeSuiteData } from './schema.js'

type DuckApi = Extract<Awaited<ReturnType<typeof loadDuckDb>>, { api: unknown }>['api']

export interface LoadedSuite {
  /** tabula's tables by path. */
  readonly tables: ReadonlyMap<string, TableInput>
  readonly db: DuckDb
}

/**
 * @param keep given the generated tables before they die, for what needs their plain values
 *   (the HTTP runs write them as stored tables)
 */
export async function loadSuite(
  rows: number,
  seed: number,
  api: DuckApi,
  step: (what: string) => void = () => undefined,
  keep: (tables: readonly BenchTable[]) => Promise<void> = async () => undefined,
): Promise<LoadedSuite> {
  const data = makeSuiteData(rows, seed)
  step('generated')
  const all = Object.values(data)
  await keep(all)
  const tables = new Map(all.map((t) => [t.path, toTableInput(t)]))
  step('loaded into SharedArrayBuffers')
  const db = await DuckDb.open(api)
  for (const t of all) await db.load(t)
  step('loaded into DuckDB')
  return { tables, db }
}
