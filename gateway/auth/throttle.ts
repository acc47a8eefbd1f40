/**
 * The login throttle. Failed logins are counted in the Store, so every gateway sees the same
 * counts:
 *
 *   throttle:login:uid:{uid}       attempts on one user id (existing or not) in the window
 *   throttle:login:addr:{address}  failed logins from one client address in the window
 *
 * Each counter starts its window with its first count and expires with it (LOGIN_WINDOW_SECONDS):
 * a fixed window, so a throttled client knows exactly when to come back (Retry-After is the
 * counter's remaining TTL) and refused attempts do not prolong it.
 *
 * The user id counter is incremented *before* the password is checked, as a reservation, and
 * deleted by a successful login: otherwise a burst of parallel guesses would all pass the check
 * before the first failure was counted. The cost is that more than LOGIN_MAX_FAILURES correct
 * logins of one user at the very same moment can see a 429. The address counter is only read
 * before and incremented after a failure, because successful logins must not use it up.
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

export const THROTTLE_KEYS = {
  user: (uid: string) => `${THROTTLE_PREFIX}uid:${keyPart(uid)}`,
  address: (address: string) => `${THROTTLE_PREFIX}addr:${keyPart(address)}`,
} as const

export interface ThrottleLimits {
  /** LOGIN_MAX_FAILURES */
  readonly maxFailuresPerUser: number
  /** LOGIN_MAX_FAILURES_PER_ADDRESS */
  readonly maxFailuresPerAddress: number
  /** LOGIN_WINDOW_SECONDS */
  readonly windowSeconds: number
}

export type ThrottleScope = 'user' | 'address'

/** Told once per window when a user id or an address becomes throttled (for the log). */
export type ThrottleListener = (event: { scope: ThrottleScope; address: string; seconds: number }) => void

const REFUSALS: Record<ThrottleScope, string> = {
  user: 'Too many failed logins for this user id',
  address: 'Too many failed logins from your address',
}

export class LoginThrottle {
  constructor(
    private readonly store: Store,
    private readonly limits: ThrottleLimits,
    private readonly onThrottle: ThrottleListener = () => undefined,
  ) {}

  /**
   * Call before the password is checked: refuses (429 TOO_MANY_REQUESTS with retryAfterSeconds)
   * when the address or the user id is throttled, and otherwise reserves one attempt of the uid.
   */
  async begin(uid: string, address: string): Promise<void> {
    const addressKey = THROTTLE_KEYS.address(address)
    const addressFailures = Number((await this.store.get(addressKey)) ?? 0)
    if (addressFailures >= this.limits.maxFailuresPerAddress) throw this.refusal('address', await this.secondsLeft(addressKey))
    const userKey = THROTTLE_KEYS.user(uid)
    const attempts = await this.count(userKey)
    if (attempts > this.limits.maxFailuresPerUser) {
      const seconds = await this.secondsLeft(userKey)
      if (attempts === this.limits.maxFailuresPerUser + 1) this.onThrottle({ scope: 'user', address, seconds })
      throw this.refusal('user', seconds)
    }
  }

  /** The password was wrong (or the account unusable): the uid keeps its reserved attempt. */
  async failed(address: string): Promise<void> {
    const key = THROTTLE_KEYS.address(address)
    const failures = await this.count(key)
    if (failures === this.limits.maxFailuresPerAddress) this.onThrottle({ scope: 'address', address, seconds: await this.secondsLeft(key) })
  }

  /** The password was right: the user id starts afresh. The address keeps its count. */
  async succeeded(uid: string): Promise<void> {
    await this.store.del(THROTTLE_KEYS.user(uid))
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
