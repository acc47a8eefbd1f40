/**
 * `api/dbm/sharing/{path}`: who may read a folder or table (get_permissions: owner, readers,
 * inheritance, uploaders, and what you may do), and for its owner or an administrator the
 * changes `share` makes: add or remove a reader (a user, a group or `*` for everyone) and turn
 * inheritance from the parent folder on or off. Reached from the folder browser.
 */
import type { Rendered } from '../format/index.js'
import { callerData, type Caller } from './admin-common.js'
import { html } from './markup.js'
import { errorBox } from './panels.js'
import { apiHref, workbenchPage } from './shell.js'

/** Where the folder browser shows the object: a folder as itself, a table picked in its folder. */
function browserHref(version: string, path: string, kind: 'dir' | 'table'): string {
  if (kind === 'dir') return apiHref(version, `ls/${encodeURIComponent(path)}`)
  const dot = path.lastIndexOf('.')
  const folder = dot < 0 ? 'ls' : `ls/${encodeURIComponent(path.slice(0, dot))}`
  return `${apiHref(version, folder)}#${encodeURIComponent(path)}`
}

export function sharingPage(caller: Caller, path: string, kind: 'dir' | 'table'): Rendered {
  const what = kind === 'dir' ? 'folder' : 'table'
  const content = html`<p class="intro">Who may read the ${what} <a id="object-link" href="${browserHref(caller.version, path, kind)}"><code>${path}</code></a>.</p>
${errorBox()}<p id="status" class="status" role="status"></p>
<dl id="permissions" class="facts">
<dt>Owner</dt><dd id="owner"></dd>
<dt>Your rights</dt><dd id="rights"></dd>
<dt>Inherits</dt><dd id="inherit-text"></dd>
${kind === 'dir' ? html`<dt>Uploaders</dt><dd id="uploaders"></dd>\n` : ''}</dl>
<h2 id="readers-title">Readers</h2>
<ul id="readers" class="members" aria-labelledby="readers-title"></ul>
<p id="no-readers" class="hint" hidden>Nobody is named: only the owner, administrators and (when it inherits) the readers of its folder.</p>
<form id="share-form" class="admin-form" hidden>
<div class="field"><label for="reader">Add a reader</label><input id="reader" list="known-names" autocapitalize="off" spellcheck="false" required aria-describedby="reader-hint">
<span id="reader-hint" class="hint">A user id, a group id, or * for every user.</span></div>
<datalist id="known-names"></datalist>
<div class="actions"><button type="submit" id="add-reader">Add reader</button></div>
</form>
<div id="inherit-box" class="admin-form" hidden>
<label><input type="checkbox" id="inherit"> Whoever may read the parent folder may read it too</label>
</div>
<p id="read-only" class="hint" hidden>Only the owner or an administrator may change who reads this ${what}.</p>
`
  return workbenchPage({
    version: caller.version,
    uid: caller.uid,
    title: `Sharing: ${path}`,
    active: 'ls',
    script: 'admin-sharing.js',
    data: { mode: 'admin-sharing', path, kind, ...callerData(caller) },
    content,
  })
}
