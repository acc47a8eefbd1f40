/**
 * Fair sharing of one gateway's workers between users (issue 16): the order in which tasks get a
 * worker, and when a worker is taken back from a user who holds more than their share.
 *
 * Why not first come, first served: one user with a few long queries held every worker, and every
 * other user's query waited behind them until it timed out (504) or the queue was full (429).
 *
 * The policy:
 *  - Each user has a queue of their waiting tasks, served in arrival order. When a worker is free,
 *    the next task is the oldest one of the user who holds the fewest workers now; among equals,
 *    the user served longest ago. So users take turns, and a user with nothing running goes first.
 *  - Tasks cannot be paused, so turns alone would leave a newcomer waiting until one of the busy
 *    user's tasks ends, however long that is. Hence preemption: while a task waits and every
 *    worker is busy, if some user holds at least two workers more than the waiting task's user,
 *    that user's youngest task (least work lost) is stopped, which ends its worker thread (Piscina
 *    starts another), and is put back at the head of its user's queue; it starts again from the
 *    beginning when its user's turn comes. Tasks are pure functions of their input (DESIGN
 *    principle 1), so running one again gives the same answer and loses nothing but time.
 *  - A task is only taken back after it has run for a time slice (SLICE_MS), doubled each time the
 *    same task was taken back before: short tasks just finish, a newcomer waits about one slice
 *    in the usual case, and a long task taken back over and over still gets enough time to end.
 *  - With nobody waiting nothing is taken back: one user alone may use every worker (a split
 *    query's parts run on all of them at once), as before.
 *
 * It holds no threads itself: `start` hands the task to the pool with the signal to stop it by.
 */

/** How long a task runs at least before its worker may be taken back for another user. */
export const SLICE_MS = 250

/** One task, from its arrival until it settles. */
interface Turn {
  readonly user: string
  /** The caller's signal (stop, time limit): while it waits, aborting it drops the task. */
  readonly signal: AbortSignal
  readonly start: (signal: AbortSignal) => Promise<unknown>
  readonly resolve: (value: unknown) => void
  readonly reject: (reason: unknown) => void
  /** Aborts the current attempt while the task holds a worker; null while it waits. */
  attempt: AbortController | null
  /** When the current attempt started (performance.now()). */
  startedAt: number
  /** Times this task was taken back from its worker. */
  preemptions: number
  /** On `signal`: drops the task while it waits, stops its attempt while it runs; removed once it settles. */
  onAbort: () => void
}

export class FairShare {
  /** Waiting tasks per user, oldest first; a user without waiting tasks has no entry. */
  private readonly queues = new Map<string, Turn[]>()
  /** Tasks holding a worker. */
  private readonly holding = new Set<Turn>()
  /** Workers each user holds now. */
  private readonly held = new Map<string, number>()
  /** When each user was last given a worker (a serial number), for turns among equals. */
  private readonly lastServed = new Map<string, number>()
  private served = 0
  private waitingCount = 0
  private preempted = 0
  /** Wakes the scheduler when a task that may be taken back reaches its slice. */
  private timer: NodeJS.Timeout | null = null

  constructor(
    private readonly workers: number,
    private readonly sliceMs = SLICE_MS,
  ) {}

  /** Tasks waiting for a worker. */
  get waiting(): number {
    return this.waitingCount
  }

  /** Tasks taken back from their worker so far (metrics). */
  get preemptions(): number {
    return this.preempted
  }

