/**
 * Pages of instances that are not query editors: a dynamic instance (a form for its variables,
 * then its index widget) and an instance of a fixed query (its result, computed on first view).
 * sql and run instances use the editor page (query-page.ts) with the instance as endpoint.
 */
import type { Rendered } from '../format/index.js'
import { html } from './markup.js'
import { errorBox, progressPanel, resultPanel } from './panels.js'
import { apiHref, workbenchPage } from './shell.js'

/** What the index widget answers: a table (paged), a text, or, without one, the widget status table. */
export type IndexKind = 'table' | 'text' | 'none'

export interface DynamicPageOptions {
  readonly version: string
  readonly uid: string
  readonly tag: number
  /** The declared variables with their current values, in declaration order. */
  readonly vars: readonly (readonly [string, string])[]
  readonly index: IndexKind
}

export function dynamicPage(opts: DynamicPageOptions): Rendered {
  const base = apiHref(opts.version, String(opts.tag))
  const fields =
    opts.vars.length === 0
      ? html`<p class="hint">This instance has no variables; Apply runs its triggers and widgets again.</p>\n`
      : opts.vars.map(
          ([name, value], i) =>
            html`<div class="var"><label for="var-${i}">${name}</label><input id="var-${i}" name="${name}" value="${value}" autocomplete="off" spellcheck="false"></div>\n`,
        )
  const content = html`<form id="vars" class="vars" method="post" action="${base}">
<fieldset>
<legend>Variables</legend>
${fields}</fieldset>
<div class="actions"><button type="submit" id="apply">Apply</button></div>
</form>
${progressPanel()}${errorBox()}<div id="widget-text" class="widget-text" hidden></div>
${resultPanel()}`
  return workbenchPage({
    version: opts.version,
    uid: opts.uid,
    title: `Instance ${opts.tag}`,
    script: 'instance-page.js',
    data: { mode: 'dynamic', base, index: opts.index, from: 'range_', to: 'to_' },
    content,
  })
}

export function fixedQueryPage(opts: { readonly version: string; readonly uid: string; readonly tag: number; readonly xml: string }): Rendered {
  const base = apiHref(opts.version, String(opts.tag))
  const content = html`<details class="query-text"><summary>Query</summary><pre>${opts.xml}</pre></details>
${progressPanel()}${errorBox()}${resultPanel()}`
  return workbenchPage({
    version: opts.version,
    uid: opts.uid,
    title: `Instance ${opts.tag}`,
    script: 'query-page.js',
    data: { mode: 'viewer', base, from: 'range_', to: 'to_' },
    content,
  })
}
