/**
 * What the transactions that edit a folder or a table share: the fields given, and the object as
 * read again under watch. Every such edit checks the object before its transaction and again
 * inside it, where the object may have been dropped, replaced or given away meanwhile.
 */
import type { AppError } from '../../shared/errors.js'
import type { Store } from '../../shared/store/types.js'
import { guardNames, nameGuardKeys, type NamedList } from '../catalog/name-guard.js'
import type { Principal } from '../catalog/principal.js'
import { KEYS, parseRecord, type CatalogObject } from '../catalog/records.js'
import { catalogTxn, type Watched } from '../catalog/txn.js'
import type { ParamSpec } from './schema.js'
import { requireOwner } from './common.js'

/** The descriptive texts of a folder or a table, as their edits take them. */
export const DESCRIPTION_PARAMS = {
  title: { type: 'string', doc: 'The display title.' },
  sdesc: { type: 'string', doc: 'The short description.' },
  ldesc: { type: 'string', doc: 'The long description.' },
} as const satisfies Readonly<Record<string, ParamSpec>>

/** The catalog key of a folder or a table. */
export const keyOf = (o: Pick<CatalogObject, 'kind' | 'path'>): string => (o.kind === 'dir' ? KEYS.dir(o.path) : KEYS.table(o.path))

/** The parameters among `fields` that were given: they replace the record's values as they are. */
export function plainChanges<P extends object, K extends keyof P>(p: P, fields: readonly K[]): Partial<Pick<P, K>> {
  const out: Partial<Pick<P, K>> = {}
  for (const f of fields) if (p[f] !== undefined) out[f] = p[f]
  return out
}

/**
 * The object as watched, if it is still the one `user` was checked against and still theirs to
 * change. Dropped meanwhile (or dropped and made again) it throws `gone(path)`, the error the
 * transaction gives for a missing object; given away meanwhile, the owner's refusal.
 */
export function stillOwned<T extends CatalogObject>(w: Watched, user: Principal, checked: T, gone: (path: string) => AppError): T {
  const current = parseRecord<T>(w.get(keyOf(checked)) ?? null)
  if (!current || current.id !== checked.id) throw gone(checked.path)
  requireOwner(user, current)
  return current
}

/**
 * Writes `edit(current)` over a folder or table in one transaction: the object as stillOwned
 * finds it, and every name in `named` checked again under watch (a group dropped meanwhile must
 * not land in a list). Answers the record written.
 */
export function editOwned<T extends CatalogObject>(
  store: Store,
  user: Principal,
  checked: T,
  gone: (path: string) => AppError,
  named: readonly NamedList[],
  edit: (current: T) => T,
): Promise<T> {
  return catalogTxn(
    store,
    () => [keyOf(checked), ...nameGuardKeys(named)],
    (w) => {
      const next = edit(stillOwned(w, user, checked, gone))
      return { ops: [{ op: 'set', key: keyOf(next), value: JSON.stringify(next) }, ...guardNames(w, named)], result: next }
    },
  )
}
