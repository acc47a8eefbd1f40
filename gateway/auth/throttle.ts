/**
 * The login throttle. Failed logins are counted in the Store, so every gateway sees the same
 * counts:
 *
 *   throttle:login:pair:{uid}:{address}  attempts on one user id from one client address
 *   throttle:login:addr:{address}        failed logins from one client address, over all user ids
 *   throttle:login:uid:{uid}             failed logins on one user id, from every address
 *   throttle:login:known:{uid}:{address} the user id logged in from this address recently
 *
 * The user id is throttled per address (LOGIN_MAX_FAILURES), never globally: five wrong
 * passwords sent from the attacker's address must not lock the real user out of theirs. An
 * address that fails too often over any user ids is throttled whole (LOGIN_MAX_FAILURES_PER_ADDRESS).
 * Guessing one user id's password from many addresses at once is bounded by the count over all
 * addresses (LOGIN_MAX_FAILURES_PER_USER): past it, only addresses that user logged in from in the
 * last KNOWN_ADDRESS_DAYS days may still try, so the real user at their usual place keeps access
 * while the attack runs.
 *
 * Each counter starts its window with its first count and expires with it (LOGIN_WINDOW_SECONDS):
 * a fixed window, so a throttled client knows exactly when to come back (Retry-After is the
 * counter's remaining TTL) and refused attempts do not prolong it.
 *
 * The pair counter is incremented *before* the password is checked, as a reservation, and
 * deleted by a successful login: otherwise a burst of parallel guesses would all pass the check
 * before the first failure was counted. The cost is that more than LOGIN_MAX_FAILURES correct
 * logins of one user from one address at the very same moment can see a 429. The address and
 * user-wide counters are only read before and incremented after a failure, because successful
 * logins must not use them up.
 *
 * A throttled login is refused before its password is checked, so the right password gets the
 * same 429 as a wrong one: the throttle never tells an attacker which guess was right. Unknown
 * user ids are counted the same way (in this namespace only, never as user records), so neither
 * the answers nor the timing tell which user ids exist.
 */
import { createHash } from 'node:crypto'
import { AppError } from '../../shared/errors.js'
import type { Store } from '../../shared/store/types.js'

export const THROTTLE_PREFIX = 'throttle:login:'

/** Short, plain text stays readable; anything else (a 10 kB "uid") is hashed to keep keys small. */
function keyPart(text: string): string {
  if (/^[A-Za-z0-9_.:-]{1,64}$/.test(text)) return text
  return '#' + createHash('sha256').update(text).digest('hex').slice(0, 32)
}

/** How long a successful login keeps its address trusted for that user id (see the header). */
export const KNOWN_ADDRESS_DAYS = 30

export const THROTTLE_KEYS = {
  pair: (uid: string, address: string) => `${THROTTLE_PREFIX}pair:${keyPart(uid)}:${keyPart(address)}`,
  address: (address: string) => `${THROTTLE_PREFIX}addr:${keyPart(address)}`,
  user: (uid: string) => `${THROTTLE_PREFIX}uid:${keyPart(uid)}`,
  known: (uid: string, address: string) => `${THROTTLE_PREFIX}known:${keyPart(uid)}:${keyPart(address)}`,
} as const

export interface ThrottleLimits {
  /** LOGIN_MAX_FAILURES: failures of one user id from one address. */
  readonly maxFailuresPerUser: number
  /** LOGIN_MAX_FAILURES_PER_ADDRESS: failures from one address over all user ids. */
  readonly maxFailuresPerAddress: number
  /** LOGIN_MAX_FAILURES_PER_USER: failures of one user id from all addresses, before only known addresses may try. */
  readonly maxFailuresAnywhere: number
  /** LOGIN_WINDOW_SECONDS */
  readonly windowSeconds: number
}

export type ThrottleScope = 'user' | 'address' | 'anywhere'

/** Told once per window when a user id or an address becomes throttled (for the log). */
export type ThrottleListener = (event: { scope: ThrottleScope; address: string; seconds: number }) => void

