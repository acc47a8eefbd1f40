/**
 * `api/dbm/users`: your own account (get_user, set_password with your old password) for
 * everyone; for user managers (manage_users, admin) also the users they manage (list_users), a
 * form to add one (add_user), and per user a password reset (set_password) and deactivate or
 * activate (the API deletes no users). The script is client/admin-users.ts.
 */
import type { Rendered } from '../format/index.js'
import { adminTabs, callerData, type Caller } from './admin-common.js'
import { html, type Markup } from './markup.js'
import { errorBox } from './panels.js'
import { workbenchPage } from './shell.js'

function ownAccount(): Markup {
  return html`<section id="account" aria-labelledby="account-title">
<h2 id="account-title">Your account</h2>
<dl id="my-account" class="facts"></dl>
<h3>Change your password</h3>
<form id="own-password-form" class="admin-form">
<div class="field"><label for="old-password">Current password</label><input id="old-password" type="password" autocomplete="current-password" required></div>
<div class="field"><label for="own-new-password">New password</label><input id="own-new-password" type="password" autocomplete="new-password" minlength="6" maxlength="128" required></div>
<div class="actions"><button type="submit" id="change-own-password">Change password</button></div>
</form>
</section>
`
}

function managedUsers(caller: Caller): Markup {
  // Only administrators add users to another company; everyone else adds to their own.
  const company = caller.admin
    ? html`<select id="new-company"><option value="${caller.company}">${caller.company}</option></select>`
    : html`<input id="new-company" value="${caller.company}" readonly>`
  return html`<section id="users-admin" aria-labelledby="users-title">
<h2 id="users-title">Users you manage</h2>
<div class="table-wrap"><table id="users" class="admin-table">
<thead><tr><th scope="col">User id</th><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Company</th><th scope="col">Roles</th><th scope="col">Status</th><th scope="col">Actions</th></tr></thead>
<tbody></tbody>
</table></div>
<h3 id="reset-title">Reset a password</h3>
<form id="reset-form" class="admin-form" aria-labelledby="reset-title">
<div class="field"><label for="reset-uid">User id</label><input id="reset-uid" autocapitalize="off" spellcheck="false" required></div>
<div class="field"><label for="reset-password">New password</label><input id="reset-password" type="password" autocomplete="new-password" minlength="6" maxlength="128" required></div>
<div class="actions"><button type="submit" id="reset-submit">Reset password</button></div>
</form>
<h3 id="add-title">Add a user</h3>
<form id="add-user-form" class="admin-form" aria-labelledby="add-title">
<div class="field"><label for="new-uid">User id</label><input id="new-uid" autocapitalize="off" spellcheck="false" pattern="[a-z][a-z0-9_]*" required></div>
<div class="field"><label for="new-first">First name</label><input id="new-first" required></div>
<div class="field"><label for="new-last">Last name</label><input id="new-last" required></div>
<div class="field"><label for="new-email">E-mail</label><input id="new-email" type="email" required></div>
<div class="field"><label for="new-company">Company</label>${company}</div>
<div class="field"><label for="new-password">Password</label><input id="new-password" type="password" autocomplete="new-password" minlength="6" maxlength="128" aria-describedby="new-password-hint">
<span id="new-password-hint" class="hint">Leave empty to have one generated (shown once).</span></div>
<fieldset id="new-roles" class="roles"><legend>Roles</legend><span class="hint">Only roles whose capabilities you hold.</span></fieldset>
<div class="actions"><button type="submit" id="add-user">Add user</button></div>
</form>
<p id="added" class="created" role="status" hidden>Added <span id="added-uid"></span>.<span id="generated" hidden> Their generated password, shown this once: <code id="generated-password"></code></span></p>
</section>
`
}

export function usersPage(caller: Caller): Rendered {
  const content = html`${adminTabs(caller.version, 'users', caller.manageUsers)}${errorBox()}<p id="status" class="status" role="status"></p>
${ownAccount()}${caller.manageUsers ? managedUsers(caller) : ''}`
  return workbenchPage({
    version: caller.version,
    uid: caller.uid,
    title: caller.manageUsers ? 'Users' : 'Your account',
    active: 'admin',
    script: 'admin-users.js',
    data: { mode: 'admin-users', ...callerData(caller) },
    content,
  })
}
