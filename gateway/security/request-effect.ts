/**
 * What a request would change, decided from its canonical path and parameters alone, before any
 * handler runs, so one guard (csrf-guard.ts) covers every endpoint:
 *
 * - `write`: changes a table, the catalog, a user or a session: `!login`, `!logout`, `dbm`,
 *   `new`, `new/{app}`, and `run` (or a run instance) with a non-empty `savetable`. These take
 *   POST only (a link, an `<img>` or a prefetch can send GET), and are refused cross-site.
 * - `change`: changes an instance's state but no data: variables sent to a dynamic instance
 *   (`api/{tag}`, `api/{tag}/{widget}`), a trailing segment `api/{tag}/{y}` (which sets the
 *   variable `path` when the instance has an index widget and declares `path`) and `!stop`. The reference client may send these as GET
 *   (the dynamic-api reference beside the repository: `method_: 'GET'`, SPEC 4.6 "query-string parameters set variables"), so GET
 *   stays allowed, but a browser request marked cross-site is refused.
 * - `read`: everything else, including running a query without `savetable`.
 *
 * A `change` may turn out to be a write: variables sent to a dynamic instance can fire an action
 * `<do>` (dbm, savetable), which only the instance's query tells. The handler applies the write
 * rule (csrf-guard.ts refuseUnsafe) the moment an action is about to run, so such a GET fails
 * with 405 before anything is written or kept (routes/dynamic-actions.ts). `run` performs no
 * actions at all (query/dynamic-run.ts), so it stays a read.
 */
import type { Params } from '../http/params.js'

export type Effect = 'read' | 'change' | 'write'

const isTag = (segment: string | undefined): boolean => segment !== undefined && /^\d+$/.test(segment)

/** A parameter that may set a dynamic variable: what dynamic.ts's `incoming` passes on, bar the query texts. */
const setsVariable = (name: string): boolean => name !== 'xml' && name !== 'sql' && !name.endsWith('_')

function savesTable(params: Params): boolean {
  const v = params.savetable
  return v !== undefined && v !== null && String(v).trim() !== ''
}

/**
 * The effect of a request to `api/{segments}`. `params` is asked for only where the path alone
 * does not decide (run and instances), so most requests never build their parameters here.
 */
export function requestEffect(segments: readonly string[], params: () => Params): Effect {
  const [first, second, third] = segments
  if (first === undefined) return 'read'
  // Only the exact endpoint paths write: a longer path (`api/dbm/!cols`) is no route, and is left
  // to the router's 404.
  if (first === 'index') return segments.length === 2 && (second === 'login' || second === 'logout') ? 'write' : 'read'
  // `api/new` without a query is the form page, a read; with one (any method) it creates.
  if (first === 'new') return segments.length === 2 || (segments.length === 1 && params().xml !== undefined) ? 'write' : 'read'
  // Every dbm transaction is taken as a write, the reading ones too: one rule, and POST is what
  // the reference documents for dbm.
  if (first === 'dbm') return segments.length === 1 ? 'write' : 'read'
  // `!stop` of sql, run or an instance (and of a widget: api/{tag}/{widget}/!stop).
  if (segments.includes('index') && segments[segments.length - 1] === 'stop') return 'change'
  if (first === 'run' && segments.length === 1) return savesTable(params()) ? 'write' : 'read'
  if (!isTag(first)) return 'read'
  // api/{tag}/!method reads the kept result; api/{tag}/{widget}/!method likewise.
  if (second === 'index' || third === 'index') return 'read'
  // api/{tag}/{y} may set `path` (reference §1.1); whether it does depends on the instance, which
  // is not read here, so every such segment counts. `.w` is always a widget and `@` the status table.
  if (segments.length === 2 && !second.startsWith('.') && second !== '@') return 'change'
  const p = params()
  if (segments.length === 1 && savesTable(p)) return 'write'
  return Object.keys(p).some(setsVariable) ? 'change' : 'read'
}
