/**
 * `api/ls` (the top-level folders) and `api/ls/{path}` (one folder): the entries the caller may
 * read, one row each, with the index widget's `!cols`, `!rows`, `!data`, `!head` under them.
 * A folder URL (`api/pub.demo`) answers through here too.
 */
import type { Context } from 'koa'
import type { ResultColumn, ResultSet } from '../../shared/protocol.js'
import { columnMeta, NA_INT, type ColumnSpec, type ColumnType } from '../../shared/table.js'
import { LISTING_COLUMNS, listFolder, listingRow, type ListingRow } from '../catalog/listing.js'
import type { Deps } from '../deps.js'
import { renderResult, type PageInfo } from '../format/index.js'
import { readableOf } from '../query/results/readable-result.js'
import { formatLinks, send } from '../http/respond.js'
import { authState } from '../auth/require-session.js'
import { serveReadMethod } from './widget.js'
import { routeOf } from '../http/path.js'

/** How each listing column is typed and shown; a new ListingRow field must be added here. */
const LISTING_SPECS = {
  path: { type: 'text', label: 'Path', width: 40 },
  name: { type: 'text', label: 'Name' },
  title: { type: 'text', label: 'Title', width: 40 },
  type: { type: 'text', label: 'Type', width: 5 },
  owner: { type: 'text', label: 'Owner' },
  sdesc: { type: 'text', label: 'Description', width: 40 },
  rows: { type: 'int', label: 'Rows', desc: 'N/A for folders' },
  cols: { type: 'int', label: 'Columns', desc: 'N/A for folders' },
  updated: { type: 'text', label: 'Updated', width: 24 },
  id: { type: 'int', label: 'Id' },
} as const satisfies Record<keyof ListingRow, Omit<ColumnSpec, 'name'> & { type: ColumnType }>

function listingColumn(rows: readonly ListingRow[], key: keyof ListingRow): ResultColumn {
  if (LISTING_SPECS[key].type === 'int') {
    return { kind: 'int', data: Int32Array.from(rows, (r) => (r[key] as number | null) ?? NA_INT) }
  }
  return { kind: 'text', data: rows.map((r) => String(r[key])) }
}

/** Listing rows as a result set with the LISTING_COLUMNS; folders have N/A rows and cols. */
export function listingResult(rows: readonly ListingRow[]): ResultSet {
  return {
    cols: LISTING_COLUMNS.map((key) => columnMeta({ name: key, ...LISTING_SPECS[key] })),
    columns: LISTING_COLUMNS.map((key) => listingColumn(rows, key)),
    rowCount: rows.length,
  }
}

/**
 * Title and format links of an HTML page. The links start from the URL as the caller wrote it
 * (version included): ctx.path has been rewritten to the canonical route by then.
 */
export function pageInfo(ctx: Context, title: string): PageInfo {
  return { title, links: formatLinks(ctx, ctx.originalUrl.split('?')[0]) }
}

/**
 * Answers for the folder at `path` ('' = the root): its listing, or index-widget `method` over
 * it. A folder the caller may not read is reported like a missing one (listFolder's error).
 */
export async function serveFolder(ctx: Context, deps: Deps, path: string, method: string | undefined): Promise<void> {
  const route = routeOf(ctx)
  const objects = await listFolder(deps.store, authState(ctx).user, path)
  const listing = listingResult(objects.map(listingRow))
  if (method !== undefined) return serveReadMethod(ctx, route, method, readableOf(listing), 'run')
  const title = path === '' ? 'Top-level folders' : path
  send(ctx, renderResult(listing, route.format, { page: pageInfo(ctx, title) }))
}

/** `api/ls`, `api/ls/{path}` and their `!method` sub-paths. */
export function lsHandler(deps: Deps) {
  return function ls(ctx: Context): Promise<void> {
    const method = ctx.params.method as string | undefined
    return serveFolder(ctx, deps, (ctx.params.path as string | undefined) ?? '', method)
  }
}
