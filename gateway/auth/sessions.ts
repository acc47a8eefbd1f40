/**
 * Sessions in the Store. A user has at most one live session (as in 1010data); logging in again
 * joins it (`kill=possess`, the default), replaces it (`kill=yes`) or is refused (`kill=no`).
 *
 *   sess:{sid}       JSON SessionRecord, expires after SESSION_TTL idle seconds
 *   user-sess:{uid}  the user's live sid, same lifetime
 *   sessdata:{sid}   hash of per-session state (last results of api/sql, api/run…), same lifetime
 *
 * The record and the user's pointer are written side by side, not in one transaction: on a Redis
 * Cluster they live in different slots (the session's and the user's hash tag,
 * shared/store/redis-cluster-keys.ts). Nothing needs them together: a pointer to a session that is
 * gone, or a session the pointer does not name (yet), reads as "no live session" at the next login.
 *
 * The epw token is random and only its SHA-256 is stored, so a copy of the Store does not let
 * anyone in. sid is a digit string, as clients expect; the epw makes the pair unguessable.
 */
import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import { AppError } from '../../shared/errors.js'
import type { Store } from '../../shared/store/types.js'
import { IdleTouches, touchIntervalMs } from './idle-touches.js'
import type { SessionRecord } from './session-record.js'
import { sha256Hex as sha256, SessionTexts, TokenHashes } from './session-memos.js'

export interface Credentials {
  readonly uid: string
  readonly sid: string
  readonly epw: string
}

export type KillMode = 'yes' | 'no' | 'possess'

/** How many epw tokens one session keeps (each possessing login adds one). */
const MAX_TOKENS = 16

export const SESSION_KEYS = {
  session: (sid: string) => `sess:${sid}`,
  userSession: (uid: string) => `user-sess:${uid}`,
  data: (sid: string) => `sessdata:${sid}`,
} as const

/** 15 random digits: below 2^53, so clients that turn the sid into a number keep it exact. */
function newSid(): string {
  return String(randomInt(1, 10)) + Array.from({ length: 14 }, () => randomInt(0, 10)).join('')
}

/** Looks like the vendor's tokens: a run of underscores, then hex (here 192 random bits). */
const newEpw = (): string => '_______' + randomBytes(24).toString('hex')

export class SessionManager {
  /** Parses of session texts and hashes of presented tokens: pure, so never stale. */
  readonly #texts = new SessionTexts()
  readonly #tokens = new TokenHashes()
  readonly #touches: IdleTouches

  constructor(
    private readonly store: Store,
    private readonly ttl: number,
    /** Drops what else belongs to an ended session (its instances). */
    private readonly onEnd: (sid: string) => Promise<void> = async () => undefined,
    /** The least time between two restarts of one session's idle timer by this gateway. */
    touchEveryMs: number = touchIntervalMs(ttl),
  ) {
    this.#touches = new IdleTouches(touchEveryMs)
  }

  private async read(sid: string): Promise<SessionRecord | null> {
    const raw = await this.store.get(SESSION_KEYS.session(sid))
    return raw === null ? null : (JSON.parse(raw) as SessionRecord)
  }

  private async save(rec: SessionRecord): Promise<void> {
    const { presentedEpwHash: _notStored, ...stored } = rec
    await Promise.all([
      this.store.set(SESSION_KEYS.session(rec.sid), JSON.stringify(stored), { ttl: this.ttl }),
      this.store.set(SESSION_KEYS.userSession(rec.uid), rec.sid, { ttl: this.ttl }),
    ])
  }

  /** Starts or joins the user's session after the password has been checked. */
  async login(uid: string, kill: KillMode): Promise<Credentials> {
    const epw = newEpw()
    const currentSid = await this.store.get(SESSION_KEYS.userSession(uid))
    const current = currentSid === null ? null : await this.read(currentSid)
    if (current) {
      if (kill === 'no')
        throw new AppError('ALREADY_LOGGED_IN', `User "${uid}" already has a session; log in with kill=yes to end it or kill=possess to join it.`)
      if (kill === 'possess') {
        const epwHashes = [...current.epwHashes, sha256(epw)].slice(-MAX_TOKENS)
        await this.save({ ...current, epwHashes })
        return { uid, sid: current.sid, epw }
      }
      await this.end(current.sid)
    }
    for (;;) {
      const sid = newSid()
      const rec: SessionRecord = { uid, sid, epwHashes: [sha256(epw)], created: new Date().toISOString() }
      // nx: a colliding sid (one in 10^14) must never take over somebody else's session.
      if (await this.store.set(SESSION_KEYS.session(sid), JSON.stringify(rec), { ttl: this.ttl, nx: true })) {
        await this.store.set(SESSION_KEYS.userSession(uid), sid, { ttl: this.ttl })
        return { uid, sid, epw }
      }
    }
  }

