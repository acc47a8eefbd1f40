/**
 * Dynamic instances: `api/new` with a query holding a `<dynamic>` element. Its variables live in
 * the Store with the instance; a request sets the ones it names, fires the `<do>` triggers (the
 * action ones through dynamic-actions.ts), and answers the widget named `index` (or, without one,
 * the widget status table and the changes). `api/{tag}/@` answers the status table, `api/{tag}/.w`
 * the widget `w`, and with an `index` widget and a declared `path` any other trailing segment sets
 * `path` (reference §1.1).
 */
import type { Context } from 'koa'
import { AppError } from '../../shared/errors.js'
import type { ResultSet } from '../../shared/protocol.js'
import {
  applyRequest,
  changedWidgets,
  findWidget,
  initialVars,
  statusTable,
  widgetQuery,
  widgetText,
  withInstanceId,
  type ActionReport,
  type DynamicApp,
  type RequestOutcome,
} from '../../engine/index.js'
import type { Principal } from '../catalog/principal.js'
import type { Deps } from '../deps.js'
import { renderResult, renderValue, renderWidgetStatus } from '../format/index.js'
import type { WidgetStatus } from '../format/widget-status.js'
import type { InstanceRecord } from '../instances/records.js'
import { requestParams, type Params } from '../http/params.js'
import { prepareRun, type RunRecipe } from '../query/run.js'
import { runRecipe } from '../query/service.js'
import { readableOf } from '../query/results/readable-result.js'
import { formatLinks, send } from '../http/respond.js'
import { authState } from '../auth/require-session.js'
import { clientGoneSignal, runForRequest } from './abort.js'
import { READ_METHODS, serveReadMethod } from './widget.js'
import { holdReadSlot } from './read-slot.js'
import { answerMethods, CONTROL_ONLY_METHODS, hasResult, widgetMethods } from './methods.js'
import { actionRunner } from './dynamic-actions.js'
import { routeOf } from '../http/path.js'

const recipeField = (widget: string) => `recipe:${widget}`
/** The refusals of the instance's action dos, by do name, as the last run of each left them. */
const ACTION_ERRORS = 'action-errors'

type ActionErrors = Record<string, { action: string; code: string; msg: string }>

/** Parameters that set variables: everything but the query text and system (`…_`) names. */
function incoming(params: Params): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(params)) if (k !== 'xml' && !k.endsWith('_')) out[k] = v
  return out
}

function runner(deps: Deps, user: Principal, signal: AbortSignal) {
  return async (xml: string, vars: Readonly<Record<string, string>>): Promise<ResultSet> =>
    runRecipe(deps, await prepareRun(deps, user, xml, vars), { signals: [signal], user: user.uid })
}

/** The instance's dynamic app, parsed once per gateway on a compiler thread (cache/compiled-queries.ts). */
export async function appOf(deps: Pick<Deps, 'caches'>, inst: InstanceRecord): Promise<DynamicApp> {
  const app = await deps.caches.queries.dynamicApp(inst.xml)
  if (!app) throw new AppError('INTERNAL', `Instance ${inst.tag} has no dynamic element.`)
  return app
}

/** What one request to an instance runs its queries and actions with. */
function requestRunners(ctx: Context, deps: Deps, inst: InstanceRecord, app: DynamicApp) {
  const runQuery = runner(deps, authState(ctx).user, clientGoneSignal(ctx))
  return { runQuery, runAction: actionRunner(ctx, deps, inst, app, runQuery) }
}

/** Stores the variables a request left, and the refusals of the actions it ran (a success clears one). */
async function keepOutcome(deps: Deps, tag: number, outcome: RequestOutcome): Promise<void> {
  await deps.instances.setVars(tag, outcome.vars)
  if (outcome.actions.length === 0) return
  const errors = await actionErrors(deps, tag)
  for (const report of outcome.actions) setActionError(errors, report)
  await deps.instances.setState(tag, ACTION_ERRORS, JSON.stringify(errors))
}

function setActionError(errors: ActionErrors, { name, action, result }: ActionReport): void {
  if (result.ok) delete errors[name]
  else errors[name] = { action, code: result.code, msg: result.message }
}

async function actionErrors(deps: Deps, tag: number): Promise<ActionErrors> {
  const raw = await deps.instances.state(tag, ACTION_ERRORS)
  return raw === null ? {} : (JSON.parse(raw) as ActionErrors)
}

