/** `api` itself: the list of endpoints this service offers (1010data's `default.api` folder). */
import type { Context } from 'koa'
import type { ResultSet } from '../../shared/protocol.js'
import { columnMeta } from '../../shared/table.js'
import { renderResult } from '../format/index.js'
import type { ParsedPath } from '../path.js'
import { formatLinks, send } from '../respond.js'

export const ENDPOINTS: readonly { readonly name: string; readonly title: string }[] = [
  { name: '!login', title: 'Log in: post uid and pw, get uid, sid and epw' },
  { name: '!logout', title: 'Log out: end the session of the cookie' },
  { name: 'run', title: 'Run one macro-language query; savetable saves its result' },
  { name: 'sql', title: 'Run one read-only SQL query over the tables you may read' },
]

export function endpointsHandler() {
  return function listEndpoints(ctx: Context): void {
    const route = ctx.state.route as ParsedPath
    const table: ResultSet = {
      cols: [columnMeta({ name: 'name', type: 'text' }), columnMeta({ name: 'title', type: 'text', width: 60 })],
      columns: [
        { kind: 'text', data: ENDPOINTS.map((e) => e.name) },
        { kind: 'text', data: ENDPOINTS.map((e) => e.title) },
      ],
      rowCount: ENDPOINTS.length,
    }
    send(ctx, renderResult(table, route.format, { page: { title: 'tabula API', links: formatLinks(ctx) } }))
  }
}