  /** The session the credentials belong to, with its idle timer restarted; null when invalid. */
  async authenticate(c: Credentials): Promise<SessionRecord | null> {
    const found = await this.authenticateReading(c, [])
    if (found === null) return null
    await found.touched
    return found.session
  }

  /**
   * As authenticate, but in one round trip with the session it reads `alsoKeys` (the caller's
   * user record, say), and without waiting for the idle timer's restart: `touched` settles when
   * it is done, so the caller can do its next reads meanwhile and await both. The record is read
   * on every call; the timer is restarted at most once per touch interval (idle-touches.ts).
   */
  async authenticateReading(
    c: Credentials,
    alsoKeys: readonly string[],
  ): Promise<{ session: SessionRecord; also: (string | null)[]; touched: Promise<void> } | null> {
    if (!/^\d{1,20}$/.test(c.sid) || c.epw.length === 0 || c.epw.length > 256) return null
    const [raw, ...also] = await this.store.mget([SESSION_KEYS.session(c.sid), ...alsoKeys])
    if (raw === null) return null
    const { record: rec, hashes } = this.#texts.parse(raw)
    if (rec.uid !== c.uid) return null
    const presented = this.#tokens.of(c.epw)
    const known = hashes.some((h) => h.length === presented.bytes.length && timingSafeEqual(h, presented.bytes))
    if (!known) return null
    return { session: { ...rec, presentedEpwHash: presented.hex }, also, touched: this.#touch(rec) }
  }

  /** Restarts the idle timer of the session's keys, unless this gateway did so just now. */
  #touch(rec: SessionRecord): Promise<void> {
    if (!this.#touches.due(rec.sid)) return Promise.resolve()
    // The session's keys together; the user's pointer (another cluster slot) beside them.
    const touched = Promise.all([
      this.store.batch([
        { op: 'expire', key: SESSION_KEYS.session(rec.sid), ttl: this.ttl },
        { op: 'expire', key: SESSION_KEYS.data(rec.sid), ttl: this.ttl },
      ]),
      this.store.expire(SESSION_KEYS.userSession(rec.uid), this.ttl),
    ]).then(
      () => undefined,
      (err: unknown) => {
        // Not restarted after all: the next request of the session tries again.
        this.#touches.forget(rec.sid)
        throw err
      },
    )
    // Awaited by the caller; this only keeps an early failure elsewhere from leaving it unhandled.
    touched.catch(() => undefined)
    return touched
  }

  /** Ends a session: its credentials stop working and its state is dropped. */
  async end(sid: string): Promise<void> {
    const rec = await this.read(sid)
    const keys = [SESSION_KEYS.session(sid), SESSION_KEYS.data(sid)]
    if (rec && (await this.store.get(SESSION_KEYS.userSession(rec.uid))) === sid) keys.push(SESSION_KEYS.userSession(rec.uid))
    await this.store.del(...keys)
    this.#touches.forget(sid)
    await this.onEnd(sid)
  }

  /** Ends the user's live session, if any (deactivation, a password reset by an administrator). */
  async endUser(uid: string): Promise<void> {
    const sid = await this.store.get(SESSION_KEYS.userSession(uid))
    if (sid !== null) await this.end(sid)
  }

  /**
   * After a user changed their own password: the token of this request keeps working (with the
   * session's state and instances), every other client that joined the session by logging in
   * is logged out. Without a known token (not from authenticate), the whole session ends.
   */
  async keepOnlyPresentedToken(session: SessionRecord): Promise<void> {
    const current = await this.read(session.sid)
    const token = session.presentedEpwHash
    if (current === null || token === undefined || !current.epwHashes.includes(token)) return this.endUser(session.uid)
    await this.save({ ...current, epwHashes: [token] })
  }

  /** Per-session state (the last result of each endpoint). */
  async getData(sid: string, field: string): Promise<string | null> {
    return this.store.hget(SESSION_KEYS.data(sid), field)
  }

  async setData(sid: string, field: string, value: string): Promise<void> {
    await this.store.batch([
      { op: 'hset', key: SESSION_KEYS.data(sid), fields: { [field]: value } },
      { op: 'expire', key: SESSION_KEYS.data(sid), ttl: this.ttl },
    ])
  }
}
