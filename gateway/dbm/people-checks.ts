/**
 * Checks the people transactions (users, groups, companies, roles) share, each with the one
 * message its refusal gives wherever it happens.
 */
import { AppError } from '../../shared/errors.js'
import { canGrantRole, ID_PATTERN } from '../catalog/people.js'
import type { Principal } from '../catalog/principal.js'
import type { RoleRecord } from '../catalog/records.js'

/** Refuses anyone but an administrator; `action` completes "Only an administrator may …". */
export function requireAdmin(p: Principal, action: string): void {
  if (!p.admin) throw new AppError('FORBIDDEN', `Only an administrator may ${action}.`)
}

/** A new company id or role name must match ID_PATTERN; `what` names it in the message. */
export function checkId(id: string, what: 'company id' | 'role name', parameter: string): void {
  if (!ID_PATTERN.test(id)) {
    throw new AppError('INVALID_PARAMETER', `Invalid ${what} "${id}": use a lower-case letter, then lower-case letters, digits or underscores (at most 64).`, {
      parameter,
    })
  }
}

/** Refuses a grant (or revocation) of a role the caller may not hand out to users of `company`. */
export function requireGrantable(p: Principal, role: RoleRecord, company: string, verb: 'grant' | 'revoke'): void {
  if (!canGrantRole(p, role, company)) {
    throw new AppError(
      'FORBIDDEN',
      `Not authorised to ${verb} the role "${role.role}": it gives capabilities you do not have (${role.capabilities.join(', ')}), or you do not manage the users of "${company}".`,
      { role: role.role },
    )
  }
}

/** Names for a message: the first five, then an ellipsis. */
export function shortList(names: readonly string[]): string {
  return names.length > 5 ? `${names.slice(0, 5).join(', ')} …` : names.join(', ')
}
