/**
 * Authentication middleware: every endpoint but !login authenticates from the `session` cookie
 * alone. Missing, malformed, forged or expired credentials are a 403, which clients treat as
 * "log in again".
 */
import type { Context, Next } from 'koa'
import { AppError } from '../shared/errors.js'
import { parseSessionCookie, sessionCookieValues } from './auth/cookie.js'
import type { SessionRecord } from './auth/sessions.js'
import { getUser } from './catalog/users.js'
import type { UserRecord } from './catalog/records.js'
import type { Principal } from './catalog/principal.js'
import type { Deps } from './deps.js'

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

export function requireSession(deps: Deps) {
  return async function authenticate(ctx: Context, next: Next): Promise<void> {
    const values = sessionCookieValues(ctx.get('cookie'))
    if (values.length === 0) throw new AppError('NO_SESSION', 'Not logged in: send the cookie session=<uid>|<sid>|<epw> from api/!login.')
    for (const value of values) {
      const creds = parseSessionCookie(value)
      const session = creds && (await deps.sessions.authenticate(creds))
      if (!session) continue
      const user = await getUser(deps.store, session.uid)
      if (!user || !user.active) {
        await deps.sessions.end(session.sid)
        break
      }
      ctx.state.auth = { session, user: await deps.directory.principal(user), record: user } satisfies AuthState
      return next()
    }
    throw new AppError('NO_SESSION', 'The session is invalid or has expired; log in again with api/!login.')
  }
}
