/**
 * Fair sharing of one gateway's workers between users (issues 16 and 36): the order in which
 * tasks get a worker, and when a worker is taken back from one user for another.
 *
 * Why not first come, first served: one user with a few long queries held every worker, and every
 * other user's query waited behind them until it timed out (504) or the queue was full (429).
 *
 * The policy ranks users by their recent worker time: the milliseconds their tasks held a worker,
 * decaying by half every USAGE_HALF_LIFE_MS (running tasks count as they go). A user who ran
 * little lately ranks before one who ran a lot, whatever either does next.
 *  - Each user has a queue of their waiting tasks, served in arrival order. A free worker goes to
 *    the oldest task of the user holding the fewest workers now; among equals, the one with the
 *    least recent worker time.
 *  - Tasks cannot be paused, so turns alone would leave a newcomer waiting until one of a busy
 *    user's tasks ends, however long that is. Hence taking back: while a task waits, the youngest
 *    task (least work lost) of the user who holds at least two workers more than the waiting
 *    user, or at least one more and over SHARE_RATIO times the waiting user's recent worker time
 *    (plus a slice), is stopped, which ends its worker thread (Piscina starts another), and put
 *    back at the head of its user's queue; it starts again from the beginning when its user's
 *    turn comes. Tasks are pure functions of their input (DESIGN principle 1), so running one
 *    again gives the same answer and loses nothing but time. Recent times move while nothing
 *    starts or ends, so a waiting task looks again every slice.
 *  - Both sides wait first: the task taken back has run a slice (SLICE_MS) in its attempt, and
 *    the waiting task has waited WAIT_MS (another user's short task usually ends sooner, and then
 *    nothing is lost). The slice is fixed: an earlier version doubled it each time the same task
 *    was taken back, so a newcomer's wait grew without bound the longer a hog ran.
 *  - A user who lost a worker is benched, and so is every user as busy (over SHARE_RATIO times the
 *    taker's recent time): they may hold no more workers than they then held, unless another
 *    worker stays free, until the other users have left the freed worker unused for BENCH_MS (or
 *    for BENCH_MAX_MS at most). Without it the task taken back restarted the moment the
 *    newcomer's small query ended and was taken back again at the next one, ending and starting
 *    a thread (about 250 ms of CPU) for every small query. Hogs still take turns: a benched hog
 *    takes a worker back from a running one by the same rule (once that one's recent time is over
 *    twice its own), so the worker the light users use stays theirs.
 *  - With nobody waiting nothing is taken back: one user alone may use every worker (a split
 *    query's parts run on all of them at once), as before.
 *
 * So a small query from a user with little recent worker time waits about WAIT_MS, at most a
 * slice, plus a thread switch for a worker however long the hogs have run, and a hog keeps its
 * other workers.
 * It holds no threads itself: `start` hands the task to the pool with the signal to stop it by.
 */

/** How long a task runs before its worker may be taken back for another user. */
export const SLICE_MS = 250
/** How long a task waits before a worker is taken back for it (another user's short task usually ends sooner). */
export const WAIT_MS = 100
/** Recent worker time halves this often. */
export const USAGE_HALF_LIFE_MS = 60_000
/**
 * A user holding one worker more than a waiting user loses one when their recent worker time is
 * over this many times the waiting user's: a newcomer or a light user gets a worker from a hog,
 * but two hogs do not take one from each other back and forth (each would lose its work).
 */
export const SHARE_RATIO = 2
/** A benched user stays benched while others used its lost worker within this time... */
export const BENCH_MS = 1_000
/**
 * ...but no longer than this after it lost it: a safety valve. Hogs take turns without it (a
 * benched hog takes a busier hog's worker once that one's recent time is over twice its own).
 */
export const BENCH_MAX_MS = 600_000

export interface FairShareTimings {
  readonly sliceMs: number
  readonly waitMs: number
  readonly usageHalfLifeMs: number
  readonly shareRatio: number
  readonly benchMs: number
  readonly benchMaxMs: number
}

export const DEFAULT_TIMINGS: FairShareTimings = {
  sliceMs: SLICE_MS,
  waitMs: WAIT_MS,
  usageHalfLifeMs: USAGE_HALF_LIFE_MS,
  shareRatio: SHARE_RATIO,
  benchMs: BENCH_MS,
  benchMaxMs: BENCH_MAX_MS,
}

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
  /** When the current attempt started, or when the task began to wait (performance.now()). */
  startedAt: number
  /** On `signal`: drops the task while it waits, stops its attempt while it runs; removed once it settles. */
  onAbort: () => void
}

/** A user who lost a worker: they may hold at most `keep` workers until `until`. */
interface Bench {
  readonly keep: number
  readonly since: number
  until: number
}

