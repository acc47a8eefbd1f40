/**
 * Consistency checks of what a service left behind, read straight from the durable state (the
 * Store's catalog keys and the version folders under DATA_DIR) while no gateway runs. Used after
 * a SIGKILL: every problem found is returned as a sentence naming the object, so a failing test
 * says exactly what broke.
 */
import { readdir } from 'node:fs/promises'
import initSqlJs from 'sql.js'
import { KEYS, parentPath, type DirRecord, type TableRecord } from '../../gateway/catalog/records.js'
import { hasSqliteImage, isVersionId, loadColumn, loadSqliteImage, readTableMeta, tablesDir, TEMP_PREFIX } from '../../engine/storage/index.js'
import type { Store } from '../../shared/store/types.js'

/** What one table version holds, as far as the fault tests care. */
export interface TableContent {
  readonly rows: number
  /** The values of its text column `tag`, distinct, in dictionary order ('' left out). */
  readonly tags: readonly string[]
  /** For tables with an int column `k`: true when it is exactly 0, 1, … rows-1. */
  readonly kInOrder: boolean | null
}

export interface CatalogState {
  readonly dirs: ReadonlyMap<string, DirRecord>
  readonly tables: ReadonlyMap<string, TableRecord>
  /** Content of each table's version, by table path (only for versions that passed the checks). */
  readonly contents: ReadonlyMap<string, TableContent>
  readonly users: ReadonlySet<string>
  /** Versions retired (replaced or dropped) and not yet swept. */
  readonly retired: ReadonlySet<string>
  /** Version folders on disk that no table points at and that are not retired (writes cut short). */
  readonly orphanVersions: readonly string[]
  /** Temporary folders of writes cut short. */
  readonly tempFolders: readonly string[]
}

export interface CheckResult {
  readonly problems: string[]
  readonly state: CatalogState
}

const parse = <T>(raw: string | null): T | null => (raw === null ? null : (JSON.parse(raw) as T))

let sqlModule: Awaited<ReturnType<typeof initSqlJs>> | undefined

/** Reads the whole catalog and every version it names; returns every inconsistency found. */
export async function checkCatalog(store: Store, dataDir: string): Promise<CheckResult> {
  const problems: string[] = []
  const dirs = await readRecords<DirRecord>(store, 'cat:dir:', problems)
  const tables = await readRecords<TableRecord>(store, 'cat:table:', problems)
  checkTree(dirs, tables, problems)
  await checkListings(store, dirs, tables, problems)
  const retired = new Set(Object.keys(await store.hgetall(KEYS.retiredVersions)))
  const contents = new Map<string, TableContent>()
  for (const table of tables.values()) {
    if (retired.has(table.version)) problems.push(`table ${table.path} points at version ${table.version}, which is retired (the sweeper would delete it)`)
    const content = await checkVersion(dataDir, table, problems)
    if (content) contents.set(table.path, content)
  }
  const users = await checkUsers(store, problems)
  const { orphanVersions, tempFolders } = await leftovers(dataDir, tables, retired)
  return { problems, state: { dirs, tables, contents, users, retired, orphanVersions, tempFolders } }
}

async function readRecords<T extends { path: string }>(store: Store, prefix: string, problems: string[]): Promise<Map<string, T>> {
  const out = new Map<string, T>()
  for (const key of await store.keys(prefix)) {
    const path = key.slice(prefix.length)
    let record: T | null
    try {
      record = parse<T>(await store.get(key))
    } catch (err) {
      problems.push(`${key} is not valid JSON: ${(err as Error).message}`)
      continue
    }
    if (record === null) continue
    if (record.path !== path) problems.push(`${key} holds a record for path ${JSON.stringify(record.path)}`)
    out.set(path, record)
  }
  return out
}

/** Every object's folder exists, and no path is both a folder and a table. */
function checkTree(dirs: ReadonlyMap<string, DirRecord>, tables: ReadonlyMap<string, TableRecord>, problems: string[]): void {
  for (const [path, kind] of [...[...dirs.keys()].map((p) => [p, 'folder'] as const), ...[...tables.keys()].map((p) => [p, 'table'] as const)]) {
    const parent = parentPath(path)
    if (parent !== '' && !dirs.has(parent)) problems.push(`${kind} ${path} is in folder ${parent}, which does not exist`)
    if (kind === 'table' && dirs.has(path)) problems.push(`${path} is both a folder and a table`)
  }
}

