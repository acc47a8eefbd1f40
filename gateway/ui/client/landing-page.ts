/**
 * The landing page: lists the recent queries kept in this browser (history.ts), each a link that
 * opens its editor with the query filled in (query-url.ts); nothing runs until Run is pressed.
 */
import './nav.js'
import { apiHref, byId, make } from './dom.js'
import { recentQueries, summary, type QueryKind } from './history.js'
import { queryUrl } from './query-url.js'

const PARAM: Readonly<Record<QueryKind, string>> = { sql: 'sql', run: 'xml' }

let any = false
for (const kind of ['sql', 'run'] as const) {
  const list = byId(`recent-${kind}`)
  const items = recentQueries(kind).flatMap((query) => {
    const href = queryUrl(apiHref(kind), PARAM[kind], query)
    if (href === null) return [] // too long for an address; the editor's own list still has it
    const a = make('a', summary(query))
    a.href = href
    a.title = query
    const li = make('li')
    li.append(a)
    return [li]
  })
  any ||= items.length > 0
  list.replaceChildren(...(items.length === 0 ? [make('li', 'None yet.', 'hint')] : items))
}
byId('recent').hidden = !any
