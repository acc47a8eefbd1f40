/**
 * Authentication middleware: every endpoint but !login authenticates from the `session` cookie
 * alone. Missing, malformed, forged or expired credentials are a 403, which clients treat as
 * "log in again".
 */
import type { Context, Next } from 'koa'
import { AppError } from '../../shared/errors.js'
import { parseSessionCookie, sessionCookieValues } from './cookie.js'
import type { PrincipalMemo } from './principal-memo.js'
import type { SessionRecord } from './session-record.js'
import type { SessionManager } from './sessions.js'
import { KEYS } from '../catalog/records.js'
import type { UserRecord } from '../catalog/records.js'
import type { Directory, Principal } from '../catalog/principal.js'
import { runAsCacheUser } from '../tables/cache-user.js'

export interface AuthState {
  readonly session: SessionRecord
  /** Who is asking, with their groups and capabilities: what permission checks take. */
  readonly user: Principal
  readonly record: UserRecord
}

export function authState(ctx: Context): AuthState {
  const auth = ctx.state.auth as AuthState | undefined
  if (!auth) throw new AppError('INTERNAL', 'Route used without requireSession.')
  return auth
}

/** What authenticating a request reads (named as in Deps, so a route passes its deps as they are). */
export interface SessionServices {
  readonly sessions: SessionManager
  /** Turns the user's record into a principal with groups and capabilities. */
  readonly directory: Directory
  readonly caches: { readonly principals: PrincipalMemo }
}

export function requireSession({ sessions, directory, caches }: SessionServices) {
  const principals = caches.principals
  return async function authenticate(ctx: Context, next: Next): Promise<void> {
    const values = sessionCookieValues(ctx.get('cookie'))
    if (values.length === 0) throw new AppError('NO_SESSION', 'Not logged in: send the cookie session=<uid>|<sid>|<epw> from api/!login.')
    for (const value of values) {
      const creds = parseSessionCookie(value)
      if (!creds) continue
      // The session, its user's record and what the user's principal was made from, in one round
      // trip (principal-memo.ts); the session's idle timer restarts while the principal is read.
      const inputKeys = principals.inputKeys(creds.uid)
      const found = await sessions.authenticateReading(creds, [KEYS.user(creds.uid), ...inputKeys])
      if (!found) continue
      const { session, touched } = found
      const [userText, ...inputTexts] = found.also
      const user = principals.user(session.uid, userText)
      if (!user || !user.active) {
        await touched
        await sessions.end(session.sid)
        break
      }
      const [principal] = await Promise.all([principals.principal(directory, user, userText!, inputKeys, inputTexts), touched])
      ctx.state.auth = { session, user: principal, record: user } satisfies AuthState
      // The table files this request loads are charged to this user (fair-lru.ts).
      return runAsCacheUser(session.uid, next)
    }
    throw new AppError('NO_SESSION', 'The session is invalid or has expired; log in again with api/!login.')
  }
}
