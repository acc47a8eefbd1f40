/**
 * What the administration pages share: what they are told about the caller (from the caller's
 * principal, so a page offers only what the API allows) and the tabs of the Admin entry.
 */
import { hasCapability, type Principal } from '../catalog/principal.js'
import { html, type Markup } from './markup.js'
import { apiHref } from './shell.js'

/** What every administration page is told about the caller, as data- attributes for its script. */
export interface Caller {
  readonly version: string
  readonly uid: string
  readonly company: string
  readonly admin: boolean
  /** manage_users for their own company (or admin): list, add, reset and deactivate users. */
  readonly manageUsers: boolean
  /** manage_groups for their own company (or admin): change every group of the company. */
  readonly manageGroups: boolean
  readonly caps: readonly string[]
}

export function callerOf(version: string, p: Principal): Caller {
  return {
    version,
    uid: p.uid,
    company: p.company,
    admin: p.admin,
    manageUsers: hasCapability(p, 'manage_users'),
    manageGroups: hasCapability(p, 'manage_groups'),
    caps: [...p.caps].sort(),
  }
}

export function callerData(c: Caller): Record<string, string> {
  return {
    uid: c.uid,
    company: c.company,
    admin: c.admin ? '1' : '0',
    'manage-users': c.manageUsers ? '1' : '0',
    'manage-groups': c.manageGroups ? '1' : '0',
    caps: c.caps.join(' '),
    dbm: apiHref(c.version, 'dbm:json'),
  }
}

/** The tabs of the Admin entry: users (or, for everyone else, their own account) and groups. */
export function adminTabs(version: string, current: 'users' | 'groups', manageUsers: boolean): Markup {
  const tab = (id: 'users' | 'groups', label: string) =>
    html`<a id="tab-${id}" href="${apiHref(version, `dbm/${id}`)}"${current === id ? html` aria-current="page"` : ''}>${label}</a>`
  return html`<nav class="tabs" aria-label="Administration">${tab('users', manageUsers ? 'Users' : 'Your account')} ${tab('groups', 'Groups')}</nav>\n`
}
