/**
 * api/dbm/sharing/{path}: who may read a folder or table (get_permissions), and for whoever may
 * share it (its owner, administrators: the `share` right get_permissions reports) adding and
 * removing readers and setting inheritance, each one `share` call. The names offered while
 * typing are the groups and (for user managers) the users this user may see.
 */
import './nav.js'
import { act as runAction, caller, dbm, namesOf, rowsOf, showStatus } from './admin-dbm.js'
import { byId, make, pageData, required } from './dom.js'
import { ErrorBox } from './messages.js'

interface Permissions {
  readonly owner: string
  readonly users: readonly string[]
  readonly uploaders: readonly string[]
  readonly inherit: 0 | 1
  readonly effective: { readonly read: boolean; readonly write: boolean; readonly share: boolean }
}

const path = required(pageData(), 'path')
const errors = new ErrorBox()
const act = (control: HTMLButtonElement | HTMLInputElement, work: () => Promise<void>): Promise<void> => runAction(errors, control, work)
const inherit = byId<HTMLInputElement>('inherit')

const readerName = (name: string): string => (name === '*' ? '* (every user)' : name)

function readerItem(name: string, mayShare: boolean): HTMLLIElement {
  const li = make('li')
  li.dataset.member = name
  li.append(make('span', readerName(name), 'member'))
  if (mayShare) {
    const remove = make('button', 'Remove', 'remove-reader')
    remove.type = 'button'
    remove.setAttribute('aria-label', `Stop ${name} reading ${path}`)
    remove.addEventListener('click', () =>
      act(remove, async () => {
        await dbm('share', { path, remove: [name] })
        showStatus(`${readerName(name)} no longer reads ${path} by name.`)
        await show()
      }),
    )
    li.append(' ', remove)
  }
  return li
}

function rightsText(p: Permissions): string {
  const rights = [p.effective.read && 'read', p.effective.write && 'write', p.effective.share && 'share'].filter(Boolean)
  return rights.length === 0 ? 'none' : rights.join(', ')
}

async function show(): Promise<void> {
  const p = await dbm<Permissions>('get_permissions', { path })
  byId('owner').textContent = p.owner
  byId('rights').textContent = rightsText(p)
  byId('inherit-text').textContent = p.inherit === 1 ? 'yes: the readers of its folder read it too' : 'no: only the readers named here'
  const uploaders = document.getElementById('uploaders')
  if (uploaders !== null) uploaders.textContent = p.uploaders.join(', ') || 'only the owner'
  byId('readers').replaceChildren(...p.users.map((u) => readerItem(u, p.effective.share)))
  byId('no-readers').hidden = p.users.length > 0
  byId('share-form').hidden = !p.effective.share
  byId('inherit-box').hidden = !p.effective.share
  byId('read-only').hidden = p.effective.share
  inherit.checked = p.inherit === 1
}

/** Names to offer while typing: `*`, the groups this user sees and, for user managers, their users. */
async function offerNames(): Promise<void> {
  const names = new Set<string>(['*'])
  const groups = await dbm<Record<'group', unknown[]>>('list_groups', {})
  for (const g of groups.group) names.add(String(g))
  if (caller.manageUsers) {
    const users = await dbm<Record<'uid', unknown[]>>('list_users', {})
    for (const u of rowsOf(users, ['uid'] as const)) names.add(String(u.uid))
  }
  byId('known-names').replaceChildren(...[...names].sort().map((n) => new Option(n, n)))
}

byId<HTMLFormElement>('share-form').addEventListener('submit', (ev) => {
  ev.preventDefault()
  const input = byId<HTMLInputElement>('reader')
  const names = namesOf(input.value)
  void act(byId<HTMLButtonElement>('add-reader'), async () => {
    await dbm('share', { path, add: names })
    showStatus(`${names.map(readerName).join(', ')} may now read ${path}.`)
    input.value = ''
    await show()
  })
})

inherit.addEventListener('change', () => {
  const on = inherit.checked
  void act(inherit, async () => {
    try {
      await dbm('share', { path, inherit: on })
      showStatus(on ? `${path} inherits its folder's readers again.` : `${path} no longer inherits its folder's readers.`)
    } finally {
      // Shows what the service holds, also when the change was refused.
      await show()
    }
  })
})

show()
  .then(() => offerNames())
  .catch((err: unknown) => errors.show(err))