/**
 * The widget status table and the request's changes; an app with action dos adds `errors`, the
 * refusals of its actions by do name ({} when the last run of each succeeded).
 */
export async function dynamicStatus(
  deps: Deps,
  inst: InstanceRecord,
  app: DynamicApp,
  changes: Record<string, string>,
): Promise<{ widgets: WidgetStatus; changes: Record<string, string>; errors?: ActionErrors }> {
  const widgets = statusTable(app, changedWidgets(app, Object.keys(changes)))
  if (!app.dos.some((d) => d.kind === 'action')) return { widgets, changes }
  return { widgets, changes, errors: await actionErrors(deps, inst.tag) }
}

/** Creates a dynamic instance: stores the query with instid_, then runs the init triggers. */
export async function createDynamic(ctx: Context, deps: Deps, xml: string, app: DynamicApp): Promise<number> {
  const { session, user } = authState(ctx)
  const record = await deps.instances.create(session.sid, user.uid, 'dynamic', (tag) => withInstanceId(xml, tag))
  const start = initialVars(app, record.tag)
  const outcome = await applyRequest(app, start, incoming(requestParams(ctx)), { init: true, ...requestRunners(ctx, deps, record, app), count: record.tag })
  await keepOutcome(deps, record.tag, outcome)
  return record.tag
}

/** Runs a widget's query with the variables and keeps its recipe for the widget's methods. */
async function widgetResult(deps: Deps, ctx: Context, inst: InstanceRecord, app: DynamicApp, name: string, vars: Record<string, string>): Promise<ResultSet> {
  const query = widgetQuery(app, name)
  if (query === null) throw new AppError('NOT_FOUND', `Instance ${inst.tag} has no widget "${name}".`, { widget: name })
  if (query.trim() === '') throw new AppError('NO_RESULT', `The widget "${name}" has no query.`, { widget: name })
  const recipe = await prepareRun(deps, authState(ctx).user, query, vars)
  await deps.instances.setState(inst.tag, recipeField(name), JSON.stringify(recipe))
  const result = await runForRequest(ctx, deps, `inst:${inst.tag}`, (control) => runRecipe(deps, recipe, control))
  // At most once per half TTL, as for a session's query: a widget asked again and again is
  // answered from the memo, and its copy in the Store is already there.
  deps.results.keep(deps.results.key(recipe), result)
  return result
}

/**
 * What a request to a dynamic instance addresses (reference §1.1): its own answer (the `index`
 * widget, or without one the widget status table), a named widget, the status table explicitly
 * (`api/{tag}/@`), or the `index` widget after the trailing segment was put into `path`.
 */
type DynamicTarget =
  | { readonly kind: 'instance' }
  | { readonly kind: 'widget'; readonly name: string }
  | { readonly kind: 'status' }
  | { readonly kind: 'path'; readonly value: string }

/** The variable a trailing path segment sets (`api/{tag}/{y}`, as `api/ls/pub.demo` works). */
const PATH_VAR = 'path'

/**
 * What `api/{tag}/{segment}` addresses: `@` is the status table and `.w` the widget `w`. Any other
 * segment sets `path` when the query has an `index` widget and declares `path` (§1.1: there a
 * bare segment is a value, and widgets are reached with the dot); otherwise it names a widget.
 */
function segmentTarget(app: DynamicApp, segment: string | null): DynamicTarget {
  if (segment === null) return { kind: 'instance' }
  if (segment === '@') return { kind: 'status' }
  if (segment.startsWith('.')) return { kind: 'widget', name: segment.slice(1) }
  if (app.hasIndex && Object.hasOwn(app.vars, PATH_VAR)) return { kind: 'path', value: segment }
  return { kind: 'widget', name: segment }
}

function noSuchWidget(inst: InstanceRecord, app: DynamicApp, name: string): AppError {
  const known = app.widgets.map((w) => w.name)
  const hint =
    app.hasIndex && !Object.hasOwn(app.vars, PATH_VAR)
      ? ` A trailing segment sets the variable ${PATH_VAR} (and answers the index widget) only when <dynamic> declares ${PATH_VAR}.`
      : ''
  return new AppError(
    'NOT_FOUND',
    `Instance ${inst.tag} has no widget "${name}"; its widgets: ${known.length > 0 ? known.join(', ') : 'none'} (api/${inst.tag}/@ answers the widget status table).${hint}`,
    { widget: name },
  )
}

