/**
 * Everything the query page has around its Run button: the editor (editor.ts) with completion,
 * the sidebar of tables, the recent queries, the query in the address, and the text kept per
 * endpoint. query-page.ts runs queries; this module gives it the text and hears what it ran.
 */
import { Catalog } from './catalog.js'
import { columnNames, functionNames, tablePaths } from './completion.js'
import { byId, required } from './dom.js'
import { QueryEditor, type EditorLanguage } from './editor.js'
import { remember, showHistory, type QueryKind } from './history.js'
import { linkedQuery, showQueryInUrl } from './query-url.js'
import { Sidebar } from './sidebar.js'

export interface EditorPage {
  /** The query to run. */
  text(): string
  focus(): void
  /** A query was sent to run: into the recent queries and the address. */
  ran(query: string): void
}

/** Reads and writes the editor's text per endpoint, so a reload or a later visit finds it again. */
function keptText(base: string): { read(): string | null; write(text: string): void } {
  const key = `tabula:query:${base}`
  return {
    read() {
      try {
        return window.localStorage.getItem(key)
      } catch {
        return null // storage may be off (private windows, policies): the editor works without it
      }
    },
    write(text) {
      try {
        window.localStorage.setItem(key, text)
      } catch {
        // as above
      }
    },
  }
}

/**
 * Replaces the page's textarea with the editor and sets up what goes with it. The text it starts
 * with: the query of the address (which the server wrote into the page), else the text kept for
 * this endpoint, else the page's example. The form is submitted once as the page opens when the
 * server says so (`data-autorun`: a `run=1` link not followed from another site).
 */
export function setUpEditorPage(form: HTMLFormElement, box: HTMLTextAreaElement, data: DOMStringMap): EditorPage {
  const param = required(data, 'param')
  const base = required(data, 'base')
  const language: EditorLanguage = param === 'sql' ? 'sql' : 'xml'
  const kind: QueryKind = param === 'sql' ? 'sql' : 'run'
  const functions = (data.functions ?? '').split(',').filter((f) => f !== '')
  const catalog = new Catalog()
  const kept = keptText(base)
  const linked = linkedQuery(param)
  if (linked.query === null) {
    const text = kept.read()
    if (text !== null && box.value === box.defaultValue) box.value = text
  }
  const editor = new QueryEditor({
    textarea: box,
    language,
    onRun: () => form.requestSubmit(),
    completions: [tablePaths(catalog, language), columnNames(catalog, language), functionNames(functions, language)],
    onChange: (text) => kept.write(text),
    help: document.getElementById('editor-keys')?.textContent ?? undefined,
  })
  byId('sidebar').hidden = false
  new Sidebar(byId('sidebar-tree'), catalog, (name) => editor.insert(name)).show().catch(() => undefined)
  byId('history').hidden = false
  const historyList = byId('history-list')
  const refreshHistory = () =>
    showHistory(historyList, kind, (query) => {
      editor.text = query
      editor.focus()
    })
  refreshHistory()
  if (data.autorun === '1') queueMicrotask(() => form.requestSubmit())
  return {
    text: () => editor.text,
    focus: () => editor.focus(),
    ran(query) {
      remember(kind, query)
      refreshHistory()
      showQueryInUrl(param, query)
    },
  }
}
