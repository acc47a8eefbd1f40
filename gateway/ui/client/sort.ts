/**
 * Sorting the whole result by a column: a click on a column's header runs the query again with an
 * ordering added, in the page's own instance, so every page of the result is in that order (not
 * just the 50 rows shown). The query text is rewritten, not the kept result:
 * - macro language: `<sort col="name" dir="up|down"/>` appended after the query (the language's own
 *   stable sort; N/A is the smallest value), which works after a `<macro>`/`<query>` wrapper too;
 * - SQL: `select * from (<query>\n) order by <position> [desc]`. By position, not name: SQL
 *   results may hold two columns of one name, and a position needs no quoting. The newline ends a
 *   `--` comment the query may end with; a final semicolon (and comments after it) is dropped.
 * The server sorts raw values, so the order is that of the numbers, dates and texts themselves,
 * whatever their display format shows. Pure functions and one DOM decorator, no state.
 */
import type { ColumnInfo } from './cells.js'
import { make } from './dom.js'

export type SortDir = 'up' | 'down'

export interface SortOrder {
  /** The column's position in the result (from 0) and its name. */
  readonly index: number
  readonly name: string
  readonly dir: SortDir
}

/** The order after a click on column `index`: that column ascending, or the other way round if it already sorts. */
export function nextSort(current: SortOrder | null, index: number, name: string): SortOrder {
  if (current !== null && current.index === index && current.name === name) return { index, name, dir: current.dir === 'up' ? 'down' : 'up' }
  return { index, name, dir: 'up' }
}

const xmlAttr = (text: string): string => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

/** Comments and whitespace after a statement's last semicolon (one statement: nothing else may follow). */
const FINAL_SEMICOLON = /;(?:\s|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*$/

/**
 * The SQL statement without its final semicolon (and the comments after it), which a subquery
 * cannot hold. Left as it is when the semicolon would be inside a string (an odd number of quotes
 * before it): the server then reports the query as the user wrote it.
 */
export function withoutFinalSemicolon(text: string): string {
  const m = FINAL_SEMICOLON.exec(text)
  if (m === null) return text.trimEnd()
  const before = text.slice(0, m.index)
  return (before.split("'").length - 1) % 2 === 0 ? before.trimEnd() : text.trimEnd()
}

/** The query `text` of language `app` with `order` added (text as it is when order is null). */
export function sortedQuery(app: 'sql' | 'run', text: string, order: SortOrder | null): string {
  if (order === null) return text
  if (app === 'run') return `${text.trimEnd()}\n<sort col="${xmlAttr(order.name)}" dir="${order.dir}"/>`
  const inner = withoutFinalSemicolon(text)
  return `select * from (\n${inner}\n) order by ${order.index + 1}${order.dir === 'down' ? ' desc' : ''}`
}

/** The aria-sort value of a header. */
export const ariaSort = (order: SortOrder | null, index: number): 'ascending' | 'descending' | 'none' =>
  order === null || order.index !== index ? 'none' : order.dir === 'up' ? 'ascending' : 'descending'

/**
 * A header decorator (result-view.ts) that puts the label in a button which asks for `onSort`,
 * marks the sorted column with aria-sort and an arrow (the arrow is hidden from screen readers,
 * which read aria-sort instead).
 */
export function sortableHead(getOrder: () => SortOrder | null, onSort: (index: number, name: string) => void) {
  return (th: HTMLTableCellElement, column: ColumnInfo, index: number): void => {
    const order = getOrder()
    const sort = ariaSort(order, index)
    const button = make('button', undefined, 'sort')
    button.type = 'button'
    button.title = `Sort the whole result by ${column.name}${sort === 'ascending' ? ', descending' : ''}`
    button.append(...Array.from(th.childNodes))
    const arrow = make('span', sort === 'ascending' ? '▲' : sort === 'descending' ? '▼' : '', 'sort-arrow')
    arrow.setAttribute('aria-hidden', 'true')
    button.append(arrow)
    button.addEventListener('click', () => onSort(index, column.name))
    th.setAttribute('aria-sort', sort)
    th.append(button)
  }
}
