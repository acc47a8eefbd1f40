/**
 * A folder with everything below it, and the two changes that take a whole subtree at once:
 * dropping it and moving it. Both must not miss an object created inside the tree while they
 * run, or it would stay behind as an orphan nobody can list. So they watch every folder record
 * and contentsRev key of the tree (a creation inside a folder changes its contentsRev in the
 * same batch) plus every table record, then read the tree again after the watch began: if it
 * changed in between, the watched keys may not cover it and the change starts over.
 */
import { AppError } from '../../shared/errors.js'
import type { Store, WriteOp } from '../../shared/store/types.js'
import { KEYS, newRev, parseRecord, type DirRecord, type TableRecord } from './records.js'
import { retireVersionOp } from './retired.js'
import { listInFolderOps, unlistFromFolderOps } from './tables.js'
import { catalogTxn, type TxnPlan, type Watched } from './txn.js'

/** A folder and what lies below it, as listed by the entries sets. */
export interface Subtree {
  readonly root: string
  /** Folder paths, the root first, parents before their children. */
  readonly dirs: readonly string[]
  readonly tables: readonly string[]
  /** Each folder's entries (`dir:path` / `table:path`), sorted. */
  readonly entries: ReadonlyMap<string, readonly string[]>
}

const splitEntry = (entry: string): { kind: string; path: string } => {
  const colon = entry.indexOf(':')
  return { kind: entry.slice(0, colon), path: entry.slice(colon + 1) }
}

/** Reads the entries sets from `root` down, one level per round trip. */
export async function gatherSubtree(store: Store, root: string): Promise<Subtree> {
  const dirs: string[] = []
  const tables: string[] = []
  const entries = new Map<string, readonly string[]>()
  let level = [root]
  while (level.length > 0) {
    const next: string[] = []
    const members = await Promise.all(level.map((d) => store.smembers(KEYS.entries(d))))
    level.forEach((dir, i) => {
      dirs.push(dir)
      entries.set(dir, members[i].sort())
      for (const e of members[i]) {
        const { kind, path } = splitEntry(e)
        // Only strictly deeper paths: a damaged entries set must not make the walk loop.
        if (kind === 'dir' && path.startsWith(`${dir}.`)) next.push(path)
        else if (kind === 'table') tables.push(path)
      }
    })
    level = next.sort()
  }
  return { root, dirs, tables: tables.sort(), entries }
}

/** The string keys whose change means the subtree (or one of its records) changed. */
export function subtreeKeys(tree: Subtree): string[] {
  return [...tree.dirs.flatMap((d) => [KEYS.dir(d), KEYS.contentsRev(d)]), ...tree.tables.map(KEYS.table)]
}

function sameSubtree(a: Subtree, b: Subtree): boolean {
  if (a.dirs.length !== b.dirs.length || a.tables.join('\n') !== b.tables.join('\n')) return false
  return a.dirs.every((d, i) => b.dirs[i] === d && (a.entries.get(d) ?? []).join('\n') === (b.entries.get(d) ?? []).join('\n'))
}

const RETRY = Symbol('subtree changed')
const MAX_GATHERS = 25

/**
 * Runs `plan` over the subtree at `root` as one catalog transaction watching the whole tree plus
 * `extraKeys`. `plan` sees the tree as it was when the watch began, and the watched values.
 */
export async function subtreeTxn<T>(
  store: Store,
  root: string,
  extraKeys: readonly string[],
  plan: (tree: Subtree, watched: Watched) => TxnPlan<T> | Promise<TxnPlan<T>>,
): Promise<T> {
  for (let attempt = 0; attempt < MAX_GATHERS; attempt++) {
    let tree: Subtree | null = null
    const result = await catalogTxn<T | typeof RETRY>(
      store,
      async () => {
        tree = await gatherSubtree(store, root)
        return [...subtreeKeys(tree), ...extraKeys]
      },
      async (watched) => {
        // Read after the watch began: equal to the first read means the watch covers the tree.
        const now = await gatherSubtree(store, root)
        if (!sameSubtree(tree!, now)) return { ops: [], result: RETRY }
        return plan(now, watched)
      },
    )
    if (result !== RETRY) return result
  }
  throw new AppError('UNAVAILABLE', `The folder "${root}" keeps changing while this change is being made; try again.`, { directory: root })
}

/**
 * Writes that remove the whole tree: every record, entries set and contentsRev key, the root's
 * place in its parent, and (retired, not deleted) every table version.
 */
export function dropSubtreeOps(tree: Subtree, watched: Watched): WriteOp[] {
  const ops: WriteOp[] = [...unlistFromFolderOps('dir', tree.root)]
  for (const d of tree.dirs) {
    ops.push({ op: 'del', key: KEYS.dir(d) }, { op: 'del', key: KEYS.entries(d) }, { op: 'del', key: KEYS.contentsRev(d) })
  }
  for (const t of tree.tables) {
    const table = parseRecord<TableRecord>(watched.get(KEYS.table(t)) ?? null)
    ops.push({ op: 'del', key: KEYS.table(t) })
    if (table) ops.push(retireVersionOp(table.version))
  }
  return ops
}

/**
 * Writes that re-key the whole tree from `tree.root` to `to`: records (with their new paths),
 * entries sets and contentsRev keys, and the root's place in the old and new parent folders.
 * Table versions stay as they are. `to` must not lie inside the tree; the root's `updated`
 * becomes `now`.
 */
export function moveSubtreeOps(tree: Subtree, watched: Watched, to: string, now: string): WriteOp[] {
  const from = tree.root
  const rekey = (path: string): string => to + path.slice(from.length)
  const ops: WriteOp[] = [...unlistFromFolderOps('dir', from), ...listInFolderOps('dir', to)]
  for (const d of tree.dirs) {
    const dir = parseRecord<DirRecord>(watched.get(KEYS.dir(d)) ?? null)
    const members = (tree.entries.get(d) ?? []).map((e) => {
      const { kind, path } = splitEntry(e)
      return `${kind}:${rekey(path)}`
    })
    ops.push({ op: 'del', key: KEYS.dir(d) }, { op: 'del', key: KEYS.entries(d) }, { op: 'del', key: KEYS.contentsRev(d) })
    if (dir) ops.push({ op: 'set', key: KEYS.dir(rekey(d)), value: JSON.stringify({ ...dir, path: rekey(d), ...(d === from && { updated: now }) }) })
    if (members.length > 0) ops.push({ op: 'sadd', key: KEYS.entries(rekey(d)), members })
    ops.push({ op: 'set', key: KEYS.contentsRev(rekey(d)), value: newRev() })
  }
  for (const t of tree.tables) {
    const table = parseRecord<TableRecord>(watched.get(KEYS.table(t)) ?? null)
    ops.push({ op: 'del', key: KEYS.table(t) })
    if (table) ops.push({ op: 'set', key: KEYS.table(rekey(t)), value: JSON.stringify({ ...table, path: rekey(t) }) })
  }
  return ops
}
