/**
 * Headers on every answer. The policy allows scripts, styles and fetches from this server only and
 * no inline script or style at all, so even markup that escaped escaping could not run; pages
 * cannot be framed. Harmless on JSON and text answers, and simpler than deciding which are pages.
 */
import type { Context, Next } from 'koa'

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

export function securityHeaders() {
  // Not async: a layer that only passes the request on should not add a promise of its own.
  return function setSecurityHeaders(ctx: Context, next: Next): Promise<void> {
    ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY)
    ctx.set('X-Content-Type-Options', 'nosniff')
    return next()
  }
}
