/**
 * The parts of the query editor page beside the query box: the sidebar of tables, the recent
 * queries, the keys of the editor, and the names its completion offers (client/editor-page.ts).
 * The sidebar and the history need script, so they start hidden and the script shows them.
 */
import { macroFunctionNames, SQL_FUNCTION_NAMES } from '../../engine/index.js'
import { html, type Markup } from './markup.js'

/** The sidebar of folders, tables and columns, filled by client/sidebar.ts. */
export function sidebarPanel(): Markup {
  return html`<aside id="sidebar" class="sidebar" aria-labelledby="sidebar-title" hidden>
<h2 id="sidebar-title">Tables</h2>
<p class="hint">Click a name to put it at the cursor; ▸ shows a table's columns.</p>
<div id="sidebar-tree"></div>
</aside>
`
}

/** The recent queries of this kind of page, filled from the browser's storage (client/history.ts). */
export function historyPanel(): Markup {
  return html`<details id="history" class="history" hidden>
<summary>Recent queries</summary>
<ol id="history-list" class="history-list"></ol>
</details>
`
}

/** What the editor's keys do; the editor also takes this text as its accessible description. */
export function editorKeys(): Markup {
  return html`<span id="editor-keys" class="hint"><kbd>Ctrl</kbd>+<kbd>Enter</kbd> runs the query, <kbd>Ctrl</kbd>+<kbd>Space</kbd> completes a name, <kbd>Tab</kbd> indents; <kbd>Esc</kbd> then <kbd>Tab</kbd> leaves the editor.</span>`
}

let macroNames: string | undefined

/** The function names completion offers, comma-separated, for a data- attribute of the page. */
export function functionList(language: 'sql' | 'xml'): string {
  if (language === 'sql') return SQL_FUNCTION_NAMES.join(',')
  macroNames ??= macroFunctionNames().join(',')
  return macroNames
}
