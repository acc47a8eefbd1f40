/**
 * When this gateway last restarted a session's idle timer (the Store TTL of its keys), so that a
 * busy session is not written to on every request: the timer is restarted at most once per
 * interval per session and gateway. The session is still read from the Store on every request
 * (a logout anywhere counts at once); the only effect is that a session may expire up to one
 * interval sooner than SESSION_TTL after its very last request. The interval is a hundredth of
 * SESSION_TTL, and at most a second, so that difference stays below one per cent.
 */
import { BoundedMap } from '../cache/bounded-map.js'

/** Sessions remembered; a forgotten one is simply touched at its next request. */
const MAX_SESSIONS = 10_000

/** At most this long between restarts of a busy session's timer. */
export const MAX_TOUCH_INTERVAL_MS = 1000

export function touchIntervalMs(ttlSeconds: number): number {
  return Math.min(MAX_TOUCH_INTERVAL_MS, (ttlSeconds * 1000) / 100)
}

export class IdleTouches {
  readonly #touchedAt = new BoundedMap<string, number>(MAX_SESSIONS)

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** True when the timer of `sid` should be restarted now (it then counts as restarted). */
  due(sid: string): boolean {
    const t = this.now()
    const at = this.#touchedAt.get(sid)
    if (at !== undefined && t - at < this.intervalMs) return false
    this.#touchedAt.delete(sid)
    this.#touchedAt.set(sid, t)
    return true
  }

  /** After a failed restart (so the next request tries again) or the session's end. */
  forget(sid: string): void {
    this.#touchedAt.delete(sid)
  }
}
