/** User records in the catalog. */
import { AppError } from '../../shared/errors.js'
import type { Store } from '../../shared/store/types.js'
import { hashPassword } from '../auth/password.js'
import { KEYS, type UserRecord } from './records.js'

export const UID_PATTERN = /^[a-z][a-z0-9_]{0,63}$/

export async function getUser(store: Store, uid: string): Promise<UserRecord | null> {
  if (!UID_PATTERN.test(uid)) return null
  const raw = await store.get(KEYS.user(uid))
  return raw === null ? null : (JSON.parse(raw) as UserRecord)
}

export interface NewUser {
  readonly uid: string
  readonly password: string
  readonly admin?: boolean
  readonly first?: string
  readonly last?: string
  readonly email?: string
  readonly groups?: readonly string[]
}

/** Creates a user; returns false (and changes nothing) when the uid is taken. */
export async function createUser(store: Store, u: NewUser): Promise<boolean> {
  if (!UID_PATTERN.test(u.uid)) {
    throw new AppError('INVALID_PARAMETER', `Invalid user id "${u.uid}": use a lower-case letter, then lower-case letters, digits or underscores.`)
  }
  const record: UserRecord = {
    uid: u.uid,
    passwordHash: await hashPassword(u.password),
    active: true,
    admin: u.admin ?? false,
    first: u.first ?? '',
    last: u.last ?? '',
    email: u.email ?? '',
    groups: u.groups ?? [],
    created: new Date().toISOString(),
  }
  return store.set(KEYS.user(u.uid), JSON.stringify(record), { nx: true })
}
