/** Table and folder records in the catalog: lookup with permissions, and committing versions. */
import { AppError } from '../../shared/errors.js'
import { checkPathSegments } from '../../shared/name-limits.js'
import type { Store, WriteOp } from '../../shared/store/types.js'
import { isValidPath, type TableMeta, type ColumnSpec } from '../../shared/table.js'
import { canRead } from './access.js'
import type { Principal } from './principal.js'
import { KEYS, ancestorPaths, newRev, parentPath, parseRecord, type DirRecord, type TableRecord } from './records.js'
import { guardNames, nameGuardKeys, type NamedList } from './name-guard.js'
import { retireVersionOp } from './retired.js'
import { catalogTxn, isOutcomeUnknown, type TxnPlan, type Watched } from './txn.js'
import { beforeTheChange, isAppliedUnsaved } from '../../shared/store/unsaved.js'
import { parseRecordOnce } from '../cache/parsed-records.js'

export function noSuchTable(path: string): AppError {
  return new AppError('UNKNOWN_TABLE', `No such table "${path}"; check the path (folders and table name separated by dots).`, { table: path })
}

export function noSuchDirectory(path: string): AppError {
  return new AppError('UNKNOWN_DIRECTORY', `No such directory "${path}"; check the path (folder names separated by dots).`, { directory: path })
}

/**
 * The object at `path` with its folders, outermost first, in one round trip. Read on every call
 * (names must resolve to what the catalog says now); only the parsing of known texts is shared.
 */
async function withChain<T>(store: Store, key: string, path: string): Promise<{ object: T | null; chain: (DirRecord | null)[] }> {
  const [raw, ...dirs] = await store.mget([key, ...ancestorPaths(path).map(KEYS.dir)])
  return { object: parseRecordOnce<T>(raw), chain: dirs.map((d) => parseRecordOnce<DirRecord>(d)) }
}

/** The table at `path` if the caller may read it, else null (missing and unreadable alike). */
export async function visibleTable(store: Store, p: Principal, path: string): Promise<TableRecord | null> {
  if (!isValidPath(path)) return null
  const { object, chain } = await withChain<TableRecord>(store, KEYS.table(path), path)
  return object !== null && canRead(p, object, chain) ? object : null
}

/** The folder at `path` if the caller may read it, else null. */
export async function visibleDir(store: Store, p: Principal, path: string): Promise<DirRecord | null> {
  if (!isValidPath(path)) return null
  const { object, chain } = await withChain<DirRecord>(store, KEYS.dir(path), path)
  return object !== null && canRead(p, object, chain) ? object : null
}

/**
 * The table at `path` if the user may read it. A table the user may not read is reported exactly
 * like a missing one, so table names do not leak.
 */
export async function readableTable(store: Store, p: Principal, path: string): Promise<TableRecord> {
  const table = await visibleTable(store, p, path)
  if (table === null) throw noSuchTable(path)
  return table
}

/** Every table version the catalog knows: those tables point at, and those retired but kept for a while. */
export async function knownVersions(store: Store): Promise<Set<string>> {
  const known = new Set(Object.keys(await store.hgetall(KEYS.retiredVersions)))
  const keys = await store.keys(KEYS.table(''))
  for (let i = 0; i < keys.length; i += 500) {
    for (const raw of await store.mget(keys.slice(i, i + 500))) {
      const table = parseRecord<TableRecord>(raw)
      if (table) known.add(table.version)
    }
  }
  return known
}

export async function getDir(store: Store, path: string): Promise<DirRecord | null> {
  return parseRecord<DirRecord>(await store.get(KEYS.dir(path)))
}

/** Writes that list a new object in its folder and mark the folder's contents as changed. */
export function listInFolderOps(kind: 'dir' | 'table', path: string): WriteOp[] {
  const parent = parentPath(path)
  return [
    { op: 'sadd', key: KEYS.entries(parent), members: [`${kind}:${path}`] },
    { op: 'set', key: KEYS.contentsRev(parent), value: newRev() },
  ]
}

/** Writes that take an object out of its folder's listing. */
export function unlistFromFolderOps(kind: 'dir' | 'table', path: string): WriteOp[] {
  const parent = parentPath(path)
  return [
    { op: 'srem', key: KEYS.entries(parent), members: [`${kind}:${path}`] },
    { op: 'set', key: KEYS.contentsRev(parent), value: newRev() },
  ]
}

export interface DirInit {
  readonly path: string
  readonly owner: string
  readonly title?: string
  readonly users?: readonly string[]
  readonly uploaders?: readonly string[]
  readonly inherit?: boolean
  readonly sdesc?: string
  readonly ldesc?: string
}

