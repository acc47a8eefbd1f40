/**
 * A principal's name must not outlive it. Folders and tables name their readers and uploaders,
 * and groups their members, by user or group name (the names the reference shows); so the
 * change that drops a group takes its name out of every such list, and the change that creates a
 * user or group takes the new name out of every list too. Both in the same atomic batch as the
 * drop or create itself, with every list that names it watched, so nothing the old principal was
 * given reaches a new one of the same name:
 *
 * - a grant of the name committed meanwhile writes KEYS.nameRefsRev(name) (name-guard.ts), which
 *   is watched here, so the change starts again and sees the new entry;
 * - a grant committed afterwards finds the group gone (it watches the name's records) and fails;
 * - creating the name again purges too, which also cleans catalogs written by releases that left
 *   dropped names behind, without a separate migration.
 */
import type { Store, WriteOp } from '../../shared/store/types.js'
import { gatheredTxn } from './people.js'
import { KEYS, newRev, parseRecord, type DirRecord, type GroupRecord, type TableRecord } from './records.js'
import type { TxnPlan, Watched } from './txn.js'

const DIR_PREFIX = KEYS.dir('')
const TABLE_PREFIX = KEYS.table('')
const GROUP_PREFIX = KEYS.group('')
const BATCH = 500

type Listing = DirRecord | TableRecord | GroupRecord

/** True when the record (folder, table or group, parsed from `key`) lists `name` in an access or member list. */
function lists(key: string, record: Listing, name: string): boolean {
  if (key.startsWith(GROUP_PREFIX)) return (record as GroupRecord).group !== name && record.users.includes(name)
  return record.users.includes(name) || ('kind' in record && record.kind === 'dir' && record.uploaders.includes(name))
}

const isListingKey = (key: string): boolean => key.startsWith(DIR_PREFIX) || key.startsWith(TABLE_PREFIX) || key.startsWith(GROUP_PREFIX)

/** Keys of every folder, table and other group whose lists name `name`, as the catalog is now. */
export async function listingsOf(store: Store, name: string): Promise<string[]> {
  const groupKeys = (await store.smembers(KEYS.allGroups)).map(KEYS.group)
  const keys = [...(await store.keys(DIR_PREFIX)), ...(await store.keys(TABLE_PREFIX)), ...groupKeys]
  const found: string[] = []
  for (let i = 0; i < keys.length; i += BATCH) {
    const slice = keys.slice(i, i + BATCH)
    const raws = await store.mget(slice)
    raws.forEach((raw, j) => {
      const record = parseRecord<Listing>(raw)
      if (record && lists(slice[j], record, name)) found.push(slice[j])
    })
  }
  return found
}

/** Writes that take `name` out of every watched folder, table and other group listing it. */
export function purgeNameOps(w: Watched, name: string): WriteOp[] {
  const now = new Date().toISOString()
  const ops: WriteOp[] = []
  for (const [key, raw] of w) {
    if (!isListingKey(key)) continue
    const record = parseRecord<Listing>(raw)
    if (!record || !lists(key, record, name)) continue
    const without = (names: readonly string[]): string[] => names.filter((n) => n !== name)
    const next =
      'kind' in record && record.kind === 'dir'
        ? { ...record, users: without(record.users), uploaders: without(record.uploaders), updated: now }
        : { ...record, users: without(record.users), updated: now }
    ops.push({ op: 'set', key, value: JSON.stringify(next) })
  }
  return ops
}

/**
 * catalogTxn for a change that drops or creates the principal `name`: `fixed` and every list
 * naming `name` are watched, and when `plan` writes anything, the writes taking `name` out of
 * those lists join its batch. `plan` must not write the listing records itself.
 */
export function purgingTxn<T>(store: Store, name: string, fixed: readonly string[], plan: (w: Watched) => TxnPlan<T> | Promise<TxnPlan<T>>): Promise<T> {
  return gatheredTxn(
    store,
    [...fixed, KEYS.nameRefsRev(name)],
    () => listingsOf(store, name),
    async (w) => {
      const { ops, result } = await plan(w)
      if (ops.length === 0) return { ops, result }
      const purge = purgeNameOps(w, name)
      // Gateways cache group membership until the groups revision changes (principal.ts): a member
      // list rewritten here must change it, or a cached membership would still count the old name.
      const groupsChanged = purge.some((o) => o.key.startsWith(GROUP_PREFIX)) && !ops.some((o) => o.key === KEYS.groupsRev)
      return { ops: [...ops, ...purge, ...(groupsChanged ? [{ op: 'set', key: KEYS.groupsRev, value: newRev() } as const] : [])], result }
    },
  )
}
