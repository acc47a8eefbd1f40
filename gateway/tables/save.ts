/**
 * Saving rows as a table: api/run's `savetable`, dbm `save_table` and `upload_table`. The rows
 * are written as a new immutable version and the catalog is switched to it in one conditional
 * step: on what it was when the save started (missing, or the version replaced or appended to).
 * A replacement accepts whatever the table became meanwhile (its owner checked again), so
 * concurrent replaces all land, the last one winning. An append was built from one version: if
 * someone else changed the table meanwhile, it starts again from the new state, with a growing
 * random pause, and after ATTEMPTS tries gives up with 409 `conflict` saying what changed. A
 * version that the catalog does not end up pointing at is removed at once.
 */
import { withoutFormatWidth } from '../../shared/format-width.js'
import { checkFieldLength, checkPathSegments } from '../../shared/name-limits.js'
import { AppError } from '../../shared/errors.js'
import type { ResultSet } from '../../shared/protocol.js'
import { isValidPath, type ColumnSpec } from '../../shared/table.js'
import { isOutcomeUnknown } from '../catalog/txn.js'
import { removeTableVersion, type ColumnValues, type TableInput } from '../../engine/index.js'
import { writeTableOffThread } from './table-writer.js'
import { commitTable, lostCommitRace } from '../catalog/tables.js'
import { inTurn, keptChanging, raceBackoff } from '../catalog/races.js'
import { KEYS, parentPath, parseRecord, type TableRecord } from '../catalog/records.js'
import type { Principal } from '../catalog/principal.js'
import { canReplace, writableFolder } from '../catalog/write-access.js'
import type { Config } from '../../shared/config.js'
import type { Store } from '../../shared/store/types.js'
import type { TableCache } from './table-cache.js'
import { appendRows, readVersionValues } from './append.js'
import { textSlice } from '../../shared/result-text.js'

/** noreplace: the table must not exist; replace: new rows only; append: old rows, then new. */
export type SaveMode = 'noreplace' | 'replace' | 'append'

export interface SaveRequest {
  readonly path: string
  readonly mode: SaveMode
  /** Catalog fields; when given they also apply to a table that is replaced or appended to. */
  readonly title?: string
  readonly sdesc?: string
  readonly ldesc?: string
  readonly users?: readonly string[]
  readonly inherit?: boolean
  /** How the caller's interface asks for a replacement, for the "already exists" message. */
  readonly replaceHint?: string
  /** The parameter that named the path, for messages. */
  readonly pathParam?: string
}

/**
 * The rows to save. `appendTo` is the column list of the table being appended to (null
 * otherwise), so an upload can read its values with the table's types.
 */
export type RowsBuilder = (appendTo: readonly ColumnSpec[] | null) => Promise<TableInput> | TableInput

export const ATTEMPTS = 8

/** What saving uses (named as in Deps, so a route passes its deps as they are). */
export interface SaveServices {
  /** The catalog: folders, the table record, the commit. */
  readonly store: Store
  /** Where versions are written, and the cell and row limits they are written under. */
  readonly config: Pick<Config, 'dataDir' | 'maxCellBytes' | 'maxRowBytes' | 'tableSegmentRows'>
  /** The version an append reads its old rows from. */
  readonly tables: TableCache
}

/**
 * Saves the rows `build` gives at `req.path`; returns the committed record. Permission and mode
 * are checked before `build` runs, so a refused save never computes (or writes) anything.
 */
export async function saveTable(services: SaveServices, user: Principal, req: SaveRequest, build: RowsBuilder): Promise<TableRecord> {
  for (const field of ['title', 'sdesc', 'ldesc'] as const)
    checkFieldLength(field, req[field], `the ${field} of the table`, 'INVALID_PARAMETER', { parameter: field })
  checkFieldLength('path', req.path, `the table path`, 'INVALID_PARAMETER', { parameter: req.pathParam ?? 'path' })
  const path = checkTablePath(user, req)
  const folder = parentPath(path)
  // The caller's home folder is made on demand, but only once the rows are known to be good.
  const home = folder === `uploads.${user.uid}`
  if (!home) await writableFolder(services.store, user, folder)
  // Appends to one table take turns on this gateway: each builds on the one before, no race.
  return req.mode === 'append' ? inTurn(path, () => saveAttempts(services, user, req, path, build)) : saveAttempts(services, user, req, path, build)
}