/** Worker time that decays: `ms` as of `at`. */
interface Usage {
  ms: number
  at: number
}

export class FairShare {
  /** Waiting tasks per user, oldest first; a user without waiting tasks has no entry. */
  private readonly queues = new Map<string, Turn[]>()
  /** Tasks holding a worker. */
  private readonly holding = new Set<Turn>()
  /** Workers each user holds now. */
  private readonly held = new Map<string, number>()
  /** Each user's finished worker time, decaying; running attempts are added when read. */
  private readonly usage = new Map<string, Usage>()
  private readonly benched = new Map<string, Bench>()
  private waitingCount = 0
  private preempted = 0
  /** Wakes the scheduler when a slice or a bench ends. */
  private timer: NodeJS.Timeout | null = null
  private timerAt = Number.POSITIVE_INFINITY
  private readonly t: FairShareTimings

  constructor(
    private readonly workers: number,
    timings: Partial<FairShareTimings> = {},
  ) {
    this.t = { ...DEFAULT_TIMINGS, ...timings }
  }

  /** Tasks waiting for a worker. */
  get waiting(): number {
    return this.waitingCount
  }

  /** Tasks taken back from their worker so far (metrics). */
  get preemptions(): number {
    return this.preempted
  }

  /** A user's recent worker time in ms, running tasks included (tests, metrics). */
  recentMs(user: string, now = performance.now()): number {
    let ms = this.decayed(user, now)
    for (const t of this.holding) if (t.user === user) ms += now - t.startedAt
    return ms
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
        startedAt: performance.now(),
        onAbort: () => undefined,
      }
      // One listener for the task's whole life, rather than an AbortSignal.any per attempt: that
      // is far slower and, on a signal shared by many tasks, piles up.
      turn.onAbort = () => {
        if (this.dequeue(turn)) {
          reject(signal.reason)
          this.schedule()
        } else turn.attempt?.abort(signal.reason)
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

  private decayed(user: string, now: number): number {
    const u = this.usage.get(user)
    return u === undefined ? 0 : u.ms * 2 ** (-(now - u.at) / this.t.usageHalfLifeMs)
  }

  private charge(user: string, ms: number, now: number): void {
    this.usage.set(user, { ms: this.decayed(user, now) + ms, at: now })
    // Forget users whose time has decayed to nothing, so the map stays as small as the active set.
    if (this.usage.size > 4 * this.workers + 64)
      for (const [u, v] of this.usage) if (v.ms * 2 ** (-(now - v.at) / this.t.usageHalfLifeMs) < 1 && !this.held.has(u)) this.usage.delete(u)
  }

  /**
   * Whether `user` may take a free worker now. A benched user may not beyond the workers they
   * kept, unless another worker stays free after it: the bench keeps one worker for the others,
   * not every worker (two hogs benched at once left both idle for light users who needed one).
   */
  private mayStart(user: string, now: number): boolean {
    const bench = this.benched.get(user)
    if (bench === undefined) return true
    if (now >= bench.until) {
      this.benched.delete(user)
      return true
    }
    return this.heldBy(user) < bench.keep || this.workers - this.holding.size >= 2
  }

  /** Of the users with waiting tasks (and allowed to start, with `startable`): fewest workers held, then least recent time. */
  private bestWaiter(now: number, startable: boolean): string | undefined {
    let best: string | undefined
    let bestHeld = 0
    let bestMs = 0
    for (const user of this.queues.keys()) {
      if (startable && !this.mayStart(user, now)) continue
      const held = this.heldBy(user)
      const ms = this.recentMs(user, now)
      if (best === undefined || held < bestHeld || (held === bestHeld && ms < bestMs)) {
        best = user
        bestHeld = held
        bestMs = ms
      }
    }
    return best
  }

  /** Gives free workers to waiting tasks in turn, then takes a worker back if the share is off. */
  private schedule(): void {
    this.disarm()
    for (;;) {
      const now = performance.now()
      while (this.holding.size < this.workers) {
        const user = this.bestWaiter(now, true)
        if (user === undefined) break
        const turn = this.queues.get(user)![0]
        this.dequeue(turn)
        this.begin(turn, now)
      }
      if (this.queues.size === 0) return
      // Every worker busy, or the free one kept from benched users: a worker may be owed to a
      // waiting user (a benched hog takes its turn from a busier hog this way).
      if (this.takeBack(now)) continue
      if (this.holding.size < this.workers) this.wakeForBench()
      return
    }
  }

  private begin(turn: Turn, now: number): void {
    const attempt = new AbortController()
    turn.attempt = attempt
    turn.startedAt = now
    this.holding.add(turn)
    this.held.set(turn.user, this.heldBy(turn.user) + 1)
    // Another user is using the worker a benched user lost: the bench lasts on.
    for (const [user, bench] of this.benched)
      if (user !== turn.user && this.queues.has(user)) bench.until = Math.max(bench.until, Math.min(now + this.t.benchMs, bench.since + this.t.benchMaxMs))
    const settle = (ok: boolean, value: unknown) => {
      // A taken-back attempt's end (the worker was stopped) is not the task's outcome.
      if (turn.attempt !== attempt) return
      this.release(turn, performance.now())
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

  private release(turn: Turn, now: number): void {
    turn.attempt = null
    this.holding.delete(turn)
    this.charge(turn.user, now - turn.startedAt, now)
    const n = this.heldBy(turn.user) - 1
    if (n > 0) this.held.set(turn.user, n)
    else this.held.delete(turn.user)
  }

  /**
   * Every worker is busy and a task waits: takes back the youngest task of the user who holds at
   * least two workers more than the waiting user, or one more and over SHARE_RATIO times its recent time,
   * once that task has run a slice and the waiting task has waited one. Answers whether it took
   * one back; otherwise wakes up when the slices would be over.
   */
  private takeBack(now: number): boolean {
    const waiter = this.bestWaiter(now, false)
    if (waiter === undefined) return false
    const waiterHeld = this.heldBy(waiter)
    const waiterMs = this.recentMs(waiter, now)
    let victimUser: string | undefined
    let victimHeld = 0
    let victimMs = 0
    for (const [user, held] of this.held) {
      if (user === waiter) continue
      const ms = this.recentMs(user, now)
      const owes = held >= waiterHeld + 2 || (held >= waiterHeld + 1 && ms > this.t.shareRatio * waiterMs + this.t.sliceMs)
      if (owes && (victimUser === undefined || held > victimHeld || (held === victimHeld && ms > victimMs))) {
        victimUser = user
        victimHeld = held
        victimMs = ms
      }
    }
    if (victimUser === undefined) {
      // Nobody owes a worker now, but recent times move (the running users' grow, the waiter's
      // decays): look again in a slice, since no task need start or end meanwhile.
      this.wakeAt(now + this.t.sliceMs)
      return false
    }
    let victim: Turn | undefined
    for (const t of this.holding) if (t.user === victimUser && (victim === undefined || t.startedAt > victim.startedAt)) victim = t
    const waited = this.queues.get(waiter)![0].startedAt
    const ready = Math.max(victim!.startedAt + this.t.sliceMs, waited + this.t.waitMs)
    if (ready > now) {
      this.wakeAt(ready)
      return false
    }
    const attempt = victim!.attempt!
    this.release(victim!, now)
    this.preempted++
    // The task runs again later: its wait for that starts now.
    victim!.startedAt = now
    this.enqueue(victim!, true)
    // After the enqueue, so that the user who lost the worker is among those benched.
    this.benchBusierThan(waiter, waiterMs, now)
    attempt.abort(new Error('the worker was taken back for another user'))
    return true
  }

  /**
   * After a worker was taken back for `waiter`: the user who lost it, and every other user with
   * over SHARE_RATIO times the waiter's recent time, may hold no more workers than they hold now
   * while others keep using the freed one. Otherwise the freed worker went to another hog's
   * waiting task as soon as the waiter's small task ended, and the next small task had to take it
   * back again.
   */
  private benchBusierThan(waiter: string, waiterMs: number, now: number): void {
    const users = new Set([...this.held.keys(), ...this.queues.keys()])
    for (const user of users) {
      if (user === waiter || this.recentMs(user, now) <= this.t.shareRatio * waiterMs + this.t.sliceMs) continue
      const old = this.benched.get(user)
      // A bench that goes on keeps its start, so that BENCH_MAX_MS bounds it as a whole.
      const since = old !== undefined && now < old.until ? old.since : now
      this.benched.set(user, { keep: this.heldBy(user), since, until: Math.min(now + this.t.benchMs, since + this.t.benchMaxMs) })
    }
  }

  /** A free worker is kept from benched users: wake when the first bench ends. */
  private wakeForBench(): void {
    let first = Number.POSITIVE_INFINITY
    for (const [user, bench] of this.benched) if (this.queues.has(user)) first = Math.min(first, bench.until)
    if (first < Number.POSITIVE_INFINITY) this.wakeAt(first)
  }

  private wakeAt(at: number): void {
    if (this.timer !== null && this.timerAt <= at) return
    this.disarm()
    this.timerAt = at
    this.timer = setTimeout(
      () => {
        this.timer = null
        this.timerAt = Number.POSITIVE_INFINITY
        this.schedule()
      },
      Math.max(1, Math.ceil(at - performance.now())),
    )
    // Housekeeping: pending tasks keep the process alive, this timer need not.
    this.timer.unref()
  }

  private disarm(): void {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    this.timerAt = Number.POSITIVE_INFINITY
  }
}
