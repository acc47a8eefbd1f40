/**
 * The line a running query shows on stderr: the time since it was sent and what `!status` says
 * of it (operations done of all, the share done, the engine). Drawn only on a terminal, redrawn
 * in place, and wiped when the query ends, so nothing of it reaches a log or a pipe.
 */
import type { QueryStatus } from '../client/index.js'
import type { ProgressSink } from './progress.js'

const DRAW_MS = 100
const POLL_MS = 400

/** "0.4 s", "12.3 s", "2 min 05 s": as the workbench shows it. */
export function elapsedText(ms: number): string {
  const s = ms / 1000
  if (s < 60) return `${s.toFixed(1)} s`
  const whole = Math.floor(s)
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`
}

/** The progress line for a status (null before the first answer). */
export function statusText(elapsedMs: number, status: QueryStatus | null): string {
  const parts = [`running ${elapsedText(elapsedMs)}`]
  if (status?.done != null && status.total != null) parts.push(`${status.done} of ${status.total} ${status.unit === 'ops' ? 'operations' : ''}`.trim())
  if (status?.fraction != null) parts.push(`${Math.round(status.fraction * 100)}%`)
  if (status?.engine) parts.push(status.engine)
  return `${parts.join(' · ')}  (Ctrl-C to stop)`
}

export class QueryProgress {
  private readonly started: number
  private status: QueryStatus | null = null
  private drawn = false
  private readonly drawTimer: NodeJS.Timeout | undefined
  private pollTimer: NodeJS.Timeout | undefined
  private ended = false

  /**
   * @param out stderr; nothing is drawn unless it is a terminal
   * @param poll reads `!status` of the endpoint the query runs on
   */
  constructor(
    private readonly out: ProgressSink,
    private readonly poll: () => Promise<QueryStatus>,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now()
    if (!out.isTTY) return
    this.drawTimer = setInterval(() => this.draw(), DRAW_MS)
    this.schedulePoll()
  }

  get elapsedMs(): number {
    return this.now() - this.started
  }

  private schedulePoll(): void {
    this.pollTimer = setTimeout(async () => {
      try {
        const status = await this.poll()
        // The query may have ended while status was on its way; the answer would say "not running".
        if (!this.ended && status.running) this.status = status
      } catch {
        // A failed progress read is not the query's failure: the next tick tries again.
      }
      if (!this.ended) this.schedulePoll()
    }, POLL_MS)
  }

  private draw(): void {
    this.out.write(`\r${statusText(this.elapsedMs, this.status)}\x1b[K`)
    this.drawn = true
  }

  /** Stops drawing and wipes the line; answers the elapsed milliseconds. */
  end(): number {
    this.ended = true
    clearInterval(this.drawTimer)
    clearTimeout(this.pollTimer)
    if (this.drawn) this.out.write('\r\x1b[K')
    return this.elapsedMs
  }
}