async function saveAttempts(services: SaveServices, user: Principal, req: SaveRequest, path: string, build: RowsBuilder): Promise<TableRecord> {
  const folder = parentPath(path)
  const home = folder === `uploads.${user.uid}`
  for (let attempt = 1; ; attempt++) {
    const existing = parseRecord<TableRecord>(await services.store.get(KEYS.table(path)))
    checkMode(user, path, req, existing)
    const rows = await build(req.mode === 'append' && existing ? existing.columns : null)
    const input = req.mode === 'append' && existing ? appendRows(path, await readVersionValues(services.tables, existing.version, path), rows) : rows
    if (home) await writableFolder(services.store, user, folder)
    // Encoding and writing a large table takes seconds of CPU: not on the event loop.
    const meta = await writeTableOffThread(
      services.config.dataDir,
      input,
      {
        maxCellBytes: services.config.maxCellBytes,
        maxRowBytes: services.config.maxRowBytes,
      },
      services.config.tableSegmentRows,
    )
    try {
      const init = { path, owner: user.uid, title: req.title, sdesc: req.sdesc, ldesc: req.ldesc, users: req.users, inherit: req.inherit }
      const opts =
        req.mode === 'replace'
          ? { replacing: (now: TableRecord | null) => checkMode(user, path, req, now) }
          : existing
            ? { expectVersion: existing.version }
            : { mustNotExist: true }
      return await commitTable(services.store, init, meta, opts)
    } catch (err) {
      // A commit the store may have applied without saying so may be what the catalog now
      // points at: keep its version (an embedded-store restart removes it if it never landed).
      if (isOutcomeUnknown(err)) throw err
      await removeTableVersion(services.config.dataDir, meta.version).catch(() => undefined)
      if (!lostCommitRace(err)) throw err
      if (req.mode === 'noreplace') throw tableExists(path, req)
      if (attempt === ATTEMPTS) throw await keptChanging(services.store, path, existing, 'send the append again')
      await raceBackoff(attempt)
    }
  }
}

function checkTablePath(user: Principal, req: SaveRequest): string {
  const path = req.path.trim().toLowerCase()
  if (!isValidPath(path) || !path.includes('.')) {
    const param = req.pathParam ?? 'path'
    throw new AppError(
      'INVALID_PARAMETER',
      `Invalid table name "${req.path}" in "${param}": use a folder and a name separated by dots, such as uploads.${user.uid}.mytable.`,
      { parameter: param },
    )
  }
  checkPathSegments(path, req.pathParam ?? 'path')
  return path
}

function tableExists(path: string, req: SaveRequest): AppError {
  return new AppError('TABLE_EXISTS', `Table already exists: "${path}"; ${req.replaceHint ?? 'send replace=1 to replace it'}, or choose another name.`, {
    table: path,
  })
}

function checkMode(user: Principal, path: string, req: SaveRequest, existing: TableRecord | null): void {
  if (!existing) return
  if (req.mode === 'noreplace') throw tableExists(path, req)
  if (!canReplace(user, existing)) {
    const verb = req.mode === 'append' ? 'append to' : 'replace'
    throw new AppError('FORBIDDEN', `You do not own the table "${path}": only its owner or an administrator may ${verb} it; save under another name instead.`, {
      table: path,
    })
  }
}

function specsOf(result: ResultSet): ColumnSpec[] {
  return result.cols.map((c) => ({
    name: c.name,
    type: c.logical,
    label: c.label,
    desc: c.desc || undefined,
    // A width the format did not state stays a plain width, not one that cuts values once saved.
    format: c.cutAt === undefined ? withoutFormatWidth(c.format) || undefined : c.format,
    width: c.width,
    fixed: c.fixed === 1,
  }))
}

/** A query result as the rows to save. */
export function resultRows(result: ResultSet): TableInput {
  return { columns: specsOf(result), data: result.columns.map((c): ColumnValues => (c.kind === 'coded' ? textSlice(c) : c.data)) }
}

/** api/run's `savetable`: the result of the query just run, saved with the caller's rights. */
export async function saveResult(services: SaveServices, user: Principal, result: ResultSet, req: SaveRequest): Promise<TableRecord> {
  return saveTable(services, user, { pathParam: 'savetable', ...req }, () => resultRows(result))
}
