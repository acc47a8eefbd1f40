/**
 * `api/dbm/upload[/{folder}]`: a file into a folder as a table, sent in chunks through
 * upload_begin, upload_chunk… and upload_commit (upload_abort on Cancel or failure), with a
 * progress bar that moves per chunk. Which files it takes is decided by their extension in
 * client/upload-formats.ts, the one list to extend. The script is client/admin-upload.ts.
 */
import type { Rendered } from '../format/index.js'
import { callerData, type Caller } from './admin-common.js'
import { html } from './markup.js'
import { errorBox } from './panels.js'
import { workbenchPage } from './shell.js'

/** 4 MB, as the CLI sends: well under MAX_BODY_BYTES' default of 10 MB. */
const DEFAULT_CHUNK_KB = 4096

export function uploadPage(caller: Caller, folder: string): Rendered {
  const content = html`<p class="intro">Load a file into a table. It is sent a chunk at a time, so a large file needs little memory here
or on the service; nothing is saved unless every chunk arrives. You may upload into your own folder
<code>uploads.${caller.uid}</code> and into any folder whose owner lists you among its uploaders.</p>
<form id="upload-form" class="admin-form">
<div class="field"><label for="file">File</label><input id="file" type="file" required aria-describedby="file-hint">
<span id="file-hint" class="hint"></span></div>
<div class="field"><label for="folder">Folder</label><input id="folder" value="${folder}" autocapitalize="off" spellcheck="false" required></div>
<div class="field"><label for="table-name">Table name</label><input id="table-name" autocapitalize="off" spellcheck="false" pattern="[a-z][a-z0-9_]*" required></div>
<div class="field"><label for="table-title">Title</label><input id="table-title"></div>
<div class="field"><label for="mode">If the table exists</label><select id="mode">
<option value="noreplace">Refuse the upload</option>
<option value="replace">Replace it</option>
<option value="append">Append the rows</option>
</select></div>
<fieldset id="types" class="types" hidden><legend>Column types</legend><span class="hint">Automatic: the values decide (whole numbers int, numbers float, dates date, anything else text).</span>
<div id="type-fields"></div></fieldset>
<details class="advanced"><summary>Chunk size</summary>
<div class="field"><label for="chunk-kb">Kilobytes per chunk</label><input id="chunk-kb" type="number" min="1" step="1" value="${DEFAULT_CHUNK_KB}"></div>
</details>
<div class="actions"><button type="submit" id="upload">Upload</button> <button type="button" id="cancel" disabled>Cancel</button></div>
</form>
<div id="upload-box" class="progress-box" hidden>
<label for="upload-bar" class="visually-hidden">Upload progress</label>
<progress id="upload-bar" max="1" value="0"></progress>
<span id="upload-detail" class="detail" aria-live="polite"></span>
</div>
${errorBox()}<p id="uploaded" class="created" role="status" hidden>Saved <a id="table-link"></a>: <span id="uploaded-rows"></span></p>
`
  return workbenchPage({
    version: caller.version,
    uid: caller.uid,
    title: 'Upload a table',
    active: 'upload',
    script: 'admin-upload.js',
    data: { mode: 'admin-upload', ...callerData(caller) },
    content,
  })
}
