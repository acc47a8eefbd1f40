/**
 * A chart of a small result: bar, line or scatter, of one y column against an x column the user
 * picks. Offered when the whole result has at most CHART_MAX_ROWS rows and a numeric column.
 * The chart plots raw numbers (whole-result.ts reads them without `values_=formatted`; a
 * formatted `$1,234.50` is no number), while the x labels of bar and line charts are the x
 * column's display text, as the table shows it.
 *
 * Chart.js draws it: maintained (v4), draws on a <canvas> (thousands of points stay one element),
 * and needs no inline script or style — it sets sizes through the CSSOM (element.style), which
 * the page's Content-Security-Policy (`style-src 'self'`) allows, and uses no eval. It is bundled
 * into the page's script by esbuild, registered piece by piece so only the charts used are in it.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartData,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  ScatterController,
  Tooltip,
} from 'chart.js'
import { displayFormatter } from '../../format/display/index.js'
import { getJsonAnswer } from './api.js'
import type { ColumnInfo } from './cells.js'
import { make } from './dom.js'
import type { ShownResult } from './result-view.js'
import { readWhole } from './whole-result.js'

Chart.register(BarController, BarElement, LineController, LineElement, PointElement, ScatterController, CategoryScale, LinearScale, Tooltip, Legend)

export const CHART_MAX_ROWS = 1000

/** The workbench's accent colour (workbench.css --accent); a canvas cannot read CSS variables by itself. */
const COLORS = { backgroundColor: 'rgba(31, 95, 191, 0.75)', borderColor: '#1f5fbf' }

export type ChartKind = 'bar' | 'line' | 'scatter'

/** A raw value as a number for the chart; N/A and text as null (a gap). */
export function chartNumber(v: unknown): number | null {
  const x = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN
  return Number.isFinite(x) ? x : null
}

/** What Chart.js is given for one choice of chart, x and y: pure, so it can be checked without a canvas. */
export function chartData(
  kind: ChartKind,
  rows: readonly (readonly unknown[])[],
  labels: readonly string[],
  x: number,
  y: number,
  yLabel: string,
): ChartData<ChartKind, (number | null | { x: number; y: number })[], string> {
  if (kind === 'scatter') {
    const points = rows.map((r) => ({ x: chartNumber(r[x]), y: chartNumber(r[y]) })).filter((p): p is { x: number; y: number } => p.x !== null && p.y !== null)
    return { datasets: [{ label: yLabel, data: points, ...COLORS }] }
  }
  return { labels: [...labels], datasets: [{ label: yLabel, data: rows.map((r) => chartNumber(r[y])), ...COLORS }] }
}

/**
 * The chart's caption, for everyone (a canvas says nothing to a screen reader): how many points
 * it plots and the range of y, shown through y's column format as the table shows it.
 */
export function chartSummary(values: readonly (number | null)[], column: ColumnInfo, yLabel: string, xLabel: string): string {
  const numbers = values.filter((v): v is number => v !== null)
  if (numbers.length === 0) return `No numbers to plot in ${yLabel}.`
  const show = displayFormatter({ kind: column.type ?? 'f', format: column.format, cutAt: null })
  const min = numbers.reduce((a, b) => (b < a ? b : a))
  const max = numbers.reduce((a, b) => (b > a ? b : a))
  return `${numbers.length} ${numbers.length === 1 ? 'point' : 'points'} of ${yLabel} by ${xLabel}; ${yLabel} from ${show(min)} to ${show(max)}.`
}

interface Controls {
  readonly box: HTMLElement
  readonly toggle: HTMLButtonElement
  readonly kind: HTMLSelectElement
  readonly x: HTMLSelectElement
  readonly y: HTMLSelectElement
  readonly canvas: HTMLCanvasElement
  readonly summary: HTMLElement
}

function select(id: string, label: string): [HTMLLabelElement, HTMLSelectElement] {
  const sel = make('select')
  sel.id = id
  const lab = make('label', `${label} `)
  lab.append(sel)
  return [lab, sel]
}

function option(sel: HTMLSelectElement, value: string, text: string): void {
  const o = make('option', text)
  o.value = value
  sel.append(o)
}

/**
 * The chart panel of a result view: a "Chart" toggle in `toolbar` and, below the table, the
 * kind, x and y pickers and the canvas.
 */
export class ChartView {
  private readonly els: Controls
  private chart: Chart | null = null
  private shown: ShownResult | null = null
  private generation = 0

