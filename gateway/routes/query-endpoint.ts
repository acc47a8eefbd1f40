/**
 * The shape shared by `api/sql` and `api/run`: a query parameter (`sql` or `xml`) that is run,
 * whose recipe the session holds, and whose result the index widget (`!cols`, `!rows`, `!data`,
 * `!head`) then reads without running the query again on this gateway. `!stop` and `!status`
 * act on the query running there.
 */
import type { Context } from 'koa'
import { AppError } from '../../shared/errors.js'
import type { ResultSet } from '../../shared/protocol.js'
import type { Principal } from '../catalog/principal.js'
import type { Deps } from '../deps.js'
import { renderResult, renderTruncatable, resultForValues, VALUES_PARAM, valuesMode, type Rendered } from '../format/index.js'
import { type ParsedPath, routeOf } from '../http/path.js'
import { checkQuerySize, flagParam, requestParams, stringParam, timeoutParam, type Params } from '../http/params.js'
import { send } from '../http/respond.js'
import { authState } from '../auth/require-session.js'
import { answerStatus } from './status.js'
import { answerStop } from './stop.js'
import { runForRequest } from './abort.js'
import { answerKey } from '../query/results/rendered-answers.js'
import { truncationOf, withTruncateHint, type RecipeOptions } from '../query/limits.js'
import { runRecipe, type Recipe } from '../query/service.js'
import { READ_METHODS, serveReadMethod, type AppKind } from './widget.js'
import { savedOnlyAnswer, type SavedTable } from './saved-answer.js'
import { holdReadSlot } from './read-slot.js'

/**
 * Where a query's recipe is held between requests (its home): the session, or an instance. Not a
 * slot: "slot" is kept for the session's and user's running-query slots (gateway/query/running/session-slots.ts).
 */
export interface RecipeHome {
  /** For messages: "this session", "instance 7". */
  readonly owner: string
  /** The path segment after api/ that reaches the last result: `sql`, `run`, or a tag. */
  readonly path: string
  /** The name `!stop` and `!status` use for the query running here. */
  readonly stopKey: string
  get(): Promise<string | null>
  set(recipe: string): Promise<void>
  /**
   * A request without the query parameter reads the last result instead of failing (instances:
   * an instance is its own endpoint, and `api/{tag}:json` is how a client reads it back). The
   * session's api/sql and api/run still ask for the query.
   */
  readonly servesLastResult?: boolean
}

export type RecipeHomeOf = (ctx: Context, deps: Deps, app: AppKind) => Promise<RecipeHome>

/**
 * Names the result an answer comes from (the start of its recipe key), on query answers and on
 * the read methods of a kept result, so a reader paging through a result can tell when what its
 * home holds is no longer the result it started on (the workbench warns rather than mix rows).
 */
function setResultId(ctx: Context, key: string): void {
  ctx.set('X-Result-Id', key.slice(0, 16))
}

/** The session holds the last recipe of each built-in endpoint. */
export const sessionRecipeHome: RecipeHomeOf = async (ctx, deps, app) => {
  const { session } = authState(ctx)
  return {
    owner: 'this session',
    path: app,
    stopKey: `sess:${session.sid}:${app}`,
    get: () => deps.sessions.getData(session.sid, app),
    set: (v) => deps.sessions.setData(session.sid, app, v),
  }
}

export interface QueryEndpoint<R extends Recipe> {
  readonly app: AppKind
  /** The parameter holding the query text. */
  readonly param: 'sql' | 'xml'
  /** Parses and checks the query into the recipe to run and hold; `opts.truncate` is truncate_=1. */
  readonly prepare: (deps: Deps, user: Principal, text: string, opts: RecipeOptions) => Promise<R>
  /** Refuses parameters that do not go together, before anything runs. */
  readonly check?: (params: Params, opts: RecipeOptions) => void
  /** Work after a successful run (savetable); returns what it saved, if anything. */
  readonly after?: (deps: Deps, user: Principal, result: ResultSet, params: Params) => Promise<SavedTable | undefined>
  /** The HTML page shown when a browser opens the endpoint without a query. */
  readonly form: (route: ParsedPath) => Rendered
}

function dataLinks(route: ParsedPath, path: string): { label: string; href: string }[] {
  return ['text', 'json', 'json.rows', 'json.keyed'].map((f) => ({ label: f, href: `/${route.version}/api/${path}/!data:${f}` }))
}

