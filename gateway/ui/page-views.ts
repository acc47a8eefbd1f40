/**
 * Which requests are page views, and the workbench page each gets. A page view is an HTML request
 * (no format suffix) that asks for nothing to be done: the query editors and api/new without their
 * query, an instance or a folder without parameters. The endpoint itself would answer such a
 * request with a bare form or a full listing; the workbench page replaces that and loads data
 * through the JSON forms of the same endpoint. Every other request goes on to the endpoint, so a
 * posted form still gets the server-rendered HTML result.
 */
import type { Context, Next } from 'koa'
import { findWidget } from '../../engine/index.js'
import type { GatewayCaches } from '../cache/index.js'
import type { Store } from '../../shared/store/types.js'
import { listFolder, listingRow } from '../catalog/listing.js'
import { visibleDir } from '../catalog/tables.js'
import type { Rendered } from '../format/index.js'
import type { Instances } from '../instances/instances.js'
import type { InstanceRecord } from '../instances/records.js'
import { requestParams, type Params } from '../http/params.js'
import { type ParsedPath, parsedRouteOf } from '../http/path.js'
import { formatLinks, send } from '../http/respond.js'
import { BUILTIN_NAMES } from '../routes/objects.js'
import { authState, requireSession, type SessionServices } from '../auth/require-session.js'
import { adminPage, adminView, type AdminView } from './admin-pages.js'
import { folderPage } from './folder-page.js'
import { dynamicPage, fixedQueryPage, type IndexKind } from './instance-page.js'
import { newPage } from './new-page.js'
import { landingPage } from './landing-page.js'
import { linkedQueryText, runsOnOpen } from './query-link.js'
import { queryPage, type QueryApp } from './query-page.js'

export type PageView =
  | { readonly kind: 'landing' }
  | { readonly kind: 'query'; readonly app: QueryApp }
  | { readonly kind: 'new' }
  | { readonly kind: 'instance'; readonly tag: string }
  /** `known`: the path names a folder for sure (api/ls…); otherwise it may be a table or nothing. */
  | { readonly kind: 'folder'; readonly path: string; readonly known: boolean }
  /** The administration pages under api/dbm/ (users, groups, sharing, upload). */
  | { readonly kind: 'admin'; readonly view: AdminView }

/** The page a canonical path shows, or null when it is not a page (a method, dbm, api/index). */
export function pageView(segments: readonly string[]): PageView | null {
  const [first, second] = segments
  if (segments.length === 0) return { kind: 'landing' }
  if (first === 'dbm') {
    const view = adminView(segments)
    return view === null ? null : { kind: 'admin', view }
  }
  if (segments.length === 1) {
    if (first === 'run' || first === 'sql') return { kind: 'query', app: first }
    if (first === 'new') return { kind: 'new' }
    if (first === 'ls') return { kind: 'folder', path: '', known: true }
    if (/^\d+$/.test(first)) return { kind: 'instance', tag: first }
    if (BUILTIN_NAMES.has(first)) return null
    return { kind: 'folder', path: first, known: false }
  }
  if (segments.length === 2 && first === 'sql' && second === 'new') return { kind: 'query', app: 'sql' }
  if (segments.length === 2 && first === 'ls' && second !== 'index') return { kind: 'folder', path: second, known: true }
  return null
}

/** What the pages read, and who is asking (named as in Deps, so the app passes its deps as they are). */
export interface PageServices extends SessionServices {
  /** The catalog, for folder pages. */
  readonly store: Store
  readonly instances: Instances
  /** Dynamic queries parsed off the event loop. */
  readonly caches: GatewayCaches
}

const PAGE_METHODS = new Set(['GET', 'HEAD', 'POST'])

/** The parameter holding the query of each editor; a request that sends it runs the query. */
const QUERY_PARAM = { run: 'xml', sql: 'sql', new: 'xml' } as const

/** Whether the request's parameters leave it a page view: no query for editors, none at all otherwise. */
const quiet = (params: Params, queryParam?: string): boolean => (queryParam === undefined ? Object.keys(params).length === 0 : params[queryParam] === undefined)

/** The declared variables of a dynamic instance with their current values, and its index widget's kind. */
async function dynamicView(services: PageServices, inst: InstanceRecord): Promise<{ vars: [string, string][]; index: IndexKind }> {
  const { instances } = services
  const app = await services.caches.queries.dynamicApp(inst.xml)
  const current = await instances.vars(inst.tag)
  const vars = Object.entries(app?.vars ?? {}).map(([name, initial]): [string, string] => [name, current[name] ?? initial])
  const index = app ? findWidget(app, 'index') : undefined
  return { vars, index: index === undefined ? 'none' : index.class === 'text' ? 'text' : 'table' }
}

