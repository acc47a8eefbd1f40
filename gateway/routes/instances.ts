/**
 * Instances: `api/new/{app}` (sql, run) and `api/new` with `xml` create one and answer its tag;
 * `api/{tag}` and `api/{tag}/!method` (also `api/{tag}!method`) talk to it. An sql or run
 * instance is its own endpoint (a query per request, the last result kept); an instance made from
 * a query without a dynamic element runs that query. Instances belong to the session that made
 * them.
 */
import type { Context } from 'koa'
import type { NewInstanceAnswer } from '../../shared/api-answers.js'
import { AppError } from '../../shared/errors.js'
import type { Deps } from '../deps.js'
import { renderValue } from '../format/index.js'
import { APPS, type InstanceRecord } from '../instances/records.js'
import { checkQuerySize, requestParams, stringParam } from '../http/params.js'
import { prepareRun, type RunRecipe } from '../query/run.js'
import { runRecipe } from '../query/service.js'
import type { ReadableResult } from '../query/results/readable-result.js'
import { send } from '../http/respond.js'
import { authState } from '../auth/require-session.js'
import { answerStatus } from './status.js'
import { answerStop } from './stop.js'
import { runForRequest } from './abort.js'
import { newFormPage } from './pages.js'
import { createDynamic, dynamicMethod, dynamicRequest } from './dynamic.js'
import { answerMethods, RESULT_METHODS } from './methods.js'
import { queryHandler, queryMethodHandler, type RecipeHome, type RecipeHomeOf, type QueryEndpoint } from './query-endpoint.js'
import { RUN_ENDPOINT } from './run.js'
import { SQL_ENDPOINT } from './sql.js'
import { READ_METHODS, serveReadMethod } from './widget.js'
import { holdReadSlot } from './read-slot.js'
import { routeOf } from '../http/path.js'

function sendTag(ctx: Context, tag: number): void {
  const route = routeOf(ctx)
  const href = `/${route.version}/api/${tag}`
  const answer: NewInstanceAnswer = { tag }
  send(ctx, renderValue(answer, route.format, { title: `instance ${tag}`, links: [{ label: `open instance ${tag}`, href }] }))
}

export function newAppHandler(deps: Deps) {
  return async function newApp(ctx: Context): Promise<void> {
    const app = String(ctx.params.app)
    if (!(APPS as readonly string[]).includes(app)) {
      throw new AppError('NOT_FOUND', `No app "${app}"; api/new/{app} knows ${APPS.join(' and ')} (or post xml to api/new).`, { app })
    }
    const { session, user } = authState(ctx)
    const record = await deps.instances.create(session.sid, user.uid, app as 'sql' | 'run', () => '')
    sendTag(ctx, record.tag)
  }
}

export function newQueryHandler(deps: Deps) {
  return async function newQuery(ctx: Context): Promise<void> {
    const route = routeOf(ctx)
    const xml = stringParam(requestParams(ctx), 'xml')
    if (xml === undefined || xml.trim() === '') {
      if (route.format === 'html' && xml === undefined) return send(ctx, newFormPage(route))
      throw new AppError('MISSING_PARAMETER', 'The parameter "xml" is missing: post the query of the new instance (or use api/new/sql or api/new/run).', {
        parameter: 'xml',
      })
    }
    if (ctx.method !== 'POST') throw new AppError('METHOD_NOT_ALLOWED', 'Creating an instance takes POST.', { allow: ['POST'] })
    checkQuerySize('xml', xml, deps.config.maxQueryBytes)
    const app = await deps.caches.queries.dynamicApp(xml)
    if (app) return sendTag(ctx, await createDynamic(ctx, deps, xml, app))
    const { session, user } = authState(ctx)
    // Checked now, so a broken query fails at creation rather than at first use.
    await prepareRun(deps, user, xml)
    const record = await deps.instances.create(session.sid, user.uid, 'query', () => xml)
    sendTag(ctx, record.tag)
  }
}

async function instanceOf(ctx: Context, deps: Deps): Promise<InstanceRecord> {
  const { session } = authState(ctx)
  return deps.instances.get(session.sid, String(ctx.params.tag))
}

/** An instance keeps its own last recipe. */
const instanceRecipeHome: RecipeHomeOf = async (ctx, deps) => {
  const inst = await instanceOf(ctx, deps)
  const home: RecipeHome = {
    owner: `instance ${inst.tag}`,
    path: String(inst.tag),
    stopKey: `inst:${inst.tag}`,
    get: () => deps.instances.state(inst.tag, 'recipe'),
    set: (v) => deps.instances.setState(inst.tag, 'recipe', v),
    servesLastResult: true,
  }
  return home
}

