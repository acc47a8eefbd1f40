/**
 * The shape shared by `api/sql` and `api/run`: a query parameter (`sql` or `xml`) that is run,
 * whose recipe the session keeps, and whose result the index widget (`!cols`, `!rows`, `!data`,
 * `!head`) then reads without running the query again on this gateway. `!stop` and `!status`
 * act on the query running there.
 */
import type { Context } from 'koa'
import { AppError } from '../../shared/errors.js'
import type { ResultSet } from '../../shared/protocol.js'
import type { Principal } from '../catalog/principal.js'
import type { Deps } from '../deps.js'
import { renderResult, type Rendered } from '../format/index.js'
import type { ParsedPath } from '../path.js'
import { requestParams, stringParam, type Params } from '../params.js'
import { send } from '../respond.js'
import { authState } from '../session.js'
import type { ProgressCell } from '../stop/index.js'
import { answerStatus } from './status.js'
import { answerStop, stoppable } from './stop.js'
import { keepInStore, keptResult } from '../queries/kept.js'
import { recipeKey } from '../queries/result-cache.js'
import { READ_METHODS, serveReadMethod, type AppKind } from './widget.js'

/** Where a query's recipe is kept between requests: the session, or an instance. */
export interface Keeper {
  /** For messages: "this session", "instance 7". */
  readonly owner: string
  /** The path segment after api/ that reaches the kept result: `sql`, `run`, or a tag. */
  readonly path: string
  /** The name `!stop` and `!status` use for the query running here. */
  readonly stopKey: string
  get(): Promise<string | null>
  set(recipe: string): Promise<void>
}

export type KeeperOf = (ctx: Context, deps: Deps, app: AppKind) => Promise<Keeper>

/** The session keeps the last recipe of each built-in endpoint. */
export const sessionKeeper: KeeperOf = async (ctx, deps, app) => {
  const { session } = authState(ctx)
  return { owner: 'this session', path: app, stopKey: `sess:${session.sid}:${app}`, get: () => deps.sessions.getData(session.sid, app), set: (v) => deps.sessions.setData(session.sid, app, v) }
}

export interface QueryEndpoint<R> {
  readonly app: AppKind
  /** The parameter holding the query text. */
  readonly param: 'sql' | 'xml'
  readonly prepare: (deps: Deps, user: Principal, text: string) => Promise<R>
  /** Runs the recipe; `progress` is where the engine may report how far it got (`!status`). */
  readonly execute: (deps: Deps, recipe: R, signal: AbortSignal, progress?: ProgressCell) => Promise<ResultSet>
  /** Work after a successful run (savetable). */
  readonly after?: (deps: Deps, user: Principal, result: ResultSet, params: Params) => Promise<void>
  /** The HTML page shown when a browser opens the endpoint without a query. */
  readonly form: (route: ParsedPath) => Rendered
}

function dataLinks(route: ParsedPath, path: string): { label: string; href: string }[] {
  return ['text', 'json', 'json.rows', 'json.keyed'].map((f) => ({ label: f, href: `/${route.version}/api/${path}/!data:${f}` }))
}

export function queryHandler<R>(deps: Deps, ep: QueryEndpoint<R>, keeperOf: KeeperOf = sessionKeeper) {
  return async function runQuery(ctx: Context): Promise<void> {
    const route = ctx.state.route as ParsedPath
    const { user } = authState(ctx)
    const params = requestParams(ctx)
    const text = stringParam(params, ep.param)
    if (text === undefined || text.trim() === '') {
      if (route.format === 'html' && text === undefined) return send(ctx, ep.form(route))
      throw new AppError('MISSING_PARAMETER', `The parameter "${ep.param}" is missing or empty; send the query as a form field, JSON member or query-string value.`, { parameter: ep.param })
    }
    const keeper = await keeperOf(ctx, deps, ep.app)
    const recipe = await ep.prepare(deps, user, text)
    const result = await stoppable(ctx, deps, keeper.stopKey, (signal, progress) => ep.execute(deps, recipe, signal, progress))
    await keeper.set(JSON.stringify(recipe))
    keepInStore(deps, recipeKey(recipe), result)
    if (ep.after) await ep.after(deps, user, result, params)
    send(ctx, renderResult(result, route.format, { page: { title: ep.app, links: dataLinks(route, keeper.path) } }))
  }
}

export function queryMethodHandler<R>(deps: Deps, ep: QueryEndpoint<R>, keeperOf: KeeperOf = sessionKeeper) {
  return async function queryMethod(ctx: Context): Promise<void> {
    const route = ctx.state.route as ParsedPath
    const method = String(ctx.params.method)
    const keeper = await keeperOf(ctx, deps, ep.app)
    if (method === 'stop') return answerStop(ctx, deps, keeper.stopKey)
    if (method === 'status') return answerStatus(ctx, deps, keeper.stopKey)
    if (!(READ_METHODS as readonly string[]).includes(method)) {
      throw new AppError('NOT_FOUND', `Unknown index-widget method "!${method}" for api/${ep.app}; use !${[...READ_METHODS, 'stop', 'status'].join(', !')}.`, { method })
    }
    const raw = await keeper.get()
    if (raw === null) throw new AppError('NO_RESULT', `There is no ${ep.app} result in ${keeper.owner} yet; run a query first.`)
    const recipe = JSON.parse(raw) as R
    const kept = await keptResult(deps, recipeKey(recipe), () => stoppable(ctx, deps, keeper.stopKey, (signal, progress) => ep.execute(deps, recipe, signal, progress)))
    await serveReadMethod(ctx, route, method, kept, ep.app)
  }
}
