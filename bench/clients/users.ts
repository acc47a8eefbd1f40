/**
 * The users of a load run and their sessions. A user has at most one live session (a second
 * login joins it: gateway/auth/sessions.ts), so N sessions need N users.
 *
 * The users are written straight into the catalog (the record and the user index, the two writes
 * of gateway/catalog/users.ts createUser) with one password hash made once at a lighter scrypt
 * cost (N = 2^10 instead of the service's 2^14; the stored hash names its cost, and login verifies
 * at the cost it names). At the service's cost every hash and every check is about 50 ms of one
 * core: 10,000 users would take about 17 core-minutes to create through api/dbm and log in, before
 * the run had started. The logins themselves are real: `!login` through the balancer, the
 * throttle, the password check and the session written by whichever gateway answers.
 * `npm run bench:costs` measures a login at the service's own cost.
 */
import { randomBytes, scrypt } from 'node:crypto'
import type { Store, WriteOp } from '../../shared/store/types.js'
import { KEYS } from '../../gateway/catalog/records.js'
import { DEFAULT_COMPANY } from '../../gateway/catalog/users.js'
import { Connection } from './connection.js'

/** scrypt cost of the load users' hash (see the header). */
const LIGHT_COST = { N: 1024, r: 8, p: 1 } as const
/** Users written per Store batch. */
const SEED_CHUNK = 500

export const LOAD_PASSWORD = 'load-user-secret-1'

export const loadUid = (i: number): string => `load_${String(i).padStart(6, '0')}`

/** A hash in the format gateway/auth/password.ts writes, at LIGHT_COST. */
function lightHash(password: string): Promise<string> {
  const salt = randomBytes(16)
  return new Promise((resolve, reject) =>
    scrypt(password, salt, 32, LIGHT_COST, (err, key) =>
      err ? reject(err) : resolve(['scrypt', LIGHT_COST.N, LIGHT_COST.r, LIGHT_COST.p, salt.toString('base64'), key.toString('base64')].join('$')),
    ),
  )
}

/** Writes `count` active users of the default company, load_000000 onwards. */
export async function seedUsers(store: Store, count: number): Promise<void> {
  const passwordHash = await lightHash(LOAD_PASSWORD)
  const now = new Date().toISOString()
  for (let start = 0; start < count; start += SEED_CHUNK) {
    const uids = Array.from({ length: Math.min(SEED_CHUNK, count - start) }, (_, k) => loadUid(start + k))
    const ops: WriteOp[] = uids.map((uid) => ({
      op: 'set',
      key: KEYS.user(uid),
      value: JSON.stringify({
        uid,
        passwordHash,
        active: true,
        first: 'Load',
        middle: '',
        last: uid,
        email: `${uid}@example.com`,
        company: DEFAULT_COMPANY,
        roles: [],
        created: now,
        updated: now,
      }),
    }))
    ops.push({ op: 'sadd', key: KEYS.allUsers, members: uids })
    await store.batch(ops)
  }
}

/**
 * Logs every user in through `origin`, `parallel` logins at a time (each user logs in once, so the
 * throttle's per-user reservation never sees two at once), and returns the session cookies in
 * user order. Throws on the first login that fails: a load run without its sessions means nothing.
 */
export async function logIn(origin: string, apiPath: string, count: number, parallel: number): Promise<string[]> {
  const url = new URL(origin)
  const cookies = new Array<string>(count)
  let next = 0
  const worker = async (): Promise<void> => {
    const conn = new Connection(url.hostname, Number(url.port))
    try {
      for (let i = next++; i < count; i = next++) {
        const uid = loadUid(i)
        const body = JSON.stringify({ uid, pw: LOAD_PASSWORD, kill: 'no' })
        const out = await conn.sendCapturing({ kind: 'login', method: 'POST', path: `${apiPath}/!login:json`, cookie: '', body })
        if (out.error) throw new Error(`login of ${uid} failed: ${out.error}`)
        const c = JSON.parse(out.text) as { uid: string; sid: string; epw: string }
        cookies[i] = `session=${c.uid}|${c.sid}|${c.epw}`
      }
    } finally {
      conn.close()
    }
  }
  await Promise.all(Array.from({ length: parallel }, worker))
  return cookies
}
