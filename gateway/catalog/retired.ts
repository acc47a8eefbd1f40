/**
 * Table versions the catalog no longer points at (replaced, dropped). The change that retires a
 * version records it, in the same atomic batch, with the time; a sweeper on every gateway removes
 * the folder as soon as nothing can still read it, so a dropped table's space comes back at once
 * (it used to wait SESSION_TTL + 1 min, 61 minutes by default, even across restarts).
 *
 * Who can still read a retired version's files:
 *  - a load in progress on this gateway (TableCache.isReading): the sweeper skips that version
 *    and takes it on a later pass. Queries read files only while loading them into shared memory;
 *    a query running on loaded columns does not need the folder any more;
 *  - a load in progress on another gateway sharing DATA_DIR (Redis store only): it resolved the
 *    version just before the retirement and opens the files within moments. The version is kept
 *    for `graceMs` (RETIRED_GRACE_SECONDS) after its retirement for those. A count of readers
 *    kept in the Store was the alternative; it costs Store calls on every load and leaks counts
 *    when a gateway dies, for a window that lasts milliseconds. With the embedded store there is
 *    one gateway, and no grace;
 *  - a kept recipe (a session's last query, re-run for `!data` when its result is no longer
 *    kept): it now gets a clear 404 asking to run the query again (version-gone.ts), instead of
 *    pinning gigabytes of dropped tables for an hour.
 */
import { removeTableVersion } from '../../engine/index.js'
import type { Store, WriteOp } from '../../shared/store/types.js'
import { KEYS } from './records.js'

export const retireVersionOp = (version: string): WriteOp => ({ op: 'hset', key: KEYS.retiredVersions, fields: { [version]: new Date().toISOString() } })

/** Whether this gateway is reading the version's files right now. */
export type IsReading = (version: string) => boolean

/** Removes versions retired before `now - graceMs` that this gateway is not reading; returns them. */
export async function sweepRetiredVersions(
  store: Store,
  dataDir: string,
  graceMs: number,
  now = Date.now(),
  isReading: IsReading = () => false,
): Promise<string[]> {
  const retired = await store.hgetall(KEYS.retiredVersions)
  const due = Object.entries(retired)
    .filter(([version, at]) => Date.parse(at) <= now - graceMs && !isReading(version))
    .map(([version]) => version)
  for (const version of due) {
    // Several gateways may sweep at once: removal is idempotent, and so is the hdel.
    await removeTableVersion(dataDir, version)
    await store.hdel(KEYS.retiredVersions, version)
  }
  return due
}

/** How often the sweeper looks: one small Store read (HGETALL of a usually empty hash). */
const SWEEP_INTERVAL_MS = 1_000

export class RetiredVersionSweeper {
  private timer: NodeJS.Timeout | null = null
  private running: Promise<unknown> = Promise.resolve()
  private busy = false

  constructor(
    private readonly store: Store,
    private readonly dataDir: string,
    private readonly graceMs: number,
    private readonly onError: (err: unknown) => void,
    private readonly isReading: IsReading = () => false,
  ) {}

  /** Sweeps now (at start: versions retired before a restart go at once) and then every interval. */
  start(intervalMs = SWEEP_INTERVAL_MS): void {
    this.sweep()
    this.timer = setInterval(() => this.sweep(), intervalMs)
    this.timer.unref()
  }

  /** One pass, unless one is still running. */
  sweep(): Promise<unknown> {
    if (this.busy) return this.running
    this.busy = true
    this.running = sweepRetiredVersions(this.store, this.dataDir, this.graceMs, Date.now(), this.isReading)
      .catch(this.onError)
      .finally(() => (this.busy = false))
    return this.running
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.running
  }
}
