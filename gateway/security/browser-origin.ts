/**
 * Whether a browser says a request comes from another site. Browsers mark their requests with
 * Fetch Metadata (`Sec-Fetch-Site`) and, on POST and on CORS requests, `Origin`; clients that are
 * not browsers (curl, the node client, the CLI) send neither and are never refused here: they
 * carry no ambient cookie a third party could ride on.
 *
 * The service's own origin is the scheme and host the request was addressed to, as Koa reads
 * them: `X-Forwarded-Proto`/`X-Forwarded-Host` only when TRUST_PROXY=1 (app.ts), the socket and
 * `Host` otherwise.
 */
import type { Context } from 'koa'

/**
 * Parsed origins: a gateway sees few distinct ones (its own names, a few pages), and parsing a URL
 * costs several microseconds, a tenth of a small request. Cleared when full, so hostile variety
 * costs memory only up to the bound.
 */
const parsed = new Map<string, string | null>()
const PARSED_MAX = 256

/** `scheme://host[:port]` in the form browsers send (lower case, no default port), or null. */
export function normalOrigin(text: string): string | null {
  const known = parsed.get(text)
  if (known !== undefined) return known
  if (parsed.size >= PARSED_MAX) parsed.clear()
  const origin = parseOrigin(text)
  parsed.set(text, origin)
  return origin
}

function parseOrigin(text: string): string | null {
  try {
    const url = new URL(text)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
    return url.origin
  } catch {
    return null
  }
}

/** The origin this request was addressed to. */
export function ownOrigin(ctx: Context): string | null {
  return normalOrigin(`${ctx.protocol}://${ctx.host}`)
}

/**
 * Why the request counts as cross-site, or null when it does not. An `Origin` listed in
 * ALLOWED_ORIGINS passes whatever `Sec-Fetch-Site` says (it is cross-site or same-site by
 * definition). `Sec-Fetch-Site: same-origin` and `none` (typed in the address bar, a bookmark)
 * pass; `Origin: null` (a sandboxed frame, a data: page, a redirect across sites) does not.
 */
export function crossSiteReason(ctx: Context, allowed: ReadonlySet<string>): string | null {
  const rawOrigin = ctx.get('Origin')
  const origin = rawOrigin === '' ? null : rawOrigin === 'null' ? 'null' : (normalOrigin(rawOrigin) ?? rawOrigin)
  if (origin !== null && allowed.has(origin)) return null
  const site = ctx.get('Sec-Fetch-Site').toLowerCase()
  if (site === 'cross-site' || site === 'same-site') {
    return `the browser marked it Sec-Fetch-Site: ${site}${origin === null ? '' : ` from Origin ${origin}`}`
  }
  if (origin === null) return refererReason(ctx, allowed)
  if (origin === 'null') return 'it came from an opaque origin (Origin: null)'
  if (origin === ownOrigin(ctx)) return null
  return `it came from Origin ${origin}, not from this service (${ownOrigin(ctx) ?? 'unknown'})`
}

/**
 * The last hint, for a browser that sent neither Fetch Metadata nor Origin (a GET over plain HTTP
 * to a host that is not loopback): the page it came from. A page can suppress its Referer, so this
 * narrows the gap rather than closing it; HTTPS closes it (docs/security.md, Cross-site requests).
 */
function refererReason(ctx: Context, allowed: ReadonlySet<string>): string | null {
  const referer = ctx.get('Referer')
  if (referer === '') return null
  const from = normalOrigin(referer)
  if (from === null || allowed.has(from) || from === ownOrigin(ctx)) return null
  return `it came from a page of ${from} (Referer), not from this service`
}