/** `api/{tag}` (segment null) and `api/{tag}/{segment}` of a dynamic instance: set, trigger, answer. */
export async function dynamicRequest(ctx: Context, deps: Deps, inst: InstanceRecord, segment: string | null): Promise<void> {
  const route = routeOf(ctx)
  const app = await appOf(deps, inst)
  const target = segmentTarget(app, segment)
  // An unknown widget changes nothing: refused before any variable is set.
  const widget = target.kind === 'widget' ? findWidget(app, target.name) : undefined
  if (target.kind === 'widget' && widget === undefined) throw noSuchWidget(inst, app, target.name)
  const sent = incoming(requestParams(ctx))
  // A widget bound to a variable (value_="@v") sets it from the `value` it is sent.
  const bound = widget?.binding
  if (bound && sent.value !== undefined && !('value' in app.vars)) {
    sent[bound] = sent.value
    delete sent.value
  }
  // The segment of the URL is the more specific of the two when `path` is also a parameter.
  if (target.kind === 'path') sent[PATH_VAR] = target.value
  // Changing variables (and running triggers) is serialised per instance; a pure read is not.
  const update = async () => {
    const current = await deps.instances.vars(inst.tag)
    const outcome = await applyRequest(app, current, sent, { init: false, ...requestRunners(ctx, deps, inst, app), count: inst.tag })
    await keepOutcome(deps, inst.tag, outcome)
    return outcome
  }
  const outcome = Object.keys(sent).length > 0 ? await deps.instances.exclusive(inst.tag, update) : await update()
  const name = widget?.name ?? (target.kind !== 'status' && app.hasIndex ? 'index' : null)
  const page = { title: `instance ${inst.tag}`, links: formatLinks(ctx) }
  if (name === null) {
    const status = await dynamicStatus(deps, inst, app, outcome.changes)
    return send(ctx, renderWidgetStatus(status.widgets, status.changes, route.format, page, status.errors))
  }
  const def = findWidget(app, name)
  if (!def) throw noSuchWidget(inst, app, name)
  if (def.class === 'text') return send(ctx, renderValue(widgetText(app, name, outcome.vars), route.format, page))
  send(ctx, renderResult(await widgetResult(deps, ctx, inst, app, name, outcome.vars), route.format, { page }))
}

/**
 * `api/{tag}/!m` and `api/{tag}/{widget}/!m`: the widget's kept result (computed if none), or
 * with `!methods` the list of its methods.
 */
export async function dynamicMethod(ctx: Context, deps: Deps, inst: InstanceRecord, widget: string | null, method: string): Promise<void> {
  const app = await appOf(deps, inst)
  // Without an index widget the instance itself answers only what runs no widget query.
  if (method === 'methods' && widget === null && !app.hasIndex) return answerMethods(ctx, CONTROL_ONLY_METHODS, `instance ${inst.tag} methods`)
  const name = widget ?? 'index'
  const def = findWidget(app, name)
  if (!def) throw noSuchWidget(inst, app, name)
  if (method === 'methods') return answerMethods(ctx, widgetMethods(def), `${name} methods`)
  if (!(READ_METHODS as readonly string[]).includes(method)) {
    throw new AppError('NOT_FOUND', `Unknown widget method "!${method}"; the widget "${name}" answers !${widgetMethods(def).join(', !')}.`, { method })
  }
  if (!hasResult(def)) {
    throw new AppError(
      'NO_RESULT',
      `The widget "${name}" (class ${def.class}) runs no query, so it has no !${method}; it answers !${widgetMethods(def).join(', !')}.`,
      { widget: name, method },
    )
  }
  const raw = await deps.instances.state(inst.tag, recipeField(name))
  const recipe = raw === null ? null : (JSON.parse(raw) as RunRecipe)
  const readable =
    recipe !== null
      ? await deps.results.readable(deps.results.key(recipe), () => runForRequest(ctx, deps, `inst:${inst.tag}`, (control) => runRecipe(deps, recipe, control)))
      : readableOf(await widgetResult(deps, ctx, inst, app, name, await deps.instances.vars(inst.tag)))
  await holdReadSlot(ctx, deps, method)
  await serveReadMethod(ctx, routeOf(ctx), method, readable, 'run')
}
