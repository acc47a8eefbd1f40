/**
 * The progress line of `upload` on stderr: rows so far, rows per second and, when the input's
 * size is known, the share done and the time left. On a terminal it is redrawn in place a few
 * times a second; otherwise (a log file) a line is written every few seconds, so logs stay short.
 */

export interface ProgressSink {
  readonly isTTY?: boolean
  write(text: string): unknown
}

export class Progress {
  private readonly started = Date.now()
  private last = 0
  private drawn = false

  constructor(
    private readonly out: ProgressSink,
    /** Bytes of input in all, or null (stdin). */
    private readonly totalBytes: number | null,
    private readonly now: () => number = Date.now,
  ) {}

  /** Rows per second and seconds left for `rows` stored after `bytes` of input were read. */
  rates(rows: number, bytes: number): { rowsPerSecond: number; secondsLeft: number | null; fraction: number | null } {
    const seconds = Math.max(0.001, (this.now() - this.started) / 1000)
    const fraction = this.totalBytes ? Math.min(1, bytes / this.totalBytes) : null
    const secondsLeft = fraction && fraction > 0 ? (seconds * (1 - fraction)) / fraction : null
    return { rowsPerSecond: rows / seconds, secondsLeft, fraction }
  }

  update(rows: number, bytes: number, force = false): void {
    const t = this.now()
    if (!force && t - this.last < (this.out.isTTY ? 200 : 5000)) return
    this.last = t
    const { rowsPerSecond, secondsLeft, fraction } = this.rates(rows, bytes)
    const parts = [`${rows.toLocaleString('en-US')} rows`, `${Math.round(rowsPerSecond).toLocaleString('en-US')} rows/s`]
    if (fraction !== null) parts.push(`${(fraction * 100).toFixed(1)}%`)
    if (secondsLeft !== null) parts.push(`${clock(secondsLeft)} left`)
    const text = parts.join('  ')
    if (this.out.isTTY) {
      this.out.write(`\r${text}\x1b[K`)
      this.drawn = true
    } else {
      this.out.write(`${text}\n`)
    }
  }

  /** Ends the line in place, so what follows starts on a fresh line. */
  finish(message: string): void {
    if (this.drawn) this.out.write('\r\x1b[K')
    this.out.write(`${message}\n`)
  }
}

/** Seconds as m:ss or h:mm:ss. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const ss = String(s % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`
}
