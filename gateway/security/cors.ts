/**
 * CORS for the origins listed in ALLOWED_ORIGINS, and for no other: a notebook served from such
 * an origin may call the API with the user's cookie (`credentials: 'include'`) and read the
 * answers. Other origins get no CORS header at all, so browsers keep their answers from them.
 * With ALLOWED_ORIGINS empty (the default) this layer adds nothing.
 */
import type { Context, Next } from 'koa'
import type { Config } from '../../shared/config.js'
import { normalOrigin } from './browser-origin.js'

const METHODS = 'GET, HEAD, POST'
/** Content-Type application/json is not a "simple" type, so JSON calls preflight for it. */
const REQUEST_HEADERS = 'Content-Type, Accept'
/** Headers a caller reads beyond the CORS-safelisted ones. */
const EXPOSED = 'X-Request-Id, X-Truncated, X-Tabula-Engine, Retry-After'
const PREFLIGHT_MAX_AGE_SECONDS = '600'

export function corsForAllowedOrigins(config: Pick<Config, 'allowedOrigins'>) {
  const allowed: ReadonlySet<string> = new Set(config.allowedOrigins)
  return function cors(ctx: Context, next: Next): Promise<void> {
    if (allowed.size === 0) return next()
    // The answer depends on Origin once any origin is allowed: caches must keep them apart.
    ctx.vary('Origin')
    const raw = ctx.get('Origin')
    const origin = raw === '' ? null : normalOrigin(raw)
    if (origin === null || !allowed.has(origin)) return next()
    ctx.set('Access-Control-Allow-Origin', origin)
    ctx.set('Access-Control-Allow-Credentials', 'true')
    if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method') !== '') {
      ctx.set('Access-Control-Allow-Methods', METHODS)
      ctx.set('Access-Control-Allow-Headers', REQUEST_HEADERS)
      ctx.set('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_SECONDS)
      ctx.status = 204
      return Promise.resolve()
    }
    ctx.set('Access-Control-Expose-Headers', EXPOSED)
    return next()
  }
}
