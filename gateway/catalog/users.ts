/** User records in the catalog. */
import { AppError } from '../../shared/errors.js'
import type { Store } from '../../shared/store/types.js'
import { hashPassword } from '../auth/password.js'
import { KEYS, parseRecord, type UserRecord } from './records.js'
import { catalogTxn } from './txn.js'

export const UID_PATTERN = /^[a-z][a-z0-9_]{0,63}$/

/** The company users belong to when none is named (made on first start). */
export const DEFAULT_COMPANY = 'main'

/** Fills fields that records written by earlier releases lack. */
export function normalizeUser(u: UserRecord): UserRecord {
  return {
    ...u,
    middle: u.middle ?? '',
    company: u.company ?? DEFAULT_COMPANY,
    roles: u.roles ?? (u.admin ? ['admin'] : []),
    updated: u.updated ?? u.created,
  }
}

export async function getUser(store: Store, uid: string): Promise<UserRecord | null> {
  if (!UID_PATTERN.test(uid)) return null
  return userFromStored(uid, await store.get(KEYS.user(uid)))
}

/** The user record stored as `raw` under KEYS.user(uid), for callers that read it in a batch. */
export function userFromStored(uid: string, raw: string | null): UserRecord | null {
  if (!UID_PATTERN.test(uid)) return null
  const user = parseRecord<UserRecord>(raw)
  return user === null ? null : normalizeUser(user)
}

export interface NewUser {
  readonly uid: string
  readonly password: string
  readonly first?: string
  readonly middle?: string
  readonly last?: string
  readonly email?: string
  readonly company?: string
  readonly roles?: readonly string[]
}

export function invalidUid(uid: string): AppError {
  return new AppError('INVALID_PARAMETER', `Invalid user id "${uid}": use a lower-case letter, then lower-case letters, digits or underscores (at most 64).`, {
    parameter: 'uid',
  })
}

/**
 * Creates a user and lists them in the user index, atomically; returns null (and changes
 * nothing) when the uid is taken.
 */
export async function createUser(store: Store, u: NewUser): Promise<UserRecord | null> {
  if (!UID_PATTERN.test(u.uid)) throw invalidUid(u.uid)
  const now = new Date().toISOString()
  const record: UserRecord = {
    uid: u.uid,
    passwordHash: await hashPassword(u.password),
    active: true,
    first: u.first ?? '',
    middle: u.middle ?? '',
    last: u.last ?? '',
    email: u.email ?? '',
    company: u.company ?? DEFAULT_COMPANY,
    roles: u.roles ?? [],
    created: now,
    updated: now,
  }
  return catalogTxn(
    store,
    () => [KEYS.user(u.uid)],
    (w) => {
      if (w.get(KEYS.user(u.uid)) !== null) return { ops: [], result: null }
      return {
        ops: [
          { op: 'set', key: KEYS.user(u.uid), value: JSON.stringify(record) },
          { op: 'sadd', key: KEYS.allUsers, members: [u.uid] },
        ],
        result: record,
      }
    },
  )
}
