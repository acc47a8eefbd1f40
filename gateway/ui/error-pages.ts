/**
 * What an HTML request (no format suffix) sees when it fails: the login page for a missing or
 * expired session, and otherwise a page with the API's message. Other formats keep the JSON error
 * body (errors.ts); the status is the same either way.
 */
import type { ErrorBody } from '../../shared/api-answers.js'
import type { Rendered } from '../format/index.js'
import { html } from './markup.js'
import { apiHref, workbenchPage } from './shell.js'

export interface LoginPageOptions {
  readonly version: string
  /** The request carried a session cookie that no longer works. */
  readonly expired: boolean
}

export function loginPage(opts: LoginPageOptions): Rendered {
  const action = apiHref(opts.version, '!login')
  const note = opts.expired ? html`<p class="hint">Your session has ended; log in again.</p>\n` : ''
  // The script posts to !login:json and reloads this URL; the plain form is the fallback.
  const content = html`${note}<form id="login-form" class="login" method="post" action="${action}" data-login="${apiHref(opts.version, '!login:json')}">
<div class="field"><label for="uid">User id</label><input id="uid" name="uid" autocomplete="username" autocapitalize="off" spellcheck="false" required autofocus></div>
<div class="field"><label for="pw">Password</label><input id="pw" name="pw" type="password" autocomplete="current-password" required></div>
<div class="actions"><button type="submit" id="login-submit">Log in</button></div>
<div id="login-error" class="error" role="alert"></div>
</form>
`
  return workbenchPage({ version: opts.version, uid: null, title: 'Log in', script: 'login-page.js', data: { mode: 'login' }, content })
}

export interface ErrorPageOptions {
  readonly version: string
  /** Who is logged in, when the session was checked before the error. */
  readonly uid: string | null
  readonly status: number
  /** The JSON error body the same request would answer. */
  readonly body: ErrorBody
}

export function errorPage(opts: ErrorPageOptions): Rendered {
  const content = html`<div id="error" class="error" role="alert">${opts.body.error}</div>
<p class="hint">HTTP ${opts.status}, code <code>${opts.body.code}</code>.</p>
<p class="hint">Request id <code>${opts.body.requestId}</code>: quote it to the operator.</p>
${opts.uid === null ? html`<p><a href="${apiHref(opts.version, 'run')}">Go to the workbench</a></p>\n` : ''}`
  return workbenchPage({ version: opts.version, uid: opts.uid, title: 'Error', script: 'nav.js', data: { mode: 'error' }, content })
}