const ENDPOINTS: Record<'sql' | 'run', QueryEndpoint<never>> = {
  sql: SQL_ENDPOINT as unknown as QueryEndpoint<never>,
  run: RUN_ENDPOINT as unknown as QueryEndpoint<never>,
}

/** The result of a fixed-query instance: its kept recipe, or the query prepared now. */
async function queryInstanceResult(ctx: Context, deps: Deps, inst: InstanceRecord): Promise<ReadableResult> {
  const raw = await deps.instances.state(inst.tag, 'recipe')
  let recipe: RunRecipe
  if (raw !== null) recipe = JSON.parse(raw) as RunRecipe
  else {
    recipe = await prepareRun(deps, authState(ctx).user, inst.xml)
    await deps.instances.setState(inst.tag, 'recipe', JSON.stringify(recipe))
  }
  return deps.results.readable(deps.results.key(recipe), () => runForRequest(ctx, deps, `inst:${inst.tag}`, (control) => runRecipe(deps, recipe, control)))
}

export function instanceHandler(deps: Deps) {
  return async function instance(ctx: Context, next: () => Promise<unknown>): Promise<unknown> {
    if (!/^\d+$/.test(String(ctx.params.tag))) return next()
    const inst = await instanceOf(ctx, deps)
    if (inst.kind === 'sql' || inst.kind === 'run') return queryHandler(deps, ENDPOINTS[inst.kind], instanceRecipeHome)(ctx)
    if (inst.kind === 'dynamic') return dynamicRequest(ctx, deps, inst, null)
    const route = routeOf(ctx)
    const result = await queryInstanceResult(ctx, deps, inst)
    await holdReadSlot(ctx, deps, 'data')
    await serveReadMethod(ctx, route, 'data', result, 'run')
  }
}

export function instanceMethodHandler(deps: Deps) {
  return async function instanceMethod(ctx: Context, next: () => Promise<unknown>): Promise<unknown> {
    if (!/^\d+$/.test(String(ctx.params.tag))) return next()
    const inst = await instanceOf(ctx, deps)
    const method = String(ctx.params.method)
    // Every instance but a dynamic one has one widget, its result grid.
    if (method === 'methods' && inst.kind !== 'dynamic') return answerMethods(ctx, RESULT_METHODS, `instance ${inst.tag} methods`)
    if (inst.kind === 'sql' || inst.kind === 'run') return queryMethodHandler(deps, ENDPOINTS[inst.kind], instanceRecipeHome)(ctx)
    if (method === 'stop') return answerStop(ctx, deps, `inst:${inst.tag}`)
    if (method === 'status') return answerStatus(ctx, deps, `inst:${inst.tag}`)
    if (inst.kind === 'dynamic') return dynamicMethod(ctx, deps, inst, null, method)
    if (!(READ_METHODS as readonly string[]).includes(method)) {
      throw new AppError('NOT_FOUND', `Unknown index-widget method "!${method}"; use !${RESULT_METHODS.join(', !')}.`, { method })
    }
    const result = await queryInstanceResult(ctx, deps, inst)
    await holdReadSlot(ctx, deps, method)
    await serveReadMethod(ctx, routeOf(ctx), method, result, 'run')
  }
}

/**
 * `api/{tag}/{segment}` and `api/{tag}/{widget}/!method` of a dynamic instance: the segment is a
 * widget (`w` or `.w`), the status table (`@`) or a value of `path` (see segmentTarget).
 */
export function widgetHandler(deps: Deps) {
  return async function widget(ctx: Context, next: () => Promise<unknown>): Promise<unknown> {
    if (!/^\d+$/.test(String(ctx.params.tag))) return next()
    const inst = await instanceOf(ctx, deps)
    const segment = String(ctx.params.widget)
    if (inst.kind !== 'dynamic') throw new AppError('NOT_FOUND', `Instance ${inst.tag} has no widgets; its index widget answers at api/${inst.tag}/!data.`)
    if (ctx.params.method === undefined) return dynamicRequest(ctx, deps, inst, segment)
    // A method always applies to a widget (the client's API2Widget.invoke shape), with or without the dot.
    const name = segment.replace(/^\./, '')
    // One query runs per instance at a time, whichever widget started it: both name the instance.
    if (ctx.params.method === 'stop') return answerStop(ctx, deps, `inst:${inst.tag}`)
    if (ctx.params.method === 'status') return answerStatus(ctx, deps, `inst:${inst.tag}`)
    return dynamicMethod(ctx, deps, inst, name, String(ctx.params.method))
  }
}
