/**
 * Clean-ups that a Store outage interrupted, tried again until they succeed or are moot.
 *
 * A query that ends while Redis is away cannot remove its running record or give back its
 * session slot. Both have a TTL, so they would go by themselves, but until then the record says
 * "running" to `!status` and `!stop` (a `!stop` then answers `stopped` for a query that no longer
 * runs, while the next copy, not yet registered, misses the message and runs on), and the slot
 * counts against MAX_QUERIES_PER_SESSION. Trying again every second puts that right within a
 * second of Redis coming back instead of up to a TTL later.
 */

/** How often an interrupted clean-up is tried again. */
export const CLEANUP_RETRY_MS = 1000

/**
 * Runs `attempt` every `everyMs` until it answers true or the time `until` (epoch ms) passes,
 * one attempt at a time. The timer never keeps the process alive.
 */
export function retryCleanup(attempt: () => Promise<boolean>, until: number, everyMs = CLEANUP_RETRY_MS): void {
  let busy = false
  const timer = setInterval(() => {
    if (Date.now() >= until) return clearInterval(timer)
    if (busy) return
    busy = true
    attempt()
      .then(
        (done) => done && clearInterval(timer),
        () => undefined,
      )
      .finally(() => (busy = false))
  }, everyMs)
  timer.unref()
}
