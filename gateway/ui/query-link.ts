/**
 * A link to an editor page with its query (`api/sql?sql=…`, `api/run?xml=…`, an instance's
 * `api/{tag}?sql=…`): the address the page writes when it runs a query, for bookmarks and for
 * sharing. A GET of such a link is the editor page with the text filled in, and runs nothing on
 * the server; the page runs it only when the link also says `run=1` (client/query-url.ts).
 * POST with the query still runs it, as the form without script does.
 */
import type { Params } from '../params.js'

/** Parameters a link may carry beside the query. */
const LINK_PARAMS = new Set(['run'])

/** The query text of a link to an editor page, or undefined when the request is not one. */
export function linkedQueryText(method: string, params: Params, param: string): string | undefined {
  if (method !== 'GET' && method !== 'HEAD') return undefined
  const text = params[param]
  if (typeof text !== 'string') return undefined
  // Anything else (savetable, a timeout…) is a request to the endpoint itself, which it answers.
  for (const name of Object.keys(params)) if (name !== param && !LINK_PARAMS.has(name)) return undefined
  return text
}
