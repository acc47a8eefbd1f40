/**
 * `api/dbm/groups`: the groups you own, belong to or manage (list_groups), each with its members;
 * for the groups you may change (their owner, manage_groups for their company, admin), adding and
 * removing members (set_group) and dropping the group (drop_group); and a form to create a group
 * (add_group), which every user may. The script is client/admin-groups.ts.
 */
import type { Rendered } from '../format/index.js'
import { adminTabs, callerData, type Caller } from './admin-common.js'
import { html } from './markup.js'
import { errorBox } from './panels.js'
import { workbenchPage } from './shell.js'

export function groupsPage(caller: Caller): Rendered {
  const content = html`${adminTabs(caller.version, 'groups', caller.manageUsers)}${errorBox()}<p id="status" class="status" role="status"></p>
<section aria-labelledby="groups-title">
<h2 id="groups-title">Groups you own, belong to or manage</h2>
<p class="hint">A group's name can stand wherever a user id can in who may read a folder or table.</p>
<div id="groups" class="groups"></div>
<p id="no-groups" class="hint" hidden>You own, belong to or manage no group yet.</p>
</section>
<section aria-labelledby="add-group-title">
<h2 id="add-group-title">Create a group</h2>
<form id="add-group-form" class="admin-form">
<div class="field"><label for="group-name">Group id</label><input id="group-name" autocapitalize="off" spellcheck="false" pattern="[a-z][a-z0-9_]*" required></div>
<div class="field"><label for="group-title">Title</label><input id="group-title"></div>
<div class="field"><label for="group-members">Members</label><input id="group-members" autocapitalize="off" spellcheck="false" aria-describedby="group-members-hint">
<span id="group-members-hint" class="hint">User ids and group ids, separated by spaces or commas.</span></div>
<div class="actions"><button type="submit" id="add-group">Create group</button></div>
</form>
</section>
`
  return workbenchPage({
    version: caller.version,
    uid: caller.uid,
    title: 'Groups',
    active: 'admin',
    script: 'admin-groups.js',
    data: { mode: 'admin-groups', ...callerData(caller) },
    content,
  })
}
