/** `api/sql` (and its alias `api/sql/new`) and the index-widget methods of its kept result. */
import type { Context } from 'koa'
import { AppError } from '../../shared/errors.js'
import { renderResult } from '../format/index.js'
import type { ParsedPath } from '../path.js'
import { requestParams, stringParam } from '../params.js'
import { prepareSql, runSqlRecipe, type SqlRecipe } from '../queries/sql.js'
import { send } from '../respond.js'
import { authState } from '../session.js'
import type { Deps } from '../deps.js'
import { clientGoneSignal } from './abort.js'
import { sqlFormPage } from './pages.js'
import { READ_METHODS, serveReadMethod } from './widget.js'

const SESSION_FIELD = 'sql'

async function keptRecipe(deps: Deps, sid: string): Promise<SqlRecipe | null> {
  const raw = await deps.sessions.getData(sid, SESSION_FIELD)
  return raw === null ? null : (JSON.parse(raw) as SqlRecipe)
}

function dataLinks(route: ParsedPath): { label: string; href: string }[] {
  const base = `/${route.version}/api/sql/!data`
  return ['text', 'json', 'json.rows', 'json.keyed'].map((f) => ({ label: f, href: `${base}:${f}` }))
}

export function sqlHandler(deps: Deps) {
  return async function runSql(ctx: Context): Promise<void> {
    const route = ctx.state.route as ParsedPath
    const { session, user } = authState(ctx)
    const sql = stringParam(requestParams(ctx), 'sql')
    if (sql === undefined || sql.trim() === '') {
      if (route.format === 'html' && sql === undefined) return send(ctx, sqlFormPage(route, ''))
      throw new AppError('MISSING_PARAMETER', 'The parameter "sql" is missing or empty; send the SQL query as a form field, JSON member or query-string value.', { parameter: 'sql' })
    }
    const recipe = await prepareSql(deps, user, sql)
    const result = await runSqlRecipe(deps, recipe, clientGoneSignal(ctx))
    await deps.sessions.setData(session.sid, SESSION_FIELD, JSON.stringify(recipe))
    send(ctx, renderResult(result, route.format, { page: { title: 'sql', links: dataLinks(route) } }))
  }
}

export function sqlMethodHandler(deps: Deps) {
  return async function sqlMethod(ctx: Context): Promise<void> {
    const route = ctx.state.route as ParsedPath
    const { session } = authState(ctx)
    const method = String(ctx.params.method)
    if (!(READ_METHODS as readonly string[]).includes(method)) {
      throw new AppError('NOT_FOUND', `Unknown index-widget method "!${method}" for api/sql; use !${READ_METHODS.join(', !')}.`, { method })
    }
    const recipe = await keptRecipe(deps, session.sid)
    if (!recipe) throw new AppError('NO_RESULT', 'There is no SQL result in this session yet; run a query with api/sql first.')
    const result = await runSqlRecipe(deps, recipe, clientGoneSignal(ctx))
    serveReadMethod(ctx, route, method, result, 'sql')
  }
}