async function instancePage(ctx: Context, services: PageServices, route: ParsedPath, tag: string, params: Params): Promise<Rendered | null> {
  const { instances } = services
  const { session } = authState(ctx)
  const uid = session.uid
  const inst = await instances.get(session.sid, tag)
  const text = inst.kind === 'sql' || inst.kind === 'run' ? linkedQueryText(route, ctx.method, params, QUERY_PARAM[inst.kind]) : undefined
  if (text === undefined && !quiet(params, inst.kind === 'sql' || inst.kind === 'run' ? QUERY_PARAM[inst.kind] : undefined)) return null
  switch (inst.kind) {
    case 'sql':
    case 'run':
      return queryPage({
        version: route.version,
        uid,
        app: inst.kind,
        path: String(inst.tag),
        title: `Instance ${inst.tag} (${inst.kind})`,
        text,
        runOnOpen: text !== undefined && runsOnOpen(ctx, params),
      })
    case 'query':
      return fixedQueryPage({ version: route.version, uid, tag: inst.tag, xml: inst.xml })
    case 'dynamic':
      return dynamicPage({ version: route.version, uid, tag: inst.tag, ...(await dynamicView(services, inst)) })
  }
}

/** The folder page, or null when `path` is not a folder the caller may see (and not known to be one). */
async function folder(ctx: Context, store: Store, route: ParsedPath, path: string, known: boolean): Promise<Rendered | null> {
  const { user, session } = authState(ctx)
  if (!known && !(await visibleDir(store, user, path))) return null
  // listFolder reports a folder the caller may not see like a missing one.
  const entries = (await listFolder(store, user, path)).map(listingRow)
  const links = formatLinks(ctx, ctx.originalUrl.split('?')[0])
  return folderPage({ version: route.version, uid: session.uid, path, entries, links })
}

async function render(ctx: Context, services: PageServices, route: ParsedPath, view: PageView, params: Params): Promise<Rendered | null> {
  const uid = authState(ctx).session.uid
  switch (view.kind) {
    case 'landing':
      return landingPage({ version: route.version, uid, instances: await services.instances.ofSession(authState(ctx).session.sid) })
    case 'query': {
      const text = linkedQueryText(route, ctx.method, params, QUERY_PARAM[view.app])
      return queryPage({
        version: route.version,
        uid,
        app: view.app,
        path: view.app,
        title: view.app === 'run' ? 'Macro query' : 'SQL query',
        active: view.app,
        text,
        runOnOpen: text !== undefined && runsOnOpen(ctx, params),
      })
    }
    case 'new':
      return newPage({ version: route.version, uid })
    case 'instance':
      return instancePage(ctx, services, route, view.tag, params)
    case 'folder':
      return folder(ctx, services.store, route, view.path, view.known)
    case 'admin':
      return adminPage(ctx, services.store, route.version, view.view)
  }
}

/** Whether a request may be a page view before the session is looked at (which instance kinds need). */
function mayBePage(route: ParsedPath, view: PageView, params: Params, method: string): boolean {
  switch (view.kind) {
    case 'landing':
      return quiet(params)
    case 'query':
      return quiet(params, QUERY_PARAM[view.app]) || linkedQueryText(route, method, params, QUERY_PARAM[view.app]) !== undefined
    case 'new':
      return quiet(params, QUERY_PARAM.new)
    case 'instance':
      return true
    case 'folder':
    case 'admin':
      return quiet(params)
  }
}

/** Middleware between body parsing and the router: answers page views, passes everything else on. */
export function workbenchPages(services: PageServices) {
  const authenticate = requireSession(services)
  // API requests (a format suffix) pass straight on, without an async layer of their own.
  return function pages(ctx: Context, next: Next): Promise<void> {
    const route = parsedRouteOf(ctx)
    return route?.format === 'html' && PAGE_METHODS.has(ctx.method) ? pageOrNext(ctx, next, route) : next()
  }

  async function pageOrNext(ctx: Context, next: Next, route: ParsedPath): Promise<void> {
    const view = pageView(route.segments)
    if (view === null) return next()
    const params = requestParams(ctx)
    if (!mayBePage(route, view, params, ctx.method)) return next()
    // Without a session this throws no_session, which errors.ts answers with the login page.
    await authenticate(ctx, async () => {
      const page = await render(ctx, services, route, view, params)
      if (page === null) return next()
      send(ctx, page)
    })
  }
}
