/**
 * Password expiry: an administrator may give a password a last day (add_user, set_password
 * `password_expires`); from the next day on, the right password no longer logs in and login
 * answers credentials_expired (403) telling the user what to do. Sessions opened before run on
 * until they end (SESSION_TTL, logout, a password reset): expiry is checked when logging in.
 */
import { AppError } from '../../shared/errors.js'
import type { UserRecord } from '../catalog/records.js'

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/**
 * The expiry given as a parameter: a calendar day YYYY-MM-DD (the password works through that
 * day, UTC), or '' for none. Anything else is refused naming the parameter.
 */
export function parsePasswordExpiry(text: string, parameter: string): string | null {
  const day = text.trim()
  if (day === '') return null
  const m = DAY.exec(day)
  const time = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN
  if (!m || Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== day) {
    throw new AppError(
      'INVALID_PARAMETER',
      `The parameter "${parameter}" must be a day as YYYY-MM-DD (the last day the password works), or "" for none (got "${text}").`,
      {
        parameter,
      },
    )
  }
  return day
}

/** Whether the user's password has passed its last day at `now`. */
export function passwordExpired(user: UserRecord, now = new Date()): boolean {
  if (user.passwordExpires === undefined) return false
  return now.toISOString().slice(0, 10) > user.passwordExpires
}

/** The login refusal for an expired password; given only after the password was found right. */
export function credentialsExpired(user: UserRecord): AppError {
  return new AppError(
    'CREDENTIALS_EXPIRED',
    `The password of "${user.uid}" expired after ${user.passwordExpires}; ask an administrator to set a new one (dbm set_password), then log in again.`,
    { uid: user.uid },
  )
}
