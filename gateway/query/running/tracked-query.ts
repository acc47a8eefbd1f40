/**
 * One query a gateway runs under StopRegistry#track: its abort controller, and the early answer
 * a stop gives its caller.
 *
 * Why the caller is answered before the work is aborted: aborting a PoolRunner task terminates
 * its worker thread and spawns the replacement synchronously inside abort(), which measured 1 to
 * 26 ms on a loaded two-core machine. Rejecting first and aborting on the next turn of the event
 * loop lets the stopped request's response go out before that cost, and makes the stop latency
 * independent of how quickly `run` reacts to its signal.
 */
import type { AppError } from '../../../shared/errors.js'

export class TrackedQuery {
  private readonly controller = new AbortController()
  private reason: AppError | null = null
  private rejectStopped!: (reason: AppError) => void
  private readonly stopped = new Promise<never>((_, reject) => (this.rejectStopped = reject))

  constructor() {
    // Nobody awaits `stopped` when the query ends by itself.
    this.stopped.catch(() => undefined)
  }

  /** Handed to the work; aborted (with the stop's reason) just after the caller has its answer. */
  get signal(): AbortSignal {
    return this.controller.signal
  }

  get isStopped(): boolean {
    return this.reason !== null
  }

  /** Rejects the query's caller with `reason` now; the first stop wins, later ones do nothing. */
  stop(reason: AppError): void {
    if (this.reason) return
    this.reason = reason
    this.rejectStopped(reason)
  }

  /** Runs the work unless already stopped; settles as the work does, or with the stop's reason as soon as it comes. */
  run<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.reason) return Promise.reject(this.reason)
    const running = work(this.signal)
    // If the stop wins the race, the work's late outcome must not become an unhandled rejection.
    running.catch(() => undefined)
    return Promise.race([running, this.stopped])
  }

  /** After the caller was answered: aborts a stopped query's work on the next turn of the event loop. */
  abortIfStopped(): void {
    const reason = this.reason
    if (reason) setImmediate(() => this.controller.abort(reason))
  }
}
