/**
 * The result table with paging: reads a kept result through the index widget (`!rows`, `!cols`,
 * `!data:json.rows` with a row range and `values_=formatted`), PAGE_SIZE rows at a time, shows
 * them as the server formats them, and points the format links at the same rows.
 */
import { getJsonAnswer } from './api.js'
import { cellText, columnsOf, isNumericColumn, type ColsDictionary, type ColumnInfo } from './cells.js'
import { byId, make } from './dom.js'
import { updateDownloads } from './download-menu.js'
import { RESULT_ID_HEADER, ResultChanged } from './page-instance.js'

export const PAGE_SIZE = 50

/** Where a result is read: `${base}/!data:json.rows?${from}=…&${to}=…`. */
export interface ResultSource {
  readonly base: string
  /** The row-range parameter names: range_/to_, or range/to for sql. */
  readonly from: string
  readonly to: string
}

interface Elements {
  readonly box: HTMLElement
  readonly table: HTMLTableElement
  readonly first: HTMLButtonElement
  readonly prev: HTMLButtonElement
  readonly next: HTMLButtonElement
  readonly last: HTMLButtonElement
  readonly rowinfo: HTMLElement
  readonly links: Readonly<Record<string, HTMLAnchorElement>>
  readonly pager: readonly HTMLElement[]
}

/** Format links by element id and the suffix each points at. */
const LINKS: Readonly<Record<string, string>> = { 'link-text': 'text', 'link-json': 'json', 'link-json-rows': 'json.rows', 'link-json-keyed': 'json.keyed' }

const n = (x: number): string => x.toLocaleString('en-US')

/** "rows 1–50 of 1,000,000" for rows [from, to) numbered from 0. */
export function rowInfo(from: number, to: number, total: number): string {
  if (total === 0) return 'no rows'
  return `rows ${n(from + 1)}\u2013${n(to)} of ${n(total)}`
}

/** Adds to a header cell once it holds its label (sort buttons, result-sort.ts). */
export type HeadDecorator = (th: HTMLTableCellElement, column: ColumnInfo, index: number) => void

/** What a page of a kept result shows, for the parts that follow it (downloads, charts, totals). */
export interface ShownResult {
  readonly source: ResultSource
  readonly total: number
  readonly columns: readonly ColumnInfo[]
  /** Whether each column is shown as numbers (by its type, or by the values of this page). */
  readonly numeric: readonly boolean[]
  /** The first page of this result is shown (a new result, not a page turn). */
  readonly fresh: boolean
  /** The X-Result-Id every read of this result answers (null where the endpoint names none). */
  readonly resultId: string | null
}

export interface ResultViewOptions {
  readonly decorateHead?: HeadDecorator
  readonly onShown?: (shown: ShownResult) => void
  /** Called when the view is hidden or shows a table that is no kept result. */
  readonly onHidden?: () => void
}

/** Fills a table: labels in the head (line breaks kept, the name as tooltip), cells as sent. */
export function fillTable(table: HTMLTableElement, columns: readonly ColumnInfo[], rows: readonly (readonly unknown[])[], decorate?: HeadDecorator): boolean[] {
  const numeric = columns.map((col, c) =>
    isNumericColumn(
      col,
      rows.map((r) => r[c]),
    ),
  )
  const headRow = make('tr')
  columns.forEach((col, c) => {
    const th = make('th')
    th.scope = 'col'
    th.title = col.name
    if (numeric[c]) th.className = 'n'
    col.label.split(/\r\n|\r|\n/).forEach((line, i) => {
      if (i > 0) th.append(make('br'))
      th.append(line)
    })
    decorate?.(th, col, c)
    headRow.append(th)
  })
  const body = document.createDocumentFragment()
  for (const row of rows) {
    const tr = make('tr')
    columns.forEach((_, c) => tr.append(make('td', cellText(row[c]), numeric[c] ? 'n' : undefined)))
    body.append(tr)
  }
  table.tHead!.replaceChildren(headRow)
  table.tBodies[0].replaceChildren(body)
  return numeric
}

export class ResultView {
  private readonly els: Elements
  private source: ResultSource | null = null
  private columns: ColumnInfo[] = []
  private total = 0
  private offset = 0
  /** Bumped by every load and page turn, so a slow answer to an older one is dropped. */
  private generation = 0
  /** A page is being read: page buttons wait (they stay enabled so keyboard focus stays on them). */
  private busy = false
  /** The X-Result-Id of the result being paged; every page read must come from it. */
  private resultId: string | null = null

