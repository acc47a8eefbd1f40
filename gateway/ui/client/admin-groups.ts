/**
 * api/dbm/groups: the groups list_groups shows this user, each with its members; for the groups
 * they may change, adding and removing members (set_group) and dropping the group (drop_group,
 * in two clicks so a slip drops nothing); and creating a group (add_group). The list is read
 * again after each change.
 */
import './nav.js'
import { act as runAction, caller, dbm, namesOf, rowsOf, showStatus } from './admin-dbm.js'
import { byId, make } from './dom.js'
import { ErrorBox } from './messages.js'

const GROUP_KEYS = ['group', 'owner', 'company', 'users', 'title', 'description'] as const

interface GroupView {
  readonly group: string
  readonly owner: string
  readonly company: string
  readonly users: readonly string[]
  readonly title: string
  readonly description: string
}

const errors = new ErrorBox()
const act = (control: HTMLButtonElement | HTMLInputElement, work: () => Promise<void>): Promise<void> => runAction(errors, control, work)

/** canManageGroup of the service (catalog/people.ts): the owner, the company's group managers, admins. */
const mayChange = (g: GroupView): boolean => g.owner === caller.uid || caller.admin || (caller.manageGroups && g.company === caller.company)

function button(text: string, className: string, label: string): HTMLButtonElement {
  const b = make('button', text, className)
  b.type = 'button'
  b.setAttribute('aria-label', label)
  return b
}

function memberItem(g: GroupView, member: string, editable: boolean): HTMLLIElement {
  const li = make('li')
  li.dataset.member = member
  li.append(make('span', member, 'member'))
  if (editable) {
    const remove = button('Remove', 'remove-member', `Remove ${member} from ${g.group}`)
    remove.addEventListener('click', () =>
      act(remove, async () => {
        await dbm('set_group', { group: g.group, remove: [member] })
        showStatus(`${member} is no longer a member of ${g.group}.`)
        await showGroups()
      }),
    )
    li.append(' ', remove)
  }
  return li
}

function addMemberForm(g: GroupView): HTMLFormElement {
  const form = make('form', undefined, 'inline-form add-member')
  const id = `add-to-${g.group}`
  const label = make('label', 'Add members')
  label.htmlFor = id
  const input = make('input')
  input.id = id
  input.autocapitalize = 'off'
  input.spellcheck = false
  input.required = true
  const submit = make('button', 'Add')
  submit.type = 'submit'
  submit.setAttribute('aria-label', `Add members to ${g.group}`)
  form.append(label, ' ', input, ' ', submit)
  form.addEventListener('submit', (ev) => {
    ev.preventDefault()
    const names = namesOf(input.value)
    void act(submit, async () => {
      await dbm('set_group', { group: g.group, add: names })
      showStatus(`Added ${names.join(', ')} to ${g.group}.`)
      await showGroups()
    })
  })
  return form
}

/** Drop asks once more on the same button, so neither a slip nor a dialog is involved. */
function dropButton(g: GroupView): HTMLButtonElement {
  const drop = button('Drop group', 'drop-group', `Drop the group ${g.group}`)
  let armed = false
  drop.addEventListener('click', () => {
    if (!armed) {
      armed = true
      drop.textContent = `Really drop ${g.group}?`
      drop.classList.add('danger')
      return
    }
    void act(drop, async () => {
      await dbm('drop_group', { group: g.group })
      showStatus(`Dropped the group ${g.group}; it no longer reads any folder or table.`)
      await showGroups()
    })
  })
  drop.addEventListener('blur', () => {
    armed = false
    drop.textContent = 'Drop group'
    drop.classList.remove('danger')
  })
  return drop
}

function groupCard(g: GroupView): HTMLElement {
  const editable = mayChange(g)
  const card = make('article', undefined, 'group')
  card.dataset.group = g.group
  const title = make('h3', g.group)
  if (g.title !== '' && g.title !== g.group) title.append(make('span', ` · ${g.title}`, 'meta'))
  card.append(title, make('p', `Owner ${g.owner}, company ${g.company}${g.description === '' ? '' : ` · ${g.description}`}`, 'meta'))
  const members = make('ul', undefined, 'members')
  members.setAttribute('aria-label', `Members of ${g.group}`)
  members.append(...g.users.map((m) => memberItem(g, m, editable)))
  if (g.users.length === 0) members.append(make('li', 'No members yet.', 'hint'))
  card.append(members)
  if (editable) card.append(addMemberForm(g), dropButton(g))
  else card.append(make('p', 'You may see this group but not change it.', 'hint'))
  return card
}

async function showGroups(): Promise<void> {
  const table = await dbm<Record<(typeof GROUP_KEYS)[number], unknown[]>>('list_groups', {})
  const groups = rowsOf(table, GROUP_KEYS) as unknown as GroupView[]
  byId('groups').replaceChildren(...groups.map(groupCard))
  byId('no-groups').hidden = groups.length > 0
}

const addForm = byId<HTMLFormElement>('add-group-form')
addForm.addEventListener('submit', (ev) => {
  ev.preventDefault()
  const name = byId<HTMLInputElement>('group-name').value.trim()
  const title = byId<HTMLInputElement>('group-title').value.trim()
  const users = namesOf(byId<HTMLInputElement>('group-members').value)
  void act(byId<HTMLButtonElement>('add-group'), async () => {
    const made = await dbm<GroupView>('add_group', { group: name, ...(title === '' ? {} : { title }), users })
    showStatus(`Created the group ${made.group}.`)
    addForm.reset()
    await showGroups()
  })
})

showGroups().catch((err: unknown) => errors.show(err))
