/**
 * `!login` and `!logout`. Both answer JSON whatever the suffix: the real client parses the login
 * reply without looking at the status and rejects only when it has an `error` member.
 */
import type { Context } from 'koa'
import { AppError } from '../../shared/errors.js'
import { formatSessionCookie, parseSessionCookie, sessionCookieValues, COOKIE_NAME } from '../auth/cookie.js'
import { verifyPassword } from '../auth/password.js'
import type { KillMode } from '../auth/sessions.js'
import { getUser } from '../catalog/users.js'
import type { Deps } from '../deps.js'
import { requestParams, stringParam } from '../params.js'

const KILL_MODES = ['yes', 'no', 'possess', 'auth'] as const

function sendJson(ctx: Context, value: unknown): void {
  ctx.status = 200
  ctx.type = 'application/json; charset=utf-8'
  ctx.body = JSON.stringify(value)
}

/**
 * Secure whenever the client's connection is HTTPS: our own TLS, or (with TRUST_PROXY) a
 * balancer that terminated TLS and says so in X-Forwarded-Proto.
 */
function cookieAttributes(ctx: Context): string {
  return `Path=/; HttpOnly; SameSite=Lax${ctx.secure ? '; Secure' : ''}`
}

export function loginHandler(deps: Deps) {
  return async function login(ctx: Context): Promise<void> {
    const params = requestParams(ctx)
    const uid = stringParam(params, 'uid', { required: true }).trim().toLowerCase()
    const pw = stringParam(params, 'pw', { required: true })
    const kill = (stringParam(params, 'kill') ?? 'possess').toLowerCase()
    if (!(KILL_MODES as readonly string[]).includes(kill)) {
      throw new AppError('INVALID_PARAMETER', `The parameter "kill" must be one of ${KILL_MODES.join(', ')} (got "${kill}").`, { parameter: 'kill' })
    }
    const user = await getUser(deps.store, uid)
    const ok = await verifyPassword(pw, user?.passwordHash ?? null)
    // An inactive account gets the same answer as a wrong password: nothing to probe.
    if (!ok || !user || !user.active) throw new AppError('BAD_CREDENTIALS', 'Invalid user id or password.')
    if (kill === 'auth') return sendJson(ctx, { uid: user.uid })
    const creds = await deps.sessions.login(user.uid, kill as KillMode)
    ctx.set('Set-Cookie', `${COOKIE_NAME}=${formatSessionCookie(creds)}; ${cookieAttributes(ctx)}`)
    sendJson(ctx, { uid: creds.uid, sid: creds.sid, epw: creds.epw })
  }
}

export function logoutHandler(deps: Deps) {
  return async function logout(ctx: Context): Promise<void> {
    // Idempotent: without a valid session there is nothing to end, and the answer is the same.
    for (const value of sessionCookieValues(ctx.get('cookie'))) {
      const creds = parseSessionCookie(value)
      const session = creds && (await deps.sessions.authenticate(creds))
      if (session) await deps.sessions.end(session.sid)
    }
    ctx.set('Set-Cookie', `${COOKIE_NAME}=; ${cookieAttributes(ctx)}; Max-Age=0`)
    sendJson(ctx, { rc: '0', msg: 'Logged out' })
  }
}
