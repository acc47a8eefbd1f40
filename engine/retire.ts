/**
 * A worker leaving the pool on its own, without failing a task. It marks its thread id in a
 * shared table that the gateway's load balancer reads before handing out a task
 * (gateway/pool/retiring-workers.ts); the mark is written before the worker answers its current task,
 * so by the time the gateway sees the answer and looks for a worker for the next task, this one
 * is already skipped. The gateway then terminates the thread and Piscina starts a fresh one in
 * its place. (The worker cannot end itself after answering: between tasks Piscina parks its
 * thread in a blocking Atomics.wait, where no timer of ours would ever run.)
 */
import { isMainThread, threadId } from 'node:worker_threads'

/** What the gateway hands every worker (Piscina `workerData`). */
export interface WorkerSetup {
  /** SQL_MEMORY_MB. */
  readonly sqlMemoryMb: number
  /** Thread ids of workers on their way out; 0 = a free slot. */
  readonly retiring: Int32Array
}

let leaving = false

/** Marks this worker as retiring; the gateway ends its thread once it has the current task's answer. */
export function retireThisWorker(retiring: Int32Array | undefined): void {
  // In the gateway's own thread (InlineRunner in tests) there is no worker to replace.
  if (isMainThread || leaving) return
  leaving = true
  if (retiring === undefined) return
  for (let i = 0; i < retiring.length; i++) {
    if (Atomics.compareExchange(retiring, i, 0, threadId) === 0) return
  }
}
