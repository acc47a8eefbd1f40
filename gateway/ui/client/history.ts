/**
 * The recent queries of each kind of page (`sql`, `run`), newest first, kept in the browser's
 * localStorage: a query run on api/sql or in an sql instance is found again on either. The list
 * is the editor page's "Recent queries" and the landing page's; clicking one loads it.
 */
import { make } from './dom.js'

/** How many queries each kind keeps. */
export const HISTORY_SIZE = 20

export type QueryKind = 'sql' | 'run'

const keyOf = (kind: QueryKind): string => `tabula:history:${kind}`

/** The kept queries, newest first; none when storage is off or holds something else. */
export function recentQueries(kind: QueryKind): string[] {
  try {
    const kept: unknown = JSON.parse(window.localStorage.getItem(keyOf(kind)) ?? '[]')
    return Array.isArray(kept) ? kept.filter((q): q is string => typeof q === 'string') : []
  } catch {
    return []
  }
}

/** Puts a query first (once: running it again moves it up) and keeps the newest HISTORY_SIZE. */
export function remember(kind: QueryKind, query: string): void {
  const list = [query, ...recentQueries(kind).filter((q) => q !== query)].slice(0, HISTORY_SIZE)
  try {
    window.localStorage.setItem(keyOf(kind), JSON.stringify(list))
  } catch {
    // Storage may be off or full: the history is a convenience, the query ran all the same.
  }
}

/** One line to show for a query: its text with white space folded, cut at `max` characters. */
export function summary(query: string, max = 120): string {
  const line = query.replace(/\s+/g, ' ').trim()
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`
}

/** Fills a list with the kept queries as buttons; `pick` gets the one clicked. */
export function showHistory(list: HTMLElement, kind: QueryKind, pick: (query: string) => void): void {
  const queries = recentQueries(kind)
  if (queries.length === 0) {
    list.replaceChildren(make('li', 'No queries yet: the queries you run appear here.', 'hint'))
    return
  }
  list.replaceChildren(
    ...queries.map((query) => {
      const button = make('button', summary(query), 'recent')
      button.type = 'button'
      button.title = query
      button.addEventListener('click', () => pick(query))
      const li = make('li')
      li.append(button)
      return li
    }),
  )
}
