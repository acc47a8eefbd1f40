/**
 * Checking, inside the catalog transaction that writes it, that every name given for an access
 * list (folder or table `users`/`uploaders`) is still an existing user or group.
 *
 * Checked before the transaction instead, a name could be dropped between the check and the
 * commit (an upload checks its reader list at upload_begin and commits minutes later) and land
 * in the list after drop_group or drop's purge had cleaned every list: the next principal made
 * with that name would then inherit the grant. Here the user and group keys of each name are
 * watched, so a drop committed meanwhile makes this change start again and fail cleanly; and
 * each name's refs revision is written, so a drop or create of that name racing with this grant
 * starts again and sees the new list entry (principal-purge.ts).
 */
import { AppError } from '../../shared/errors.js'
import type { WriteOp } from '../../shared/store/types.js'
import { KEYS, newRev } from './records.js'
import type { Watched } from './txn.js'

/** One named list of principals a change writes, with the parameter it came from (for messages). */
export interface NamedList {
  readonly names: readonly string[] | undefined
  readonly parameter: string
}

const principalNames = (lists: readonly NamedList[]): string[] => [...new Set(lists.flatMap((l) => (l.names ?? []).filter((n) => n !== '*')))]

/** The keys to watch for the lists: the user and group record of every name but '*'. */
export function nameGuardKeys(lists: readonly NamedList[]): string[] {
  return principalNames(lists).flatMap((n) => [KEYS.user(n), KEYS.group(n)])
}

/**
 * Under watch (nameGuardKeys must be among the watched keys): refuses names that are neither a
 * user nor a group, and returns the writes that mark each name as newly referenced.
 */
export function guardNames(w: Watched, lists: readonly NamedList[]): WriteOp[] {
  for (const { names, parameter } of lists) {
    const unknown = [...new Set((names ?? []).filter((n) => n !== '*' && (w.get(KEYS.user(n)) ?? null) === null && (w.get(KEYS.group(n)) ?? null) === null))]
    if (unknown.length > 0) {
      throw new AppError('INVALID_PARAMETER', `Invalid user or group name${unknown.length > 1 ? 's' : ''} in "${parameter}": ${unknown.join(', ')}.`, {
        parameter,
      })
    }
  }
  return principalNames(lists).map((n): WriteOp => ({ op: 'set', key: KEYS.nameRefsRev(n), value: newRev() }))
}
