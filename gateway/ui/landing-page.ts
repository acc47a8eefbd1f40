/**
 * `api` itself opened in a browser (also `/`, which redirects there): the way into the workbench,
 * with the editors, the folders, the session's instances and the recent queries (kept in the
 * browser, so client/landing-page.ts lists them). Programs keep the list of endpoints: `api:json`
 * (`:text`, `:json.rows` …) answers it as before, and `api/index` shows it as a page.
 */
import type { Rendered } from '../format/index.js'
import type { InstanceRecord } from '../instances/records.js'
import { html, type Markup } from './markup.js'
import { apiHref, workbenchPage } from './shell.js'

export interface LandingPageOptions {
  readonly version: string
  readonly uid: string
  /** The session's live instances. */
  readonly instances: readonly InstanceRecord[]
}

const KIND_NAMES: Readonly<Record<InstanceRecord['kind'], string>> = { sql: 'SQL editor', run: 'macro editor', query: 'fixed query', dynamic: 'dynamic query' }

function instanceList(version: string, instances: readonly InstanceRecord[]): Markup {
  if (instances.length === 0) {
    return html`<p class="hint" id="no-instances">No instances in this session yet: <a href="${apiHref(version, 'new')}">create one</a>.</p>\n`
  }
  const items = instances.map(
    (i) => html`<li><a href="${apiHref(version, String(i.tag))}">Instance ${i.tag}</a> <span class="meta">${KIND_NAMES[i.kind]}</span></li>\n`,
  )
  return html`<ul id="instances" class="landing-list">\n${items}</ul>\n`
}

export function landingPage(opts: LandingPageOptions): Rendered {
  const link = (id: string, path: string, label: string, what: string) =>
    html`<li><a id="${id}" href="${apiHref(opts.version, path)}">${label}</a> <span class="meta">${what}</span></li>\n`
  const content = html`<p class="intro">Query the tables you may read, with SQL or with 1010data's macro language, and browse their folders.</p>
<ul id="landing-links" class="landing-list">
${link('go-sql', 'sql', 'SQL query', "SQLite's dialect over tables named by dotted path")}${link('go-run', 'run', 'Macro query', 'the XML macro language (base, sel, willbe, tabu, link …)')}${link('go-ls', 'ls', 'Folders', 'the folders and tables you may read, their columns and rows')}${link('go-new', 'new', 'New instance', 'a fixed or dynamic query with an address of its own')}</ul>
<h2>Instances</h2>
${instanceList(opts.version, opts.instances)}<section id="recent" class="recent" aria-labelledby="recent-title" hidden>
<h2 id="recent-title">Recent queries</h2>
<h3>SQL</h3>
<ol id="recent-sql" class="landing-list"></ol>
<h3>Macro language</h3>
<ol id="recent-run" class="landing-list"></ol>
</section>
<h2>For programs</h2>
<p>The list of endpoints as <a id="endpoints-json" href="${apiHref(opts.version, '')}:json">JSON</a>, <a href="${apiHref(opts.version, '')}:text">text</a> or <a id="endpoints-page" href="${apiHref(opts.version, 'index')}">a page</a>.</p>
`
  return workbenchPage({ version: opts.version, uid: opts.uid, title: 'tabula workbench', script: 'landing-page.js', data: { mode: 'landing' }, content })
}
