/**
 * The totals row: the sum of each numeric column over the whole result (not the page shown),
 * as a <tfoot> row of the result table, offered for results of up to TOTALS_MAX_ROWS rows and on
 * from the start for tabulations.
 *
 * How it is computed: the page reads the whole result's raw values once (whole-result.ts) and
 * adds them up itself. Whole numbers are added exactly (BigInt); other numbers with a
 * compensated (Neumaier) sum, rounded to 15 significant digits, so 0.1 + 0.2 shows as 0.3.
 * N/A adds nothing. Which columns: numbers (by their type, or for SQL by their values), but not
 * dates and times (their format says so: a sum of dates is no date) and not the break columns
 * of a tabulation (a sum of store numbers means nothing).
 *
 * The total is shown through the column's format by the server's own display code
 * (gateway/format/display/, bundled into the page), so it reads like the cells above it. It is
 * never cut at a width: `!cols` states every column's width, so the page cannot tell a width the
 * query stated (which cuts cells) from a default one, and a cut total would hide the number.
 */
import { displayFormatter } from '../../format/display/index.js'
import type { ColumnInfo } from './cells.js'
import { make } from './dom.js'

export const TOTALS_MAX_ROWS = 100_000

const CLOCK_TYPES = new Set(['date', 'date4y', 'hms12', 'hms24', 'hm12', 'hm24'])

const formatType = (format: string): string => /(?:^|;)\s*type\s*:\s*([^;]*)/i.exec(format)?.[1]?.trim().toLowerCase() ?? ''

/**
 * The break columns of a tabulation: those of the query's last `<tabu breaks="…">` (macro), or
 * the plain names and positions after SQL's last `group by` (positions as `#n`, from 1). Empty
 * when the query is no tabulation. A reading of the text, not a parse: it only decides which
 * columns the totals row leaves blank.
 */
export function tabulationBreaks(app: 'sql' | 'run', text: string): Set<string> {
  if (app === 'run') {
    const tabus = [...text.matchAll(/<tabu\b[^>]*?\bbreaks\s*=\s*"([^"]*)"/gi)]
    const last = tabus.at(-1)?.[1]
    return new Set(
      last === undefined
        ? []
        : last
            .split(',')
            .map((b) => b.trim().toLowerCase())
            .filter((b) => b !== ''),
    )
  }
  const groups = [...text.matchAll(/\bgroup\s+by\s+([\s\S]+?)(?=\bhaving\b|\border\s+by\b|\blimit\b|\bwindow\b|\)|;|$)/gi)]
  const last = groups.at(-1)?.[1]
  if (last === undefined) return new Set()
  return new Set(
    last
      .split(',')
      .map((g) => g.trim().replace(/^"(.*)"$/, '$1'))
      .map((g) => (/^\d+$/.test(g) ? `#${g}` : (g.split('.').pop() ?? '').toLowerCase()))
      .filter((g) => g !== ''),
  )
}

/** Whether column `index` gets a total. */
export function isSummed(column: ColumnInfo, index: number, numeric: boolean, breaks: ReadonlySet<string>): boolean {
  if (!numeric || column.type === 'a') return false
  if (CLOCK_TYPES.has(formatType(column.format))) return false
  return !breaks.has(column.name.toLowerCase()) && !breaks.has(`#${index + 1}`)
}

/** The sum of a column's raw values: exact for whole numbers, compensated for the rest; null with no number at all. */
export function columnTotal(values: readonly unknown[]): number | bigint | null {
  let whole = 0n
  let sum = 0
  let compensation = 0
  let floats = false
  let any = false
  for (const v of values) {
    const x = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN
    if (!Number.isFinite(x)) continue
    any = true
    if (Number.isInteger(x) && !floats) {
      whole += BigInt(x)
      continue
    }
    if (!floats) {
      floats = true
      sum = Number(whole)
    }
    const t = sum + x
    compensation += Math.abs(sum) >= Math.abs(x) ? sum - t + x : x - t + sum
    sum = t
  }
  if (!any) return null
  if (!floats) return Number.isSafeInteger(Number(whole)) ? Number(whole) : whole
  return Number((sum + compensation).toPrecision(15))
}

/** A total as its column shows values (its format), never cut. */
export function totalText(total: number | bigint | null, column: ColumnInfo): string {
  if (total === null) return ''
  const kind = column.type ?? (typeof total === 'bigint' || Number.isInteger(total) ? 'i' : 'f')
  return displayFormatter({ kind, format: column.format, cutAt: null })(total)
}

/** Writes the totals row into the table's <tfoot> (made if missing). */
export function showTotals(table: HTMLTableElement, columns: readonly ColumnInfo[], summed: readonly boolean[], rows: readonly (readonly unknown[])[]): void {
  const tr = make('tr')
  tr.id = 'totals'
  let labelled = false
  columns.forEach((column, c) => {
    if (!summed[c]) {
      const th = make('th', labelled ? '' : 'Total')
      if (!labelled) th.scope = 'row'
      labelled = true
      tr.append(th)
      return
    }
    const td = make('td', totalText(columnTotal(rows.map((r) => r[c])), column), 'n')
    td.dataset.col = column.name
    tr.append(td)
  })
  table.createTFoot().replaceChildren(tr)
}

export function clearTotals(table: HTMLTableElement): void {
  table.tFoot?.replaceChildren()
}
