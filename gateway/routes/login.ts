/**
 * `!login` and `!logout`. Both answer JSON whatever the suffix: the real client parses the login
 * reply without looking at the status and rejects only when it has an `error` member (so a
 * throttled login, 429, still has one). Failed logins are throttled per user id and per client
 * address (auth/throttle.ts). The password is never echoed: no message, detail or log line
 * carries it.
 */
import { credentialsExpired, passwordExpired } from '../auth/password-expiry.js'
import type { Context } from 'koa'
import type { AuthCheckAnswer, LoginAnswer, LogoutAnswer } from '../../shared/api-answers.js'
import { AppError } from '../../shared/errors.js'
import { formatSessionCookie, parseSessionCookie, sessionCookieValues, COOKIE_NAME } from '../auth/cookie.js'
import { verifyPassword } from '../auth/password.js'
import type { KillMode } from '../auth/sessions.js'
import { LoginThrottle, type ThrottleScope } from '../auth/throttle.js'
import { getUser } from '../catalog/users.js'
import type { Deps } from '../deps.js'
import { requestParams, stringParam, type Params } from '../http/params.js'

const KILL_MODES = ['yes', 'no', 'possess', 'auth'] as const

function sendJson(ctx: Context, value: LoginAnswer | AuthCheckAnswer | LogoutAnswer): void {
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

/**
 * A password in the URL ends up in access logs (the balancer's, a proxy's), so it is refused
 * before anything else happens; the message names the parameter, never its value.
 */
function refusePasswordInUrl(ctx: Context): void {
  if (Object.prototype.hasOwnProperty.call(ctx.query, 'pw')) {
    throw new AppError('INVALID_PARAMETER', 'Send "pw" in the request body (a form field or JSON member), not in the URL: URLs are written to logs.', {
      parameter: 'pw',
    })
  }
}

/** A parameter that must be present and not empty (a uid not blank either; a password may be spaces). */
function requiredText(params: Params, name: 'uid' | 'pw'): string {
  const value = stringParam(params, name, { required: true })
  if ((name === 'uid' ? value.trim() : value) === '')
    throw new AppError('MISSING_PARAMETER', `The parameter "${name}" is empty; send the ${name === 'uid' ? 'user id' : 'password'}.`, { parameter: name })
  return value
}

const THROTTLE_LOG_LINES: Record<ThrottleScope, string> = {
  user: 'login throttled: too many failures for one user id from one address',
  address: 'login throttled: too many failures from one address',
  anywhere: 'login throttled: too many failures for one user id from all addresses; only its known addresses may try',
}

function newThrottle(deps: Deps): LoginThrottle {
  const { config } = deps
  const limits = {
    maxFailuresPerUser: config.loginMaxFailures,
    maxFailuresPerAddress: config.loginMaxFailuresPerAddress,
    maxFailuresAnywhere: config.loginMaxFailuresPerUser,
    windowSeconds: config.loginWindowSeconds,
  }
  // Who is attacked is left out of the line: a "user id" is sometimes a password typed in the wrong box.
  return new LoginThrottle(deps.store, limits, ({ scope, address, seconds }) => deps.log({ level: 'warn', msg: THROTTLE_LOG_LINES[scope], address, seconds }))
}

export function loginHandler(deps: Deps) {
  const throttle = newThrottle(deps)
  return async function login(ctx: Context): Promise<void> {
    refusePasswordInUrl(ctx)
    const params = requestParams(ctx)
    const uid = requiredText(params, 'uid').trim().toLowerCase()
    const pw = requiredText(params, 'pw')
    const kill = (stringParam(params, 'kill') ?? 'possess').toLowerCase()
    if (!(KILL_MODES as readonly string[]).includes(kill)) {
      throw new AppError('INVALID_PARAMETER', `The parameter "kill" must be one of ${KILL_MODES.join(', ')} (got "${kill}").`, { parameter: 'kill' })
    }
    // Koa's ctx.ip: the socket's address; with TRUST_PROXY=1 the last X-Forwarded-For entry (app.ts).
    const address = ctx.ip || 'unknown'
    await throttle.begin(uid, address)
    const user = await getUser(deps.store, uid)
    const ok = await verifyPassword(pw, user?.passwordHash ?? null)
    // An inactive account gets the same answer as a wrong password: nothing to probe.
    if (!ok || !user || !user.active) {
      await throttle.failed(uid, address)
      throw new AppError('BAD_CREDENTIALS', 'Invalid user id or password.')
    }
    await throttle.succeeded(uid, address)
    if (passwordExpired(user)) throw credentialsExpired(user)
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