export function newDirRecord(id: number, init: DirInit): DirRecord {
  const now = new Date().toISOString()
  return {
    kind: 'dir',
    id,
    path: init.path,
    title: init.title ?? init.path.split('.').pop()!,
    owner: init.owner,
    users: init.users ?? [],
    uploaders: init.uploaders ?? [],
    inherit: init.inherit ?? true,
    sdesc: init.sdesc ?? '',
    ldesc: init.ldesc ?? '',
    created: now,
    updated: now,
  }
}

/**
 * Creates a folder unless a folder is already there; returns the folder. The parent must exist
 * (the root always does). `created` tells whether this call made it.
 */
export async function createDir(store: Store, init: DirInit, opts: { mustNotExist?: boolean } = {}): Promise<{ dir: DirRecord; created: boolean }> {
  const parent = parentPath(init.path)
  const id = await beforeTheChange(() => store.incr(KEYS.objectId))
  const named = [
    { names: init.users, parameter: 'users' },
    { names: init.uploaders, parameter: 'uploaders' },
  ]
  return catalogTxn<{ dir: DirRecord; created: boolean }>(
    store,
    () => [KEYS.dir(init.path), KEYS.table(init.path), ...(parent ? [KEYS.dir(parent)] : []), ...nameGuardKeys(named)],
    (w) => {
      const existing = parseRecord<DirRecord>(w.get(KEYS.dir(init.path)) ?? null)
      if (existing) {
        if (opts.mustNotExist) throw new AppError('ALREADY_EXISTS', `The directory "${init.path}" already exists.`, { directory: init.path })
        return { ops: [], result: { dir: existing, created: false } }
      }
      if (w.get(KEYS.table(init.path)))
        throw new AppError('ALREADY_EXISTS', `A table named "${init.path}" already exists; choose another folder name.`, { directory: init.path })
      if (parent && !w.get(KEYS.dir(parent))) throw noSuchDirectory(parent)
      checkPathSegments(init.path)
      const dir = newDirRecord(id, init)
      return {
        ops: [{ op: 'set', key: KEYS.dir(dir.path), value: JSON.stringify(dir) }, ...listInFolderOps('dir', dir.path), ...guardNames(w, named)],
        result: { dir, created: true },
      }
    },
  )
}

/** Creates the folder (not its parents) unless it exists; returns the folder. */
export async function ensureDir(store: Store, init: DirInit): Promise<DirRecord> {
  return (await createDir(store, init)).dir
}

export interface TableInit {
  readonly path: string
  readonly owner: string
  readonly title?: string
  readonly users?: readonly string[]
  readonly inherit?: boolean
  readonly sdesc?: string
  readonly ldesc?: string
}

export function tableExists(path: string): AppError {
  return new AppError('TABLE_EXISTS', `The table "${path}" already exists; send replace=1 to replace it.`, { table: path })
}

type CommitOptions = {
  mustNotExist?: boolean
  /** The table must still be at this version (an append was built from it). */
  expectVersion?: string
  /**
   * A replacement: whatever the table holds now (or nothing) may be replaced, as long as this
   * check, asked again on every attempt, does not throw (the caller may still replace it).
   * Its rows do not depend on the old ones, so a race with another writer costs one more
   * catalog attempt, never a rewrite of the version.
   */
  replacing?: (previous: TableRecord | null) => void
}

/**
 * Points the catalog at a freshly written version: one atomic batch that writes the table record,
 * lists it in its folder and retires the version it replaces. The version folder must already be
 * complete on disk. With `expectVersion`, the table must still be at that version (append:
 * the new version was built from it).
 *
 * When the store fails during the commit itself, the batch may have been applied anyway, and a
 * caller that took the failure at its word would delete the version the catalog now points at.
 * So the table is read back (confirmCommit): applied, and this is a success; not applied, and the
 * store answers again, so the commit is made once more; no answer, and the error stays marked
 * OUTCOME_UNKNOWN (isOutcomeUnknown): the caller must then leave the version in place (if the
 * commit did not land, it is an uncommitted version, which a restart removes).
 */
export async function commitTable(store: Store, init: TableInit, meta: TableMeta, opts: CommitOptions = {}): Promise<TableRecord> {
  if (!isValidPath(init.path) || !init.path.includes('.')) {
    throw new AppError('INVALID_PARAMETER', `Invalid table path "${init.path}": use dotted lower-case names inside a folder, such as uploads.me.sales.`)
  }
  const parent = parentPath(init.path)
  const id = await beforeTheChange(() => store.incr(KEYS.objectId))
  for (let attempt = 1; ; attempt++) {
    try {
      return await catalogTxn(
        store,
        () => [KEYS.table(init.path), KEYS.dir(init.path), KEYS.dir(parent), ...nameGuardKeys(readersOf(init))],
        (w) => planCommit(w, init, meta, opts, id),
      )
    } catch (err) {
      // Known to be in effect (the embedded store could not save it): the caller keeps the version.
      if (!isOutcomeUnknown(err) || isAppliedUnsaved(err)) throw err
      const found = await confirmCommit(store, init.path, meta.version)
      if (found === 'unknown') throw err
      if (found !== 'absent') return found
      if (attempt === COMMIT_TRIES) {
        // Known not to have been applied: the caller may clean up as after any other failure.
        throw new AppError('UNAVAILABLE', err.message, { table: init.path }, { cause: err.cause })
      }
    }
  }
}

