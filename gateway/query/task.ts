/**
 * The one builder of a RunTask, for api/run (run.ts) and the SQL that compiled to the engine
 * (sql.ts) alike: the checked operations, the tables' columns in shared memory, the row limit and
 * the progress cell. It used to be built twice, and the copies drifted: compiled SQL never got
 * windows, so it asked the table cache for a larger-than-cache table whole and was refused.
 * The windows are read while the query runs (windowed.ts), through the reader the query service
 * hands every run (windowReader, service.ts).
 */
import type { CheckedOps } from '../../engine/index.js'
import type { RunTask, TableInput } from '../../shared/protocol.js'
import type { QueryServices, RecipeServices } from './deps.js'
import type { WindowReader } from './run-control.js'
import type { ProgressCell } from './running/index.js'

/** A table as a task names it: the version its path resolved to, and the title its results show. */
export interface TaskTable {
  readonly path: string
  readonly version: string
  readonly title: string
}

export interface TaskOptions {
  /** truncate_=1: a result over a limit is cut to its first rows instead of refused. */
  readonly truncate?: boolean | undefined
  /** Where the worker reports how far it got (`!status`). */
  readonly progress?: ProgressCell | undefined
}

/**
 * The task that runs `ops` on a worker over `tables`. A table larger than TABLE_CACHE_MB goes as
 * an empty window, whose rows each part of the query reads on its own (windowed.ts).
 */
export async function buildRunTask(deps: RecipeServices, ops: CheckedOps, tables: readonly TaskTable[], options: TaskOptions = {}): Promise<RunTask> {
  return {
    kind: 'run',
    ops,
    tables: await Promise.all(tables.map(async (t) => ((await deps.tables.fits(t.version)) ? wholeTable(deps, t) : emptyWindow(deps, t)))),
    maxRows: deps.config.maxResultRows,
    ...(options.truncate ? { truncate: true } : {}),
    ...(options.progress ? { progress: options.progress.buffer } : {}),
  }
}

/** How the query service reads the windows of a task's larger-than-cache tables (RunControl.windows). */
export const windowReader = (deps: QueryServices): WindowReader => ({
  pool: deps.tables.windows,
  read: (t, from, to, buffers) => deps.tables.window(t.version, t.path, t.title, from, to, buffers),
})

/** A table version's columns in shared memory, loaded whole through the table cache. */
async function wholeTable(deps: RecipeServices, t: TaskTable): Promise<TableInput> {
  const meta = await deps.tables.meta(t.version)
  const columns = await Promise.all(
    meta.columns.map(async (spec, i) => {
      const loaded = await deps.tables.column(t.version, i, t.path)
      return { spec, buffer: loaded.buffer, ...(loaded.sharedDict ? { dict: loaded.sharedDict } : {}) }
    }),
  )
  return { path: t.path, version: t.version, rows: meta.rows, title: t.title, columns }
}

/**
 * A table larger than TABLE_CACHE_MB as a task carries it: its rows and columns (text with its
 * dictionary) but no values (TableInput.firstRow). Each part of the query gets its own window of
 * rows in its place (windowed.ts); a merge task reads the columns' shape alone.
 */
function emptyWindow(deps: RecipeServices, t: TaskTable): Promise<TableInput> {
  return deps.tables.window(t.version, t.path, t.title, 0, 0)
}
