/**
 * The progress of the query a page waits for: a bar fed by `!status` (indeterminate while the
 * fraction is unknown: SQL, or a service without `!status`), the elapsed time, and Stop, which
 * calls `!stop`. The page's own request decides when the query is over; `!status` only measures.
 */
import type { QueryStatus, StopAnswer } from '../../../shared/api-answers.js'
import { ApiError, getJson, postJson } from './api.js'
import { byId } from './dom.js'

const POLL_MS = 300
const TICK_MS = 100

/** How the query ended: the bar stays where it got to unless it finished. */
export type Outcome = 'done' | 'failed' | 'stopped'

/** "0.4 s", "12.3 s", "2 min 05 s". */
export function elapsedText(ms: number): string {
  const s = ms / 1000
  if (s < 60) return `${s.toFixed(1)} s`
  const whole = Math.floor(s)
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`
}

/** The outcome of a request that threw: the API answers a stopped query with code "stopped". */
export function outcomeOf(err: unknown): Outcome {
  return err instanceof ApiError && err.code === 'stopped' ? 'stopped' : 'failed'
}

export class QueryProgress {
  private readonly box = byId('progress-box')
  private readonly bar = byId<HTMLProgressElement>('progress')
  private readonly elapsed = byId('elapsed')
  private readonly detail = byId('progress-detail')
  private readonly stop = byId<HTMLButtonElement>('stop')
  private started = 0
  private ticker: number | undefined
  private poller: number | undefined
  /** Bumped by start and finish, so a status answer for an earlier run is dropped. */
  private generation = 0
  /** Whether the service answers `!status`; a 404 means it does not, and polling stops for good. */
  private statusKnown = true

  /**
   * @param endpoint the endpoint whose `!status` and `!stop` apply (`/v1/api/run`, `/v1/api/7`),
   *   or a function naming it when it changes (a page's own instance is made at its first Run)
   * @param onError where a failed `!stop` is reported
   */
  constructor(
    private readonly endpoint: string | (() => string),
    private readonly onError: (err: unknown) => void,
  ) {
    this.stop.addEventListener('click', () => this.requestStop())
  }

  private get base(): string {
    return typeof this.endpoint === 'string' ? this.endpoint : this.endpoint()
  }

  get running(): boolean {
    return this.ticker !== undefined
  }

  start(): void {
    const generation = ++this.generation
    this.started = performance.now()
    this.box.hidden = false
    this.bar.removeAttribute('value') // indeterminate until !status knows better
    this.detail.textContent = 'running'
    this.stop.disabled = false
    this.elapsed.textContent = elapsedText(0)
    clearInterval(this.ticker)
    this.ticker = window.setInterval(() => (this.elapsed.textContent = elapsedText(performance.now() - this.started)), TICK_MS)
    if (this.statusKnown) this.poll(generation)
  }

  finish(outcome: Outcome): void {
    this.generation++
    clearInterval(this.ticker)
    clearTimeout(this.poller)
    this.ticker = this.poller = undefined
    this.elapsed.textContent = elapsedText(performance.now() - this.started)
    if (outcome === 'done') this.bar.value = 1
    else if (!this.bar.hasAttribute('value')) this.bar.value = 0 // an indeterminate bar would go on moving
    this.detail.textContent = outcome
    // A focused Stop that turns disabled would drop keyboard focus to the page.
    if (document.activeElement === this.stop) this.focusAfterStop()
    this.stop.disabled = true
  }

  private poll(generation: number): void {
    this.poller = window.setTimeout(async () => {
      try {
        const status = await getJson<QueryStatus>(`${this.base}/!status:json`)
        if (generation !== this.generation) return
        this.show(status)
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) this.statusKnown = false
        // Any other failure of a progress read is not the query's: try again at the next tick.
      }
      if (generation === this.generation && this.statusKnown) this.poll(generation)
    }, POLL_MS)
  }

  private show(status: QueryStatus): void {
    if (status.fraction === null) this.bar.removeAttribute('value')
    else this.bar.value = Math.max(0, Math.min(1, status.fraction))
    const unit = status.unit === 'ops' ? 'operations' : (status.unit ?? '')
    this.detail.textContent = status.done !== null && status.total !== null ? `${status.done} of ${status.total} ${unit}`.trim() : 'running'
  }

  private requestStop(): void {
    if (!this.running) return
    this.detail.textContent = 'stopping…'
    postJson<StopAnswer>(`${this.base}/!stop:json`, {}).catch(this.onError)
  }

  /** Hands focus on to the page's main action (Run, Apply…) when Stop turns disabled. */
  private focusAfterStop(): void {
    const action = document.querySelector<HTMLButtonElement>('#workbench form button[type="submit"]')
    action?.focus()
  }
}
