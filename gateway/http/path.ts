/**
 * The Dynamic API's URL grammar: `/{version}/api[/{segment}…][:{format}][?query]`.
 *
 * The format suffix is glued to the last path segment (`!cols:json`, `7:json`, `7/:json`).
 * Index-widget methods have a short and a long form (`!cols` = `@index/cols`); both become the
 * canonical segments `index`, `cols`, so routes are declared once, on canonical paths. A method
 * may also be glued to the name it applies to (`7!methods`, `7/grid1!methods`, reference §1.1):
 * `name!m` becomes `name`, `index`, `m`, the same as `name/!m`.
 */
import type { Context } from 'koa'
import { AppError } from '../../shared/errors.js'
import { formatFromSuffix, type Format } from '../format/index.js'

export interface ParsedPath {
  readonly version: string
  /** Path segments after `api`, decoded, with `!m` and `@index/m` both as `index`, `m`. */
  readonly segments: readonly string[]
  readonly format: Format
  /** Whether the path named its format (`:html`) rather than taking HTML by default. */
  readonly suffixed: boolean
}

const SUFFIXES = ':json, :json.rows, :json.keyed, :text, :html, :csv, :arrow or :parquet'

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw)
  } catch {
    throw new AppError('INVALID_PARAMETER', `The path segment "${raw}" is not valid percent-encoding.`)
  }
}

/** Splits the format suffix off the last segment: everything after its first ':'. */
function splitSuffix(last: string): { name: string; format: Format; suffixed: boolean } {
  const colon = last.indexOf(':')
  if (colon < 0) return { name: last, format: 'html', suffixed: false }
  const suffix = last.slice(colon + 1)
  const format = formatFromSuffix(suffix)
  if (format === null) {
    throw new AppError('INVALID_PARAMETER', `Unknown format suffix ":${suffix}"; use ${SUFFIXES}.`, { suffix })
  }
  return { name: last.slice(0, colon), format, suffixed: true }
}

function canonicalSegments(raw: readonly string[]): string[] {
  const out: string[] = []
  for (const seg of raw) {
    const bang = seg.indexOf('!')
    if (bang === 0 && seg.length > 1) out.push('index', seg.slice(1))
    else if (bang > 0 && bang < seg.length - 1) out.push(seg.slice(0, bang), 'index', seg.slice(bang + 1))
    else if (seg === '@index') out.push('index')
    else out.push(seg)
  }
  return out
}

/**
 * Parses a request path. Returns null when the path is not under `/{version}/api` at all;
 * throws UNKNOWN_VERSION for a version that is not configured.
 */
export function parseApiPath(path: string, versions: readonly string[]): ParsedPath | null {
  const parts = path.split('/').slice(1)
  if (parts.length < 2 || !/^api(:|$)/.test(parts[1])) return null
  const version = decodeSegment(parts[0])
  if (!versions.includes(version)) {
    throw new AppError('UNKNOWN_VERSION', `Unknown API version "${version}"; this service accepts: ${versions.join(', ')}.`, {
      accepted: versions,
    })
  }
  const rest = parts.slice(1).map(decodeSegment)
  const { name, format, suffixed } = splitSuffix(rest[rest.length - 1])
  rest[rest.length - 1] = name
  // A trailing empty segment (`7/` or `7/:json`) addresses the same thing as `7`.
  while (rest.length > 1 && rest[rest.length - 1] === '') rest.pop()
  return { version, segments: canonicalSegments(rest.slice(1)), format, suffixed }
}

// The parsed path is kept on the request's state by `apiPath` (app.ts), which Koa types loosely:
// these two are the one place that says what is kept there.

/** The parsed path, if the request reached the API's path parser (middleware that runs for every request). */
export function parsedRouteOf(ctx: Context): ParsedPath | undefined {
  return ctx.state.route as ParsedPath | undefined
}

/** The parsed path of a request to an API route: its handlers run only after the parser accepted it. */
export function routeOf(ctx: Context): ParsedPath {
  const route = parsedRouteOf(ctx)
  if (route === undefined) throw new AppError('INTERNAL', `The handler of ${ctx.path} ran without its parsed API path.`)
  return route
}
