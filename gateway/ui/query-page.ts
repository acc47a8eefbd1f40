/**
 * The editor page of `api/run`, `api/sql` and of sql/run instances: the query box and Run, the
 * progress of the running query with Stop, and its result with paging (client/query-page.ts).
 * Without script the form still posts the query and the server answers its HTML result.
 */
import type { Rendered } from '../format/index.js'
import { editorKeys, functionList, historyPanel, sidebarPanel } from './editor-panels.js'
import { html } from './markup.js'
import { errorBox, progressPanel, resultPanel } from './panels.js'
import { apiHref, workbenchPage, type NavItem } from './shell.js'

export type QueryApp = 'run' | 'sql'

/** What differs between the two query languages. */
const APP = {
  run: { param: 'xml', label: 'Macro-language query', from: 'range_', to: 'to_', example: '<base table="pub.demo.retail.item"/>\n<sel value="store=1"/>' },
  sql: {
    param: 'sql',
    label: 'SQL query',
    from: 'range',
    to: 'to',
    example: 'select store, count(*) as n, sum(sales) as sales\nfrom pub.demo.retail.item\ngroup by store',
  },
} as const

/** The row-range parameters of `!data` for an app (sql names them differently). */
export const rangeNames = (app: QueryApp): { from: string; to: string } => ({ from: APP[app].from, to: APP[app].to })

export interface QueryPageOptions {
  readonly version: string
  readonly uid: string | null
  readonly app: QueryApp
  /** The path after api/ that runs the query and keeps its result: `run`, `sql` or a tag. */
  readonly path: string
  readonly title: string
  /** Text for the editor; the app's example when absent. */
  readonly text?: string
  /** Run the text as the page opens (a `run=1` link followed from this service, not another site). */
  readonly runOnOpen?: boolean
  readonly active?: NavItem
}

export function queryPage(opts: QueryPageOptions): Rendered {
  const app = APP[opts.app]
  const base = apiHref(opts.version, opts.path)
  const content = html`<div class="workspace">
${sidebarPanel()}<div class="workspace-main">
<form id="query-form" class="editor" method="post" action="${base}">
<label for="query">${app.label}</label>
<textarea id="query" name="${app.param}" rows="12" spellcheck="false" autocomplete="off" autocapitalize="off">
${opts.text ?? app.example}</textarea>
<div class="actions">
<button type="submit" id="run">Run</button>
${editorKeys()}
</div>
</form>
${historyPanel()}</div>
</div>
${progressPanel()}${errorBox()}${resultPanel()}`
  return workbenchPage({
    version: opts.version,
    uid: opts.uid,
    title: opts.title,
    active: opts.active,
    script: 'query-page.js',
    // instance "page": api/run and api/sql, whose page runs in an instance of its own (client/page-instance.ts).
    data: {
      mode: 'editor',
      base,
      param: app.param,
      from: app.from,
      to: app.to,
      app: opts.app,
      instance: opts.path === opts.app ? 'page' : 'self',
      functions: functionList(app.param === 'sql' ? 'sql' : 'xml'),
      ...(opts.runOnOpen === true ? { autorun: '1' } : {}),
    },
    content,
  })
}
