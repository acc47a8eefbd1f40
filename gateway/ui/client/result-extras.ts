/**
 * What a query page adds to its result table beyond paging: the totals row (totals.ts) with its
 * switch, and the chart (chart-view.ts). Both follow the result view (its onShown and onHidden)
 * and read the whole result's raw values once between them (whole-result.ts).
 */
import { byId, make } from './dom.js'
import type { ShownResult } from './result-view.js'
import { ChartView } from './chart-view.js'
import { clearTotals, isSummed, showTotals, TOTALS_MAX_ROWS } from './totals.js'
import { readWhole } from './whole-result.js'

export class ResultExtras {
  private readonly table = byId<HTMLTableElement>('result')
  private readonly totalsLabel: HTMLLabelElement
  private readonly totalsBox: HTMLInputElement
  private readonly chart: ChartView
  private shown: ShownResult | null = null
  private summed: boolean[] = []
  private generation = 0
  /** The break columns of the query last run (totals.ts tabulationBreaks); a tabulation starts with totals on. */
  breaks: ReadonlySet<string> = new Set()

  constructor(private readonly onError: (err: unknown) => void) {
    const toolbar = byId('result-box').querySelector<HTMLElement>('.pager') ?? byId('result-box')
    this.totalsBox = make('input')
    this.totalsBox.type = 'checkbox'
    this.totalsBox.id = 'totals-toggle'
    this.totalsLabel = make('label', undefined, 'totals-switch')
    this.totalsLabel.append(this.totalsBox, ' Totals')
    this.totalsLabel.title = 'A row with the sum of each numeric column over the whole result'
    this.totalsLabel.hidden = true
    toolbar.append(this.totalsLabel)
    this.totalsBox.addEventListener('change', () => this.renderTotals())
    this.chart = new ChartView(toolbar, byId('result-box').querySelector<HTMLElement>('.table-wrap') ?? this.table, onError)
  }

  /** ResultView's onShown. */
  shownResult(shown: ShownResult): void {
    if (!shown.fresh) return
    this.shown = shown
    this.summed = shown.columns.map((c, i) => isSummed(c, i, shown.numeric[i], this.breaks))
    const offered = shown.total > 0 && shown.total <= TOTALS_MAX_ROWS && this.summed.some(Boolean)
    this.totalsLabel.hidden = !offered
    if (!offered) this.totalsBox.checked = false
    else if (this.breaks.size > 0) this.totalsBox.checked = true
    this.renderTotals()
    this.chart.update(shown)
  }

  /** ResultView's onHidden. */
  hidden(): void {
    this.generation++
    this.shown = null
    this.totalsLabel.hidden = true
    clearTotals(this.table)
    this.chart.hide()
  }

  private renderTotals(): void {
    const generation = ++this.generation
    clearTotals(this.table)
    const shown = this.shown
    if (shown === null || !this.totalsBox.checked || this.totalsLabel.hidden) return
    readWhole(shown.source, shown.total, shown.resultId).then((whole) => {
      if (generation === this.generation) showTotals(this.table, shown.columns, this.summed, whole.rows)
    }, this.onError)
  }
}
