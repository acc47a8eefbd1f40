/**
 * Object URLs: `api/{path}` for a folder or a table of the catalog (`api/pub.demo`,
 * `api/pub.demo.retail.item`, `api/pub`), and `api/{path}/!method` under them. A folder answers
 * as `api/ls/{path}`; a table answers its data, and its index widget reads the stored version
 * directly. Anything else, including what the caller may not read, is one and the same 404.
 */
import type { Context } from 'koa'
import { AppError } from '../../shared/errors.js'
import type { TableRecord } from '../catalog/records.js'
import { visibleDir, visibleTable } from '../catalog/tables.js'
import type { Deps } from '../deps.js'
import { tableData } from '../tables/table-data.js'
import { sendRows } from '../http/respond.js'
import { requestParams } from '../http/params.js'
import { resultForValues, VALUES_PARAM, valuesMode } from '../format/index.js'
import { authState } from '../auth/require-session.js'
import { pageInfo, serveFolder } from './ls.js'
import { requestedRange, serveReadMethod } from './widget.js'
import { holdReadSlot } from './read-slot.js'
import { routeOf } from '../http/path.js'

/**
 * Names the service answers itself. A top-level folder may carry one of them; it is reached
 * through `api/ls/{name}`, never by its bare name, so a built-in cannot be shadowed.
 */
export const BUILTIN_NAMES: ReadonlySet<string> = new Set(['index', 'ls', 'run', 'sql', 'new', 'dbm'])

function noSuchObject(path: string): AppError {
  return new AppError('NOT_FOUND', `No such endpoint, folder or table "${path}"; see api:json for the endpoints and api/ls for folders.`, { path })
}

/** Capped like query results: a range may start anywhere, but may not be longer than the cap. */
function checkSize(deps: Deps, table: TableRecord, rows: number): void {
  const max = deps.config.maxResultRows
  if (rows <= max) return
  throw new AppError(
    'RESULT_TOO_LARGE',
    `The table "${table.path}" has ${table.rows} rows and at most ${max} can be sent at once (MAX_RESULT_ROWS); ` +
      `read it in parts with api/${table.path}/!data?range_=0&to_=${max} (range_ and to_ number rows from 0, to_ excluded).`,
    { table: table.path, rows: table.rows, maxRows: max },
  )
}

/** A range of the table as the caller asked for it (range_, to_), refused when it is too big. */
function cappedRange(ctx: Context, deps: Deps, table: TableRecord): { from: number; to: number } {
  const range = requestedRange(ctx, 'run', table.rows)
  checkSize(deps, table, range.to - range.from)
  return range
}

async function serveTable(ctx: Context, deps: Deps, table: TableRecord, method: string | undefined): Promise<void> {
  const route = routeOf(ctx)
  const kept = tableData(deps.tables, table)
  // The bare URL is `!data` with the path as its title: both take range_ and to_.
  const range = method === undefined || method === 'data' ? cappedRange(ctx, deps, table) : null
  await holdReadSlot(ctx, deps, method)
  if (method === undefined) {
    const values = valuesMode(requestParams(ctx)[VALUES_PARAM])
    const read = async (from: number, to: number) => resultForValues(await kept.rows(from, to), route.format, values)
    return sendRows(ctx, { cols: kept.cols, read }, range!, route.format, pageInfo(ctx, table.path))
  }
  return serveReadMethod(ctx, route, method, kept, 'run')
}

/**
 * `api/{path}` and `api/{path}/!method` (the route's `tag` param holds the path; digit-only tags
 * are instances and never come here).
 */
export function objectHandler(deps: Deps) {
  return async function object(ctx: Context): Promise<void> {
    const path = String(ctx.params.tag)
    const method = ctx.params.method as string | undefined
    if (BUILTIN_NAMES.has(path)) throw noSuchObject(path)
    const { user } = authState(ctx)
    const [dir, table] = await Promise.all([visibleDir(deps.store, user, path), visibleTable(deps.store, user, path)])
    if (dir) return serveFolder(ctx, deps, path, method)
    if (table) return serveTable(ctx, deps, table, method)
    throw noSuchObject(path)
  }
}