  /**
   * Runs `start` when it is `user`'s turn, with a signal that aborts when `signal` does or when
   * the worker is taken back (then `start` runs again later, and only the last attempt's outcome
   * counts). Rejects with `signal.reason` if it aborts while the task waits.
   */
  run<T>(user: string, signal: AbortSignal, start: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason)
      const turn: Turn = {
        user,
        signal,
        start,
        resolve: resolve as (v: unknown) => void,
        reject,
        attempt: null,
        startedAt: 0,
        preemptions: 0,
        onAbort: () => undefined,
      }
      // One listener for the task's whole life, rather than an AbortSignal.any per attempt: that
      // is far slower and, on a signal shared by many tasks, piles up.
      turn.onAbort = () => {
        if (this.dequeue(turn)) reject(signal.reason)
        else turn.attempt?.abort(signal.reason)
      }
      signal.addEventListener('abort', turn.onAbort, { once: true })
      this.enqueue(turn, false)
      this.schedule()
    })
  }

  private enqueue(turn: Turn, atHead: boolean): void {
    const queue = this.queues.get(turn.user)
    if (queue === undefined) this.queues.set(turn.user, [turn])
    else if (atHead) queue.unshift(turn)
    else queue.push(turn)
    this.waitingCount++
  }

  /** Removes a waiting task; false when it is not waiting (it holds a worker or has settled). */
  private dequeue(turn: Turn): boolean {
    const queue = this.queues.get(turn.user)
    const at = queue?.indexOf(turn) ?? -1
    if (queue === undefined || at < 0) return false
    queue.splice(at, 1)
    if (queue.length === 0) this.queues.delete(turn.user)
    this.waitingCount--
    return true
  }

  private heldBy(user: string): number {
    return this.held.get(user) ?? 0
  }

  /** The user whose task gets the next free worker: fewest workers held, then served longest ago. */
  private nextUser(): string | undefined {
    let best: string | undefined
    for (const user of this.queues.keys()) {
      if (best === undefined) {
        best = user
        continue
      }
      const d = this.heldBy(user) - this.heldBy(best)
      if (d < 0 || (d === 0 && (this.lastServed.get(user) ?? -1) < (this.lastServed.get(best) ?? -1))) best = user
    }
    return best
  }

  /** Gives free workers to waiting tasks in turn, then takes a worker back if the share is off. */
  private schedule(): void {
    for (;;) {
      while (this.holding.size < this.workers) {
        const user = this.nextUser()
        if (user === undefined) {
          this.disarm()
          return
        }
        const turn = this.queues.get(user)![0]
        this.dequeue(turn)
        this.begin(turn)
      }
      if (!this.takeBack()) return
    }
  }

  private begin(turn: Turn): void {
    const attempt = new AbortController()
    turn.attempt = attempt
    turn.startedAt = performance.now()
    this.holding.add(turn)
    this.held.set(turn.user, this.heldBy(turn.user) + 1)
    this.lastServed.set(turn.user, this.served++)
    const settle = (ok: boolean, value: unknown) => {
      // A taken-back attempt's end (the worker was stopped) is not the task's outcome.
      if (turn.attempt !== attempt) return
      this.release(turn)
      // A signal shared by many tasks (the parts of a split query) must not collect listeners.
      turn.signal.removeEventListener('abort', turn.onAbort)
      if (ok) turn.resolve(value)
      else turn.reject(value)
      this.schedule()
    }
    let started: Promise<unknown>
    try {
      started = turn.start(attempt.signal)
    } catch (err) {
      started = Promise.reject(err)
    }
    started.then(
      (value) => settle(true, value),
      (err: unknown) => settle(false, err),
    )
  }

  private release(turn: Turn): void {
    turn.attempt = null
    this.holding.delete(turn)
    const n = this.heldBy(turn.user) - 1
    if (n > 0) this.held.set(turn.user, n)
    else this.held.delete(turn.user)
    if (this.held.size === 0 && this.queues.size === 0) this.lastServed.clear()
  }

  /**
   * Every worker is busy and a task waits: takes back the youngest task of the user holding the
   * most workers, when they hold at least two more than the waiting user and it has had its
   * slice. Answers whether it took one back; when the task is too young, wakes up at its slice.
   */
  private takeBack(): boolean {
    const waiter = this.nextUser()
    if (waiter === undefined) return false
    let top: string | undefined
    for (const user of this.held.keys()) if (top === undefined || this.heldBy(user) > this.heldBy(top)) top = user
    if (top === undefined || this.heldBy(top) < this.heldBy(waiter) + 2) return this.disarm()
    let victim: Turn | undefined
    for (const t of this.holding) if (t.user === top && (victim === undefined || t.startedAt > victim.startedAt)) victim = t
    if (victim === undefined) return this.disarm()
    const slice = this.sliceMs * 2 ** Math.min(victim.preemptions, 16)
    const left = victim.startedAt + slice - performance.now()
    if (left > 0) {
      this.arm(left)
      return false
    }
    const attempt = victim.attempt!
    this.release(victim)
    victim.preemptions++
    this.preempted++
    this.enqueue(victim, true)
    attempt.abort(new Error('the worker was taken back for another user'))
    return true
  }

  private arm(ms: number): void {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      this.timer = null
      this.schedule()
    }, Math.ceil(ms))
    // Housekeeping: pending tasks keep the process alive, this timer need not.
    this.timer.unref()
  }

  private disarm(): false {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    return false
  }
}
