/**
 * A link to an editor page with its query (`api/sql?sql=…`, `api/run?xml=…`, an instance's
 * `api/{tag}?sql=…`): the address the page writes when it runs a query, for bookmarks and for
 * sharing. A GET of such a link is the editor page with the text filled in, and runs nothing on
 * the server; the page runs it only when the link also says `run=1` (client/query-url.ts).
 * POST with the query still runs it, as the form without script does, and so does a GET that
 * names its format (`api/sql:html?sql=…` is the query's result as HTML, as the API specifies).
 */
import type { Params } from '../http/params.js'
import type { Context } from 'koa'
import type { ParsedPath } from '../http/path.js'
import { crossSiteReason } from '../security/browser-origin.js'

/** Parameters a link may carry beside the query. */
const LINK_PARAMS = new Set(['run'])

/** The query text of a link to an editor page, or undefined when the request is not one. */
export function linkedQueryText(route: ParsedPath, method: string, params: Params, param: string): string | undefined {
  if (route.suffixed || (method !== 'GET' && method !== 'HEAD')) return undefined
  const text = params[param]
  if (typeof text !== 'string') return undefined
  // Anything else (savetable, a timeout…) is a request to the endpoint itself, which it answers.
  for (const name of Object.keys(params)) if (name !== param && !LINK_PARAMS.has(name)) return undefined
  return text
}

/** No origin is trusted to make the page run a query by itself, not even one in ALLOWED_ORIGINS. */
const NO_ORIGINS: ReadonlySet<string> = new Set()

/**
 * Whether the editor page runs its linked query as it opens: the link says `run=1` and the
 * browser did not come from another site. A page elsewhere can still link here with `run=1`; the
 * editor then opens with the query filled in and waits for the user, so another site cannot make
 * a logged-in browser spend its session's instances and query time.
 */
export function runsOnOpen(ctx: Context, params: Params): boolean {
  return params.run === '1' && crossSiteReason(ctx, NO_ORIGINS) === null
}
