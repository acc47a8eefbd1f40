/**
 * `savetable`: a query result written as a new immutable table version and committed to the
 * catalog. With replace=0 an existing table is an error and stays untouched; with replace=1 the
 * catalog switches to the new version in one atomic step.
 */
import { AppError } from '../../shared/errors.js'
import type { ResultSet } from '../../shared/protocol.js'
import { isValidPath, type ColumnSpec } from '../../shared/table.js'
import { removeTableVersion, writeTableVersion, type ColumnValues } from '../../engine/storage/index.js'
import { commitTable } from '../catalog/tables.js'
import { KEYS, parentPath, type TableRecord } from '../catalog/records.js'
import type { Principal } from '../catalog/principal.js'
import { canReplace, writableFolder } from '../catalog/write-access.js'
import type { Deps } from '../deps.js'

export interface SaveRequest {
  readonly path: string
  readonly replace: boolean
  readonly title?: string
}

function specsOf(result: ResultSet): ColumnSpec[] {
  return result.cols.map((c) => ({ name: c.name, type: c.logical, label: c.label, desc: c.desc || undefined, format: c.format, width: c.width, fixed: c.fixed === 1 }))
}

function valuesOf(result: ResultSet): ColumnValues[] {
  return result.columns.map((c) => (c.kind === 'text' ? c.data : c.data))
}

export async function saveResult(deps: Deps, user: Principal, result: ResultSet, req: SaveRequest): Promise<TableRecord> {
  const path = req.path.trim().toLowerCase()
  if (!isValidPath(path) || !path.includes('.')) {
    throw new AppError('INVALID_PARAMETER', `The savetable path "${req.path}" is not valid: use a folder and a name separated by dots, such as uploads.${user.uid}.mytable.`, { parameter: 'savetable' })
  }
  await writableFolder(deps.store, user, parentPath(path))
  const raw = await deps.store.get(KEYS.table(path))
  const existing = raw === null ? null : (JSON.parse(raw) as TableRecord)
  if (existing && !req.replace) throw new AppError('TABLE_EXISTS', `The table "${path}" already exists; send replace=1 to replace it.`, { table: path })
  if (existing && !canReplace(user, existing)) throw new AppError('FORBIDDEN', `Only the owner of "${path}" may replace it.`, { table: path })
  const meta = await writeTableVersion(deps.config.dataDir, { columns: specsOf(result), data: valuesOf(result) })
  try {
    return await commitTable(deps.store, { path, owner: user.uid, title: req.title }, meta, { mustNotExist: !req.replace })
  } catch (err) {
    // Nothing points at the version: remove it rather than leave it on disk.
    await removeTableVersion(deps.config.dataDir, meta.version).catch(() => undefined)
    throw err
  }
}