export function queryHandler<R extends Recipe>(deps: Deps, ep: QueryEndpoint<R>, homeOf: RecipeHomeOf = sessionRecipeHome) {
  return async function runQuery(ctx: Context): Promise<void> {
    const route = routeOf(ctx)
    const { user } = authState(ctx)
    const params = requestParams(ctx)
    const text = stringParam(params, ep.param)
    if (text === undefined || text.trim() === '') {
      if (route.format === 'html' && text === undefined) return send(ctx, ep.form(route))
      if (text === undefined) {
        const home = await homeOf(ctx, deps, ep.app)
        const raw = home.servesLastResult ? await home.get() : null
        if (raw !== null) return answerFromRecipe(ctx, deps, ep, home, raw, 'data')
      }
      throw new AppError(
        'MISSING_PARAMETER',
        `The parameter "${ep.param}" is missing or empty; send the query as a form field, JSON member or query-string value.`,
        { parameter: ep.param },
      )
    }
    checkQuerySize(ep.param, text, deps.config.maxQueryBytes)
    const opts: RecipeOptions = { truncate: flagParam(params, 'truncate_') }
    // Read before the query runs, so a misspelt mode costs no query.
    const values = valuesMode(params[VALUES_PARAM])
    const timeout = timeoutParam(params, deps.config.queryTimeoutMs)
    ep.check?.(params, opts)
    const home = await homeOf(ctx, deps, ep.app)
    const recipe = await ep.prepare(deps, user, text, opts)
    const key = deps.results.key(recipe)
    // A result this gateway already holds runs nothing: no session slot to take, nothing for
    // `!stop` or `!status` to follow, so the Store round trips of both are skipped.
    const result =
      deps.results.memo.get(key) ??
      (await runForRequest(ctx, deps, home.stopKey, (control) => runRecipe(deps, recipe, control), timeout).catch((err: unknown) => {
        throw withTruncateHint(err)
      }))
    await home.set(JSON.stringify(recipe))
    deps.results.keep(key, result)
    const saved = ep.after ? await ep.after(deps, user, result, params) : undefined
    const truncation = truncationOf(result)
    // Every query answer says whether it was cut, whatever its format (false without truncate_=1).
    ctx.set('X-Truncated', String(truncation.truncated))
    setResultId(ctx, key)
    // An SQL answer says which engine computed it (api/sql: the columnar engine or sql.js).
    if (result.engine !== undefined) ctx.set('X-Tabula-Engine', result.engine)
    // A committed save is never reported as a failure (saved-answer.ts), nor when a streamed
    // rendering fails before its first chunk (a text answer too wide is found while measuring).
    const instead = saved === undefined ? undefined : (err: unknown) => savedOnlyAnswer(ctx, deps, saved, err)
    try {
      if (route.format === 'html') {
        const page = { title: ep.app, links: dataLinks(route, home.path) }
        return send(ctx, opts.truncate ? renderTruncatable(result, route.format, truncation, page) : renderResult(result, route.format, { page }), 200, instead)
      }
      // The answer is a function of the result (its key), the format, truncate_ and values_ alone.
      const shown = resultForValues(result, route.format, values)
      const render = (): Rendered => (opts.truncate ? renderTruncatable(shown, route.format, truncation) : renderResult(shown, route.format))
      send(ctx, deps.results.rendered.answer(answerKey(key, 'answer', route.format, opts.truncate === true, values), render), 200, instead)
    } catch (err) {
      if (instead === undefined) throw err
      send(ctx, instead(err))
    }
  }
}

export function queryMethodHandler<R extends Recipe>(deps: Deps, ep: QueryEndpoint<R>, homeOf: RecipeHomeOf = sessionRecipeHome) {
  return async function queryMethod(ctx: Context): Promise<void> {
    const method = String(ctx.params.method)
    const home = await homeOf(ctx, deps, ep.app)
    if (method === 'stop') return answerStop(ctx, deps, home.stopKey)
    if (method === 'status') return answerStatus(ctx, deps, home.stopKey)
    if (!(READ_METHODS as readonly string[]).includes(method)) {
      throw new AppError('NOT_FOUND', `Unknown index-widget method "!${method}" for api/${ep.app}; use !${[...READ_METHODS, 'stop', 'status'].join(', !')}.`, {
        method,
      })
    }
    const raw = await home.get()
    if (raw === null) throw new AppError('NO_RESULT', `There is no ${ep.app} result in ${home.owner} yet; run a query first.`)
    await answerFromRecipe(ctx, deps, ep, home, raw, method)
  }
}

/** Answers a read method (`!data`…) of the result of the recipe in its home, computing it again if no copy is left. */
async function answerFromRecipe<R extends Recipe>(
  ctx: Context,
  deps: Deps,
  ep: QueryEndpoint<R>,
  home: RecipeHome,
  raw: string,
  method: string,
): Promise<void> {
  const recipe = JSON.parse(raw) as R
  const key = deps.results.key(recipe)
  setResultId(ctx, key)
  const readable = await deps.results.readable(key, () => runForRequest(ctx, deps, home.stopKey, (control) => runRecipe(deps, recipe, control)))
  await holdReadSlot(ctx, deps, method)
  await serveReadMethod(ctx, routeOf(ctx), method, readable, ep.app, { answers: deps.results.rendered, resultKey: key })
}
