/** Calling api/dbm from tests. */
import { expect } from 'chai'
import { existsSync } from 'node:fs'
import { versionDir } from '../../engine/storage/index.js'
import { createUser } from '../../gateway/catalog/users.js'
import { KEYS } from '../../gateway/catalog/records.js'
import type { TestService } from './service.js'

export interface DbmAnswer {
  readonly rc: 0 | 1
  readonly value?: unknown
  readonly msg?: string
  readonly code?: string
}

/** Posts one transaction and returns the parsed reply (asserting HTTP 200 and JSON). */
export async function dbm(svc: TestService, cookie: string, name: string, params: Record<string, unknown> = {}): Promise<DbmAnswer> {
  const res = await svc.http
    .post('/v1/api/dbm:json')
    .set('Cookie', cookie)
    .send({ cmd: [name, params] })
  expect(res.status, res.text).to.equal(200)
  expect(res.type).to.equal('application/json')
  return res.body as DbmAnswer
}

/** A transaction that must succeed: returns its value. */
export async function dbmOk<T = unknown>(svc: TestService, cookie: string, name: string, params: Record<string, unknown> = {}): Promise<T> {
  const r = await dbm(svc, cookie, name, params)
  expect(r.rc, `${name} failed: ${r.msg}`).to.equal(0)
  return r.value as T
}

/** A transaction that must fail: returns the reply, whose msg is checked against `msg`. */
export async function dbmFails(svc: TestService, cookie: string, name: string, params: Record<string, unknown>, msg: RegExp): Promise<DbmAnswer> {
  const r = await dbm(svc, cookie, name, params)
  expect(r.rc, `${name} should fail`).to.equal(1)
  expect(r.msg).to.match(msg)
  return r
}

/** Creates a plain user straight in the store and logs them in; returns the cookie. */
export async function userCookie(svc: TestService, uid: string, opts: { company?: string; roles?: string[] } = {}): Promise<string> {
  const password = `${uid}-pass-1`
  await createUser(svc.deps.store, { uid, password, first: uid, last: 'Test', email: `${uid}@example.com`, ...opts })
  return svc.login(uid, password)
}

/** Every catalog key and value: compared before and after a refused change to show nothing moved. */
export async function catalogSnapshot(svc: TestService): Promise<Record<string, unknown>> {
  const store = svc.deps.store
  const keys = await store.keys('cat:')
  const out: Record<string, unknown> = {}
  for (const k of keys) {
    // The sweeper empties the list of retired versions on its own schedule (within a second on
    // the embedded store), whatever the request under test did.
    if (k === KEYS.retiredVersions) continue
    try {
      out[k] = await store.get(k)
    } catch {
      try {
        out[k] = (await store.smembers(k)).sort()
      } catch {
        out[k] = await store.hgetall(k)
      }
    }
  }
  return out
}

/** A refused transaction: its code and message, and not one catalog key changed. Returns the message. */
export async function refused(svc: TestService, cookie: string, name: string, params: Record<string, unknown>, code: string, msg: RegExp): Promise<string> {
  const before = await catalogSnapshot(svc)
  const r = await dbmFails(svc, cookie, name, params, msg)
  expect(r.code).to.equal(code)
  expect(await catalogSnapshot(svc)).to.deep.equal(before)
  return r.msg!
}

/** A company with an administrator (listed in its admins); returns the administrator's cookie. */
export async function companyWithAdmin(svc: TestService, admin: string, id: string, extra: Record<string, unknown> = {}): Promise<string> {
  await dbmOk(svc, admin, 'add_company', { company: id, name: `${id} Inc.`, ...extra })
  const boss = await userCookie(svc, `${id}_boss`, { company: id })
  await dbmOk(svc, admin, 'set_company', { company: id, admins: [`${id}_boss`] })
  return boss
}

/**
 * The version was retired by the change under test: it is listed as retired, or the sweeper has
 * already removed it (within a second on the embedded store, which has no grace). The sweeper
 * removes the folder before it forgets the listing, so one of the two always holds.
 */
export async function expectRetired(svc: TestService, version: string): Promise<void> {
  const retired = await svc.deps.store.hgetall(KEYS.retiredVersions)
  if (version in retired) return
  expect(existsSync(versionDir(svc.dataDir, version)), `version ${version} is neither listed as retired nor removed`).to.equal(false)
}