const REFUSALS: Record<ThrottleScope, string> = {
  user: 'Too many failed logins for this user id from your address',
  address: 'Too many failed logins from your address',
  anywhere: 'Too many failed logins for this user id from many addresses; only addresses it logged in from before may try now',
}

export class LoginThrottle {
  constructor(
    private readonly store: Store,
    private readonly limits: ThrottleLimits,
    private readonly onThrottle: ThrottleListener = () => undefined,
  ) {}

  /**
   * Call before the password is checked: refuses (429 TOO_MANY_REQUESTS with retryAfterSeconds)
   * when the address, the user id from this address, or the user id from unknown addresses is
   * throttled, and otherwise reserves one attempt of the (user id, address) pair.
   */
  async begin(uid: string, address: string): Promise<void> {
    const addressKey = THROTTLE_KEYS.address(address)
    const userKey = THROTTLE_KEYS.user(uid)
    const [addressFailures, userFailures] = (await this.store.mget([addressKey, userKey])).map((v) => Number(v ?? 0))
    if (addressFailures >= this.limits.maxFailuresPerAddress) throw this.refusal('address', await this.secondsLeft(addressKey))
    if (userFailures >= this.limits.maxFailuresAnywhere && (await this.store.get(THROTTLE_KEYS.known(uid, address))) === null) {
      throw this.refusal('anywhere', await this.secondsLeft(userKey))
    }
    const pairKey = THROTTLE_KEYS.pair(uid, address)
    const attempts = await this.count(pairKey)
    if (attempts > this.limits.maxFailuresPerUser) {
      const seconds = await this.secondsLeft(pairKey)
      if (attempts === this.limits.maxFailuresPerUser + 1) this.onThrottle({ scope: 'user', address, seconds })
      throw this.refusal('user', seconds)
    }
  }

  /** The password was wrong (or the account unusable): the pair keeps its reserved attempt. */
  async failed(uid: string, address: string): Promise<void> {
    const key = THROTTLE_KEYS.address(address)
    const [failures, anywhere] = await Promise.all([this.count(key), this.count(THROTTLE_KEYS.user(uid))])
    if (failures === this.limits.maxFailuresPerAddress) this.onThrottle({ scope: 'address', address, seconds: await this.secondsLeft(key) })
    if (anywhere === this.limits.maxFailuresAnywhere) this.onThrottle({ scope: 'anywhere', address, seconds: await this.secondsLeft(THROTTLE_KEYS.user(uid)) })
  }

  /**
   * The password was right: the pair starts afresh and the address becomes known for the user id.
   * The address and user-wide counts stay: they bound guessing, which a success does not undo.
   */
  async succeeded(uid: string, address: string): Promise<void> {
    await this.store.del(THROTTLE_KEYS.pair(uid, address))
    await this.store.set(THROTTLE_KEYS.known(uid, address), '1', { ttl: KNOWN_ADDRESS_DAYS * 24 * 3600 })
  }

  /** Adds one to a counter; the first count starts its window. */
  private async count(key: string): Promise<number> {
    const n = await this.store.incr(key)
    if (n === 1) await this.store.expire(key, this.limits.windowSeconds)
    return n
  }

  /**
   * Seconds until the counter's window ends. A counter without a TTL (a gateway died between
   * incr and expire) would throttle forever, so it is given a full window now.
   */
  private async secondsLeft(key: string): Promise<number> {
    const ttl = await this.store.ttl(key)
    if (ttl > 0) return ttl
    if (ttl === -1) await this.store.expire(key, this.limits.windowSeconds)
    return ttl === -1 ? this.limits.windowSeconds : 1
  }

  private refusal(scope: ThrottleScope, seconds: number): AppError {
    const unit = seconds === 1 ? 'second' : 'seconds'
    return new AppError('TOO_MANY_REQUESTS', `${REFUSALS[scope]}; try again in ${seconds} ${unit}.`, { retryAfterSeconds: seconds })
  }
}
