/**
 * Other users than the admin, for the administration page tests: logging them in (a session
 * cookie for a browser context and for calls from Node), their own dbm calls answered as they
 * come (rc 1 included, to check that the API refuses what a page does not offer), and whether a
 * password works.
 */
import { expect } from 'chai'
import type { BrowserContext } from 'playwright-core'
import type { Workbench } from './workbench.js'

export interface DbmAnswer<T = unknown> {
  readonly rc: number
  readonly value?: T
  readonly msg?: string
  readonly code?: string
}

/** The status of a !login:json with this password (200 logged in, 401 refused). */
export async function loginStatus(bench: Workbench, uid: string, pw: string): Promise<number> {
  const res = await fetch(`${bench.api}/!login:json`, { method: 'POST', body: new URLSearchParams({ uid, pw }) })
  await res.body?.cancel()
  return res.status
}

/** Logs a user in; the session cookie value (uid|sid|epw). A user has one session: this replaces any other. */
export async function logInAs(bench: Workbench, uid: string, pw: string): Promise<string> {
  const res = await fetch(`${bench.api}/!login:json`, { method: 'POST', body: new URLSearchParams({ uid, pw }) })
  expect(res.status, `login of ${uid}`).to.equal(200)
  const s = (await res.json()) as { uid: string; sid: string; epw: string }
  return `${s.uid}|${s.sid}|${s.epw}`
}

/** Gives a browser context a user's session. */
export async function useSession(bench: Workbench, context: BrowserContext, session: string): Promise<void> {
  await context.addCookies([{ name: 'session', value: session, url: bench.origin, httpOnly: true, sameSite: 'Lax' }])
}

/** One dbm transaction in a session, its reply as it comes (rc 0 or 1). */
export async function dbmAs<T = unknown>(bench: Workbench, session: string, name: string, params: Record<string, unknown>): Promise<DbmAnswer<T>> {
  const res = await fetch(`${bench.api}/dbm:json`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: `session=${session}` },
    body: JSON.stringify({ cmd: [name, params] }),
  })
  expect(res.status, `dbm ${name}`).to.equal(200)
  return (await res.json()) as DbmAnswer<T>
}

/** The admin's dbm reply as it comes, refusals included. */
export function adminDbm<T = unknown>(bench: Workbench, name: string, params: Record<string, unknown>): Promise<DbmAnswer<T>> {
  return dbmAs<T>(bench, bench.session, name, params)
}

/** Adds an active user with a known password (as the admin). */
export async function addUser(bench: Workbench, uid: string, password: string, extra: Record<string, unknown> = {}): Promise<void> {
  await bench.dbm('add_user', { uid, first: uid, last: 'Test', email: `${uid}@example.com`, password, ...extra })
}
