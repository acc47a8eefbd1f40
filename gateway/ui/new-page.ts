/**
 * `api/new`: the text box and Submit button of SPEC §4.4–4.5. The script posts the query and
 * answers with a link to the new instance; without script the form posts and the server answers
 * its own page with that link.
 */
import type { Rendered } from '../format/index.js'
import { html } from './markup.js'
import { errorBox } from './panels.js'
import { apiHref, workbenchPage } from './shell.js'

const EXAMPLE = `<dynamic store="1">
  <widget name="index">
    <base table="pub.demo.retail.item"/>
    <sel value="store={@store}"/>
  </widget>
</dynamic>`

export function newPage(opts: { readonly version: string; readonly uid: string | null }): Rendered {
  const base = apiHref(opts.version, 'new')
  const content = html`<p class="intro">Post a query to create an instance: a fixed query, or a dynamic one whose
<code>&lt;dynamic&gt;</code> attributes are variables you can change on the instance's page.</p>
<form id="new-form" class="editor" method="post" action="${base}">
<label for="query">Query of the new instance</label>
<textarea id="query" name="xml" rows="12" spellcheck="false" autocomplete="off" autocapitalize="off">
${EXAMPLE}</textarea>
<div class="actions">
<button type="submit" id="create">Submit</button>
<span class="hint"><kbd>Ctrl</kbd>+<kbd>Enter</kbd> in the editor submits too.</span>
</div>
</form>
${errorBox()}<p id="created" class="created" hidden>Created: <a id="instance-link"></a></p>
`
  return workbenchPage({
    version: opts.version,
    uid: opts.uid,
    title: 'New instance',
    active: 'new',
    script: 'new-page.js',
    data: { mode: 'new', base },
    content,
  })
}