/** The writes of one commit attempt, from the watched table, folder and parent keys. */
function planCommit(w: Watched, init: TableInit, meta: TableMeta, opts: CommitOptions, id: number): TxnPlan<TableRecord> {
  const parent = parentPath(init.path)
  const previous = parseRecord<TableRecord>(w.get(KEYS.table(init.path)) ?? null)
  // Already pointing at this version (version ids are unique): an earlier attempt whose answer
  // was lost did commit, or a client library sent that batch again after a reconnect.
  if (previous?.version === meta.version) return { ops: [], result: previous }
  if (previous && opts.mustNotExist) throw tableExists(init.path)
  // Whatever route created it: a new table's names are within the limit (one made before may be replaced).
  if (!previous) checkPathSegments(init.path)
  opts.replacing?.(previous)
  if (opts.expectVersion !== undefined && previous?.version !== opts.expectVersion) {
    // changedMeanwhile tells a caller that retries lost races this one from a store failure.
    throw new AppError('UNAVAILABLE', `The table "${init.path}" changed while this change was being made; try again.`, {
      table: init.path,
      changedMeanwhile: true,
    })
  }
  if (w.get(KEYS.dir(init.path)))
    throw new AppError('ALREADY_EXISTS', `A folder named "${init.path}" already exists; choose another table name.`, { table: init.path })
  if (!w.get(KEYS.dir(parent))) throw noSuchDirectory(parent)
  const now = new Date().toISOString()
  const record: TableRecord = {
    kind: 'table',
    id: previous?.id ?? id,
    path: init.path,
    title: init.title ?? previous?.title ?? init.path.split('.').pop()!,
    owner: previous?.owner ?? init.owner,
    users: init.users ?? previous?.users ?? [],
    inherit: init.inherit ?? previous?.inherit ?? true,
    sdesc: init.sdesc ?? previous?.sdesc ?? '',
    ldesc: init.ldesc ?? previous?.ldesc ?? '',
    version: meta.version,
    rows: meta.rows,
    columns: meta.columns as ColumnSpec[],
    created: previous?.created ?? now,
    updated: now,
  }
  const ops: WriteOp[] = [{ op: 'set', key: KEYS.table(record.path), value: JSON.stringify(record) }, ...guardNames(w, readersOf(init))]
  if (previous) ops.push(retireVersionOp(previous.version))
  else ops.push(...listInFolderOps('table', record.path))
  return { ops, result: record }
}

/** The reader list a commit gives, checked under watch (an upload names it long before it commits). */
const readersOf = (init: TableInit): NamedList[] => [{ names: init.users, parameter: 'users' }]

/** Commit attempts after a store failure that provably did not apply the batch. */
const COMMIT_TRIES = 2

/** How long commitTable keeps asking a failing store whether its commit landed. */
const CONFIRM_TRIES = 8
const CONFIRM_STEP_MS = 250

/**
 * After a commit of `version` at `path` failed in the store: the table record if the commit was
 * applied after all, 'absent' if it was not, 'unknown' while the store stays unreachable (about
 * two seconds). A read answered after the failure reflects the batch either way: on the same
 * connection it is served after the batch, and a connection that broke has had its commands
 * applied or dropped by the time a new one answers.
 */
async function confirmCommit(store: Store, path: string, version: string): Promise<TableRecord | 'absent' | 'unknown'> {
  for (let attempt = 1; ; attempt++) {
    try {
      const current = parseRecord<TableRecord>(await store.get(KEYS.table(path)))
      return current?.version === version ? current : 'absent'
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'UNAVAILABLE' || attempt === CONFIRM_TRIES) return 'unknown'
      await new Promise((resolve) => setTimeout(resolve, CONFIRM_STEP_MS))
    }
  }
}

/**
 * Whether a failed commitTable lost a race: the table was created, replaced or dropped by someone
 * else meanwhile (the caller may look again and retry). A store failure is not a lost race.
 */
export const lostCommitRace = (err: unknown): boolean =>
  err instanceof AppError && (err.code === 'TABLE_EXISTS' || (err.code === 'UNAVAILABLE' && err.detail.changedMeanwhile === true))
