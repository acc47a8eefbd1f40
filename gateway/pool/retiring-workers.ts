/**
 * The gateway's side of engine/retire.ts: a shared table where workers on their way out write
 * their thread id, and a Piscina load balancer that never hands a task to them. Without it, a
 * task queued behind the last one of a retiring worker could be posted to it in the instant
 * before it exits, and fail with "worker exited" (500) through no fault of its own.
 */
import type { Piscina } from 'piscina'

type Balancer = NonNullable<ConstructorParameters<typeof Piscina>[0]>['loadBalancer']

/** Room for this many workers retiring at once; a worker that finds no free slot stays (see below). */
const SLOTS = 256

export class RetiringWorkers {
  readonly table = new Int32Array(new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT))

  /** Thread ids marked now. */
  marked(): number[] {
    const ids: number[] = []
    for (let i = 0; i < this.table.length; i++) {
      const id = Atomics.load(this.table, i)
      if (id !== 0) ids.push(id)
    }
    return ids
  }

  isRetiring(threadId: number): boolean {
    for (let i = 0; i < this.table.length; i++) if (Atomics.load(this.table, i) === threadId) return true
    return false
  }

  /** Frees the slot of a worker that is gone. */
  forget(threadId: number): void {
    for (let i = 0; i < this.table.length; i++) Atomics.compareExchange(this.table, i, threadId, 0)
  }

  /**
   * Piscina's default policy for one task per worker (the first idle worker), minus the retiring
   * ones. (Should the table ever be full, a swollen worker stays in service until a later task
   * finds a free slot; nothing fails.)
   */
  balancer(): Balancer {
    return ((_task: unknown, workers: readonly { id: number; currentUsage: number }[]) => {
      for (const w of workers) if (w.currentUsage === 0 && !this.isRetiring(w.id)) return w
      return null
    }) as Balancer
  }
}
