/**
 * The endpoint label of a request, for metrics and access logs: one of a short fixed list, never
 * the raw path. A path carries table names, instance tags and folder names; as a label each would
 * start a new time series, and a scraper's memory would grow with every table ever queried.
 */
import type { Context } from 'koa'
import { parsedRouteOf } from '../http/path.js'

export const ROUTE_NAMES = [
  'api',
  'login',
  'logout',
  'sql',
  'run',
  'dbm',
  'new',
  'ls',
  'instance',
  'object',
  'ui',
  'healthz',
  'readyz',
  'metrics',
  'other',
] as const

export type RouteName = (typeof ROUTE_NAMES)[number]

/** Paths outside `/{version}/api` that the gateway answers itself. */
const SERVICE_PATHS: Readonly<Record<string, RouteName>> = { '/healthz': 'healthz', '/readyz': 'readyz', '/metrics': 'metrics' }

const BUILT_IN = new Set<RouteName>(['sql', 'run', 'dbm', 'new', 'ls'])

/** The name of an API route from its canonical segments (see path.ts). */
export function apiRouteName(segments: readonly string[]): RouteName {
  const [first, second] = segments
  if (first === undefined) return 'api'
  if (first === 'index') return second === 'login' ? 'login' : second === 'logout' ? 'logout' : 'other'
  if (BUILT_IN.has(first as RouteName)) return first as RouteName
  return /^\d+$/.test(first) ? 'instance' : 'object'
}

/**
 * The route name of a request once the app has seen it: `originalPath` is the path as it came
 * in (the API parser rewrites ctx.path), and ctx.state.route is set once that parser accepted it.
 */
export function routeName(ctx: Context, originalPath: string): RouteName {
  const service = SERVICE_PATHS[originalPath]
  if (service) return service
  if (originalPath.startsWith('/ui/')) return 'ui'
  const route = parsedRouteOf(ctx)
  return route ? apiRouteName(route.segments) : 'other'
}
