/**
 * `api` itself (also `api/index`, as 1010data's index endpoint is the QuickApp `default.api.index`):
 * the list of endpoints this service offers, a table its index widget reads like any result
 * (`api/!cols`, `!rows`, `!data`, `!head`, `!methods`).
 */
import type { Context } from 'koa'
import { AppError } from '../../shared/errors.js'
import type { ResultSet } from '../../shared/protocol.js'
import { columnMeta } from '../../shared/table.js'
import { renderResult } from '../format/index.js'
import { readableOf } from '../query/results/readable-result.js'
import { send } from '../http/respond.js'
import { pageInfo } from './ls.js'
import { answerMethods } from './methods.js'
import { READ_METHODS, serveReadMethod } from './widget.js'
import { routeOf } from '../http/path.js'

/** Every endpoint of the service, in the order a newcomer needs them. */
export const ENDPOINTS: readonly { readonly name: string; readonly title: string }[] = [
  { name: '!login', title: 'Log in: post uid and pw, get uid, sid and epw' },
  { name: '!logout', title: 'Log out: end the session of the cookie' },
  { name: 'run', title: 'Run one macro-language query; savetable saves its result' },
  { name: 'sql', title: 'Run one read-only SQL query over the tables you may read' },
  { name: 'new', title: 'Create an instance from a query or a QuickApp posted as xml; answers its tag' },
  { name: 'new/{app}', title: 'Create an instance of a built-in app (sql or run); answers its tag' },
  { name: '{tag}', title: 'Talk to an instance: set its variables, read its widgets' },
  { name: 'dbm', title: 'Administer folders, tables, users, groups, companies and roles: post {"cmd": [name, {params}]}' },
  { name: 'ls', title: 'List a folder: ls for the top-level folders, ls/{path} for one folder' },
  { name: '{path}', title: 'A folder (its listing) or a table (its data) by dotted path, e.g. pub.demo.retail.item' },
]

function endpointTable(): ResultSet {
  return {
    cols: [columnMeta({ name: 'name', type: 'text' }), columnMeta({ name: 'title', type: 'text', width: 60 })],
    columns: [
      { kind: 'text', data: ENDPOINTS.map((e) => e.name) },
      { kind: 'text', data: ENDPOINTS.map((e) => e.title) },
    ],
    rowCount: ENDPOINTS.length,
  }
}

/** The methods of the list's index widget: it runs no query, so there is nothing to stop. */
const ENDPOINT_METHODS: readonly string[] = [...READ_METHODS, 'methods']

export function endpointsHandler() {
  return function listEndpoints(ctx: Context): void {
    const route = routeOf(ctx)
    send(ctx, renderResult(endpointTable(), route.format, { page: pageInfo(ctx, 'tabula API') }))
  }
}

/** `api/!method` (= `api/index/!method`): the endpoint list read as a result. */
export function endpointsMethodHandler() {
  return async function endpointsMethod(ctx: Context): Promise<void> {
    const method = String(ctx.params.method)
    if (method === 'methods') return answerMethods(ctx, ENDPOINT_METHODS, 'api methods')
    if (!(READ_METHODS as readonly string[]).includes(method)) {
      throw new AppError('NOT_FOUND', `Unknown method "!${method}" of the endpoint list; use !${ENDPOINT_METHODS.join(', !')}.`, { method })
    }
    await serveReadMethod(ctx, routeOf(ctx), method, readableOf(endpointTable()), 'run')
  }
}