  constructor(
    private readonly onError: (err: unknown) => void,
    private readonly options: ResultViewOptions = {},
  ) {
    const links: Record<string, HTMLAnchorElement> = {}
    for (const id of Object.keys(LINKS)) links[id] = byId<HTMLAnchorElement>(id)
    const button = (id: string) => byId<HTMLButtonElement>(id)
    this.els = {
      box: byId('result-box'),
      table: byId<HTMLTableElement>('result'),
      first: button('first'),
      prev: button('prev'),
      next: button('next'),
      last: button('last'),
      rowinfo: byId('rowinfo'),
      links,
      pager: Array.from(byId('result-box').querySelectorAll<HTMLElement>('.pager')),
    }
    this.els.first.addEventListener('click', () => this.turn(0))
    this.els.prev.addEventListener('click', () => this.turn(this.offset - PAGE_SIZE))
    this.els.next.addEventListener('click', () => this.turn(this.offset + PAGE_SIZE))
    this.els.last.addEventListener('click', () => this.turn(this.lastOffset()))
  }

  /**
   * Reads a result's size, columns and first page; answers its `!cols` for pages that show them.
   * `resultId`: the X-Result-Id of the query just run there, when the caller knows it; the
   * result read must be that one.
   */
  async load(source: ResultSource, resultId?: string | null): Promise<ColsDictionary> {
    const generation = ++this.generation
    const [rows, cols] = await Promise.all([getJsonAnswer<number>(`${source.base}/!rows:json`), getJsonAnswer<ColsDictionary>(`${source.base}/!cols:json`)])
    if (generation !== this.generation) return cols.body
    const id = rows.headers.get(RESULT_ID_HEADER)
    if ((resultId != null && id !== resultId) || id !== cols.headers.get(RESULT_ID_HEADER)) {
      throw new ResultChanged('Another query ran in this page’s instance while its result was being read; run the query again.')
    }
    this.source = source
    this.resultId = id
    this.total = rows.body
    this.columns = columnsOf(cols.body)
    await this.show(0, generation, true)
    return cols.body
  }

  /** A small table without paging (the widget status table of a dynamic instance). */
  showStatic(columns: readonly ColumnInfo[], rows: readonly (readonly unknown[])[]): void {
    this.generation++
    this.source = null
    fillTable(this.els.table, columns, rows)
    for (const el of this.els.pager) el.hidden = true
    this.els.box.hidden = false
    this.options.onHidden?.()
  }

  hide(): void {
    this.generation++
    this.els.box.hidden = true
    this.options.onHidden?.()
  }

  private lastOffset(): number {
    return this.total === 0 ? 0 : Math.floor((this.total - 1) / PAGE_SIZE) * PAGE_SIZE
  }

  private turn(offset: number): void {
    if (this.busy) return
    this.show(Math.max(0, Math.min(offset, this.lastOffset())), ++this.generation).catch(this.onError)
  }

  private async show(offset: number, generation: number, fresh = false): Promise<void> {
    const source = this.source
    if (source === null) return
    const from = offset
    const to = Math.min(offset + PAGE_SIZE, this.total)
    const range = `${encodeURIComponent(source.from)}=${from}&${encodeURIComponent(source.to)}=${to}`
    this.busy = true
    try {
      // Cells come as the server shows them (its display formats), the links give raw JSON.
      const { body: page, headers } = await getJsonAnswer<{ rows: unknown[][] }>(`${source.base}/!data:json.rows?${range}&values_=formatted`)
      if (generation !== this.generation) return
      // Rows of another result under these headers would be wrong without a sign of it.
      if (headers.get(RESULT_ID_HEADER) !== this.resultId) {
        throw new ResultChanged(
          'The result behind this page changed (another query ran in the same place), so its other pages are not the rows shown here. Run the query again.',
        )
      }
      this.offset = offset
      const numeric = fillTable(this.els.table, this.columns, page.rows, this.options.decorateHead)
      this.els.rowinfo.textContent = rowInfo(from, to, this.total)
      for (const [id, suffix] of Object.entries(LINKS)) this.els.links[id].href = `${source.base}/!data:${suffix}?${range}`
      if (fresh) updateDownloads(source.base, source.from, source.to, this.total)
      for (const el of this.els.pager) el.hidden = false
      this.els.box.hidden = false
      this.updateButtons()
      this.options.onShown?.({ source, total: this.total, columns: this.columns, numeric, fresh, resultId: this.resultId })
    } finally {
      if (generation === this.generation) this.busy = false
    }
  }

  /**
   * Enables the page buttons that lead somewhere. A focused button that turns disabled would drop
   * keyboard focus to the page; it is handed to the button that still leads back instead.
   */
  private updateButtons(): void {
    const { first, prev, next, last } = this.els
    const focused = document.activeElement
    const atStart = this.offset === 0
    const atEnd = this.offset >= this.lastOffset()
    first.disabled = prev.disabled = atStart
    next.disabled = last.disabled = atEnd
    if (focused instanceof HTMLButtonElement && focused.disabled) {
      const other = focused === first || focused === prev ? next : prev
      if (!other.disabled) other.focus()
    }
  }
}
