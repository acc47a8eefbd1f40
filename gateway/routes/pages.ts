/**
 * The pages of the endpoints that take a query, for a browser that opens them without one
 * (SPEC §4.1: an editor box and a Submit button). The workbench (gateway/ui/page-views.ts)
 * answers such requests before they reach the endpoint, knowing who is logged in; an endpoint
 * that still gets one answers the same page, without the top navigation it cannot fill in.
 */
import type { Rendered } from '../format/index.js'
import type { ParsedPath } from '../http/path.js'
import { newPage } from '../ui/new-page.js'
import { queryPage, type QueryApp } from '../ui/query-page.js'

/** The endpoint path after api/ (`run`, `sql/new`, a tag): where the page posts and reads results. */
const endpointPath = (route: ParsedPath): string => route.segments.map(encodeURIComponent).join('/')

function editor(route: ParsedPath, app: QueryApp, title: string, text?: string): Rendered {
  return queryPage({ version: route.version, uid: null, app, path: endpointPath(route), title, text })
}

export const sqlFormPage = (route: ParsedPath, sql: string): Rendered => editor(route, 'sql', 'SQL query', sql === '' ? undefined : sql)

export const runFormPage = (route: ParsedPath): Rendered => editor(route, 'run', 'Macro query')

export const newFormPage = (route: ParsedPath): Rendered => newPage({ version: route.version, uid: null })
