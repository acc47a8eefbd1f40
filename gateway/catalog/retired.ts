/**
 * Table versions the catalog no longer points at (replaced, dropped) are not deleted at once: a
 * query on another gateway may be reading them, and a session may still hold a recipe naming
 * them. The change that retires a version records it, in the same atomic batch, with the time;
 * a sweeper on every gateway deletes versions retired longer than the grace period ago.
 */
import { removeTableVersion } from '../../engine/storage/index.js'
import type { Store, WriteOp } from '../../shared/store/types.js'
import { KEYS } from './records.js'

export const retireVersionOp = (version: string): WriteOp => ({ op: 'hset', key: KEYS.retiredVersions, fields: { [version]: new Date().toISOString() } })

/** Deletes versions retired before `now - graceMs`; returns the versions deleted. */
export async function sweepRetiredVersions(store: Store, dataDir: string, graceMs: number, now = Date.now()): Promise<string[]> {
  const retired = await store.hgetall(KEYS.retiredVersions)
  const due = Object.entries(retired).filter(([, at]) => Date.parse(at) <= now - graceMs).map(([version]) => version)
  for (const version of due) {
    // Several gateways may sweep at once: removal is idempotent, and so is the hdel.
    await removeTableVersion(dataDir, version)
    await store.hdel(KEYS.retiredVersions, version)
  }
  return due
}

export class RetiredVersionSweeper {
  private timer: NodeJS.Timeout | null = null
  private running: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly store: Store,
    private readonly dataDir: string,
    private readonly graceMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(intervalMs = 60_000): void {
    this.timer = setInterval(() => {
      this.running = sweepRetiredVersions(this.store, this.dataDir, this.graceMs).catch(this.onError)
    }, intervalMs)
    this.timer.unref()
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.running
  }
}