/** Folder listings name exactly the objects that exist. */
async function checkListings(store: Store, dirs: ReadonlyMap<string, DirRecord>, tables: ReadonlyMap<string, TableRecord>, problems: string[]): Promise<void> {
  const listed = new Set<string>()
  for (const key of await store.keys('cat:entries:')) {
    const folder = key.slice('cat:entries:'.length)
    if (folder !== '' && !dirs.has(folder)) problems.push(`the listing of folder ${folder} exists but the folder does not`)
    for (const member of await store.smembers(key)) {
      const [kind, path] = [member.slice(0, member.indexOf(':')), member.slice(member.indexOf(':') + 1)]
      listed.add(member)
      const exists = kind === 'dir' ? dirs.has(path) : kind === 'table' ? tables.has(path) : false
      if (!exists) problems.push(`folder ${folder || '(root)'} lists ${member}, which does not exist`)
      if (parentPath(path) !== folder) problems.push(`folder ${folder || '(root)'} lists ${member}, which belongs elsewhere`)
    }
  }
  for (const path of dirs.keys()) if (!listed.has(`dir:${path}`)) problems.push(`folder ${path} is missing from its parent's listing`)
  for (const path of tables.keys()) if (!listed.has(`table:${path}`)) problems.push(`table ${path} is missing from its folder's listing`)
}

/**
 * The version a table points at is complete and agrees with the record: meta.json, every column
 * file of the right size (dictionary codes in range), and an SQLite image with the same rows.
 */
async function checkVersion(dataDir: string, table: TableRecord, problems: string[]): Promise<TableContent | null> {
  const where = `table ${table.path} (version ${table.version})`
  if (!isVersionId(table.version)) {
    problems.push(`${where}: not a version id`)
    return null
  }
  try {
    const meta = await readTableMeta(dataDir, table.version)
    if (meta.rows !== table.rows) problems.push(`${where}: the catalog says ${table.rows} rows, meta.json ${meta.rows}`)
    const names = (cols: readonly { name: string; type: string }[]): string => cols.map((c) => `${c.name}:${c.type}`).join(',')
    if (names(meta.columns) !== names(table.columns))
      problems.push(`${where}: the catalog's columns ${names(table.columns)} differ from meta.json's ${names(meta.columns)}`)
    let tags: string[] = []
    let kInOrder: boolean | null = null
    for (let i = 0; i < meta.columns.length; i++) {
      const column = await loadColumn(dataDir, meta, i)
      const name = meta.columns[i].name
      if (name === 'tag' && column.dict) tags = distinctUsed(new Int32Array(column.buffer), column.dict)
      if (name === 'k' && column.type === 'int') kInOrder = new Int32Array(column.buffer).every((v, r) => v === r)
    }
    // The image exists only once a fallback query built it; when it does, it must be whole.
    if (await hasSqliteImage(dataDir, meta.version)) {
      const sqliteRows = await countSqliteRows(await loadSqliteImage(dataDir, meta))
      if (sqliteRows !== meta.rows) problems.push(`${where}: the SQLite image has ${sqliteRows} rows, meta.json ${meta.rows}`)
    }
    return { rows: meta.rows, tags, kInOrder }
  } catch (err) {
    problems.push(`${where}: ${(err as Error).message}`)
    return null
  }
}

function distinctUsed(codes: Int32Array, dict: readonly string[]): string[] {
  const used = new Set<number>()
  for (const c of codes) used.add(c)
  return [...used]
    .sort((a, b) => a - b)
    .map((c) => dict[c])
    .filter((s) => s !== '')
}

async function countSqliteRows(image: SharedArrayBuffer): Promise<number> {
  sqlModule ??= await initSqlJs()
  const db = new sqlModule.Database(new Uint8Array(image).slice())
  try {
    return db.exec('select count(*) from data')[0].values[0][0] as number
  } finally {
    db.close()
  }
}

/** The user index and the user records agree. */
async function checkUsers(store: Store, problems: string[]): Promise<Set<string>> {
  const indexed = new Set(await store.smembers(KEYS.allUsers))
  const recorded = new Set((await store.keys('cat:user:')).map((k) => k.slice('cat:user:'.length)))
  for (const uid of indexed) if (!recorded.has(uid)) problems.push(`user ${uid} is in the user index but has no record`)
  for (const uid of recorded) if (!indexed.has(uid)) problems.push(`user ${uid} has a record but is not in the user index`)
  return recorded
}

/** Version folders no table points at and not retired, and temporary folders: writes cut short. */
export async function leftovers(
  dataDir: string,
  tables: ReadonlyMap<string, TableRecord>,
  retired: ReadonlySet<string>,
): Promise<{ orphanVersions: string[]; tempFolders: string[] }> {
  const names = await readdir(tablesDir(dataDir)).catch(() => [] as string[])
  const used = new Set([...tables.values()].map((t) => t.version))
  return {
    orphanVersions: names.filter((n) => isVersionId(n) && !used.has(n) && !retired.has(n)),
    tempFolders: names.filter((n) => n.startsWith(TEMP_PREFIX)),
  }
}
