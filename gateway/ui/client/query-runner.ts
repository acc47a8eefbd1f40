/**
 * Running a query page's queries and showing what came of them: the page's own instance
 * (page-instance.ts), sorting by a header (sort.ts), the outcome — a result, an error, a stopped
 * query (a neutral notice, not an error), a result over the row limit (an offer to show its first
 * rows, truncated) — and the result's extras (totals, chart). The editor only hands over the text.
 */
import { ApiError, messageOf, postAndDrop, postAndReadStart } from './api.js'
import { byId, make } from './dom.js'
import { ErrorBox } from './messages.js'
import { PageInstance, RESULT_ID_HEADER } from './page-instance.js'
import { outcomeOf, QueryProgress } from './progress.js'
import { ResultExtras } from './result-extras.js'
import { ResultView, type ResultSource } from './result-view.js'
import { nextSort, sortableHead, sortedQuery, type SortOrder } from './sort.js'
import { tabulationBreaks } from './totals.js'

export interface RunnerOptions {
  readonly app: 'sql' | 'run'
  /** The parameter holding the query (`sql`, `xml`). */
  readonly param: string
  /** The instance's endpoint when the page is an instance's; null when the page makes its own. */
  readonly fixedBase: string | null
  readonly from: string
  readonly to: string
  /** The button that starts a run (disabled while one runs). */
  readonly runButton: HTMLButtonElement
}

/** The start of a `truncate_=1` answer: `{"truncated":true,"total_rows":N,"rows":K,…`. */
export function truncationOf(start: string): { truncated: boolean; totalRows: number; rows: number } | null {
  const m = /^\s*\{"truncated":(true|false),"total_rows":(\d+),"rows":(\d+)/.exec(start)
  return m === null ? null : { truncated: m[1] === 'true', totalRows: Number(m[2]), rows: Number(m[3]) }
}

const n = (x: number): string => x.toLocaleString('en-US')

/** A run as asked: the text the user ran, the order added by header clicks, and whether to truncate. */
interface Run {
  readonly text: string
  readonly order: SortOrder | null
  readonly truncate: boolean
}

export class QueryRunner {
  private readonly errors = new ErrorBox()
  private readonly notice: HTMLElement
  private readonly instance: PageInstance
  private readonly progress: QueryProgress
  private readonly view: ResultView
  private readonly extras: ResultExtras
  /** The run that produced the result shown; header clicks re-run its text. */
  private last: Run | null = null
  /** The run whose result is being read now (its order marks the headers drawn meanwhile). */
  private loading: Run | null = null

  constructor(private readonly opts: RunnerOptions) {
    this.notice = byId('notice')
    this.instance = new PageInstance(opts.app, opts.fixedBase)
    this.progress = new QueryProgress(
      () => this.instance.current ?? '',
      (err) => this.report(err),
    )
    this.extras = new ResultExtras((err) => this.report(err))
    this.view = new ResultView((err) => this.report(err), {
      decorateHead: sortableHead(
        () => (this.loading ?? this.last)?.order ?? null,
        (index, name) => this.sortBy(index, name),
      ),
      onShown: (shown) => this.extras.shownResult(shown),
      onHidden: () => this.extras.hidden(),
    })
  }

  /** Runs `text` as the user wrote it (no order, no truncation). */
  run(text: string): void {
    void this.execute({ text, order: null, truncate: false }, false)
  }

  get running(): boolean {
    return this.progress.running
  }

  private sortBy(index: number, name: string): void {
    if (this.last === null || this.running) return
    // The table stays while the sorted result is computed (a failed or stopped run leaves the
    // kept result as it was), and focus returns to the header clicked.
    void this.execute({ ...this.last, order: nextSort(this.last.order, index, name) }, true).then(() =>
      document.querySelector<HTMLButtonElement>(`#result thead th:nth-child(${index + 1}) button.sort`)?.focus(),
    )
  }

  private source(base: string): ResultSource {
    return { base, from: this.opts.from, to: this.opts.to }
  }

  /** Runs `run`; `keepView`: the result shown stays until the new one replaces it. */
  private async execute(run: Run, keepView: boolean): Promise<void> {
    if (this.progress.running) return
    this.errors.clear()
    this.clearNotice()
    if (!keepView) this.view.hide()
    this.opts.runButton.disabled = true
    this.progress.start()
    try {
      const base = await this.instance.endpoint()
      const body: Record<string, string> = { [this.opts.param]: sortedQuery(this.opts.app, run.text, run.order) }
      this.extras.breaks = tabulationBreaks(this.opts.app, run.text)
      let headers: Headers
      let cut: ReturnType<typeof truncationOf> = null
      if (run.truncate) {
        const answer = await postAndReadStart(`${base}:json`, { ...body, truncate_: '1' })
        headers = answer.headers
        cut = truncationOf(answer.start)
      } else {
        headers = await postAndDrop(`${base}:json`, body)
      }
      this.loading = run
      await this.view.load(this.source(base), headers.get(RESULT_ID_HEADER))
      this.last = run
      this.progress.finish('done')
      if (cut?.truncated)
        this.showNotice(`Truncated: showing the first ${n(cut.rows)} of ${n(cut.totalRows)} rows; the rest is over the service's result limit.`, 'truncated')
    } catch (err) {
      this.progress.finish(outcomeOf(err))
      this.report(err, run)
    } finally {
      this.loading = null
      this.opts.runButton.disabled = false
    }
  }

  /** Shows what went wrong where it belongs: a stop as a notice, a result too large with its offer, the rest as errors. */
  private report(err: unknown, run?: Run): void {
    const gone = this.instance.explain(err)
    if (gone !== null) {
      this.errors.show(gone)
      return
    }
    if (outcomeOf(err) === 'stopped') {
      this.showNotice(`Stopped: ${messageOf(err)}`, 'stopped')
      return
    }
    this.errors.show(err)
    if (err instanceof ApiError && err.code === 'result_too_large' && run !== undefined && !run.truncate) this.offerTruncated(run)
  }

  private offerTruncated(run: Run): void {
    const button = make('button', 'Show the first rows (truncated)')
    button.type = 'button'
    button.id = 'run-truncated'
    button.addEventListener('click', () => void this.execute({ ...run, truncate: true }, false))
    const p = make('p', 'The result is over the service’s limit. ', 'offer')
    p.append(button)
    this.notice.replaceChildren(p)
    this.notice.dataset.kind = 'offer'
    this.notice.hidden = false
  }

  private showNotice(text: string, kind: string): void {
    this.notice.textContent = text
    this.notice.dataset.kind = kind
    this.notice.hidden = false
  }

  private clearNotice(): void {
    this.notice.replaceChildren()
    delete this.notice.dataset.kind
    this.notice.hidden = true
  }
}