  constructor(
    toolbar: HTMLElement,
    after: HTMLElement,
    private readonly onError: (err: unknown) => void,
  ) {
    const toggle = make('button', 'Chart')
    toggle.type = 'button'
    toggle.id = 'chart-toggle'
    toggle.setAttribute('aria-expanded', 'false')
    toggle.setAttribute('aria-controls', 'chart-box')
    toggle.hidden = true
    toolbar.append(toggle)
    const box = make('section', undefined, 'chart-box')
    box.id = 'chart-box'
    box.setAttribute('aria-label', 'Chart')
    box.hidden = true
    const [kindLabel, kind] = select('chart-kind', 'Chart')
    option(kind, 'bar', 'Bar')
    option(kind, 'line', 'Line')
    option(kind, 'scatter', 'Scatter')
    const [xLabel, x] = select('chart-x', 'x')
    const [yLabel, y] = select('chart-y', 'y')
    const controls = make('div', undefined, 'chart-controls')
    controls.append(kindLabel, xLabel, yLabel)
    const wrap = make('div', undefined, 'chart-wrap')
    const canvas = make('canvas')
    canvas.id = 'chart'
    canvas.setAttribute('role', 'img')
    wrap.append(canvas)
    const summary = make('p', '', 'chart-summary')
    summary.id = 'chart-summary'
    canvas.setAttribute('aria-describedby', 'chart-summary')
    box.append(controls, wrap, summary)
    after.after(box)
    this.els = { box, toggle, kind, x, y, canvas, summary }
    toggle.addEventListener('click', () => this.setOpen(box.hidden))
    for (const sel of [kind, x, y]) sel.addEventListener('change', () => this.draw())
  }

  /** Offers the chart for a new result when it is small and has a number; keeps the choices when the columns stay. */
  update(shown: ShownResult): void {
    if (!shown.fresh) return
    const numeric = shown.columns.map((c, i) => c.type !== 'a' && shown.numeric[i])
    const fits = shown.total > 0 && shown.total <= CHART_MAX_ROWS && numeric.some(Boolean)
    this.shown = fits ? shown : null
    this.els.toggle.hidden = !fits
    if (!fits) {
      this.setOpen(false)
      return
    }
    this.fillPickers(shown.columns, numeric)
    if (!this.els.box.hidden) this.draw()
  }

  hide(): void {
    this.shown = null
    this.els.toggle.hidden = true
    this.setOpen(false)
  }

  private setOpen(open: boolean): void {
    this.els.box.hidden = !open
    this.els.toggle.setAttribute('aria-expanded', String(open))
    if (open) this.draw()
    else {
      this.generation++
      this.chart?.destroy()
      this.chart = null
    }
  }

  /** x: any column (the first that is no number, else the first); y: a numeric column (the first other than x). */
  private fillPickers(columns: readonly ColumnInfo[], numeric: readonly boolean[]): void {
    const { x, y } = this.els
    const names = columns.map((c) => c.name).join('\n')
    if (x.dataset.columns === names && y.options.length > 0) return
    x.dataset.columns = names
    x.replaceChildren()
    y.replaceChildren()
    columns.forEach((c, i) => {
      const text = c.label.replace(/\s+/g, ' ')
      option(x, String(i), text)
      if (numeric[i]) option(y, String(i), text)
    })
    const firstText = numeric.findIndex((n) => !n)
    x.value = String(firstText >= 0 ? firstText : 0)
    const firstY = numeric.findIndex((n, i) => n && String(i) !== x.value)
    y.value = String(firstY >= 0 ? firstY : numeric.indexOf(true))
  }

  private draw(): void {
    const shown = this.shown
    if (shown === null || this.els.box.hidden) return
    const generation = ++this.generation
    const kind = this.els.kind.value as ChartKind
    const x = Number(this.els.x.value)
    const y = Number(this.els.y.value)
    const { base, from, to } = shown.source
    // Raw numbers to plot; the x column's display text to label bars and lines with.
    const labels = (): Promise<string[]> =>
      getJsonAnswer<{ rows: unknown[][] }>(
        `${base}/!data:json.rows?${encodeURIComponent(from)}=0&${encodeURIComponent(to)}=${shown.total}&values_=formatted`,
      ).then(({ body }) => body.rows.map((r) => String(r[x] ?? '')))
    Promise.all([readWhole(shown.source, shown.total, shown.resultId), kind === 'scatter' ? Promise.resolve([]) : labels()]).then(([whole, names]) => {
      if (generation !== this.generation) return
      const yLabel = shown.columns[y].label.replace(/\s+/g, ' ')
      const xLabel = shown.columns[x].label.replace(/\s+/g, ' ')
      this.chart?.destroy()
      this.els.canvas.setAttribute('aria-label', `${kind} chart of ${yLabel} by ${xLabel}, ${shown.total} rows`)
      const data = chartData(kind, whole.rows, names, x, y, yLabel)
      const plotted = data.datasets[0].data.map((p) => (p === null ? null : typeof p === 'number' ? p : p.y))
      this.els.summary.textContent = chartSummary(plotted, shown.columns[y], yLabel, xLabel)
      this.chart = new Chart(this.els.canvas, {
        type: kind,
        data,
        options: {
          animation: false,
          maintainAspectRatio: false,
          scales: { x: { title: { display: true, text: xLabel } }, y: { title: { display: true, text: yLabel } } },
        },
      })
    }, this.onError)
  }
}
