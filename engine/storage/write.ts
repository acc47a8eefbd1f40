/**
 * Writing a new table version. Everything goes into a temporary folder that is fsynced and then
 * renamed into place, so a version folder either is complete or does not exist.
 */
import './endian.js'
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { ColumnSpec, TableMeta } from '../../shared/table.js'
import { encodeStoredText } from './dictionary.js'
import { bytesOf, syncDir, writeFileDurably } from './durable.js'
import { columnFile, dictFile, META_FILE, newVersionId, segmentFile, tablesDir, TEMP_PREFIX, versionDir } from './layout.js'
import { DEFAULT_SEGMENT_ROWS, segmentStartsFor } from './segments.js'
import type { ColumnValues } from './types.js'
import { validateTable } from './validate.js'
import { checkCellLimits, type CellLimits } from './cell-limits.js'
import { mapVolumeFull } from './volume-full.js'

/** A table to store: column specs and, in the same order, their values. */
export interface TableInput {
  readonly columns: readonly ColumnSpec[]
  readonly data: readonly ColumnValues[]
}

/**
 * Validate and store `input` as a new immutable version under `${dataDir}/tables/`, returning its
 * metadata. Throws AppError('INVALID_PARAMETER') naming the column if the input is malformed.
 * Nothing is visible under the version's name until every file is written and fsynced; on any
 * failure the partial folder is removed. Committing the version to the catalog is the caller's job.
 * A table of more than `segmentRows` rows (TABLE_SEGMENT_ROWS) is stored in row segments (segments.ts).
 */
export async function writeTableVersion(
  dataDir: string,
  input: TableInput,
  limits?: CellLimits,
  segmentRows: number = DEFAULT_SEGMENT_ROWS,
): Promise<TableMeta> {
  const rows = validateTable(input.columns, input.data)
  if (limits) checkCellLimits(input.columns, input.data, limits)
  const version = newVersionId()
  const segments = segmentStartsFor(rows, segmentRows)
  const meta: TableMeta = {
    version,
    rows,
    columns: input.columns.map(cleanSpec),
    ...(segments !== undefined && { segments }),
    int64: true,
    createdAt: new Date().toISOString(),
  }
  await publishVersion(dataDir, meta, (tmp) => writeFiles(tmp, meta, input.data))
  return meta
}

/**
 * Makes the version folder of `meta` appear whole or not at all: `fill` writes the files into a
 * temporary folder, then meta.json is written (last: a folder with a meta.json has everything
 * else already), the folder is fsynced and renamed into place. On any failure the partial folder
 * is removed — always safe, since the catalog has not heard of this version yet.
 */
export async function publishVersion(dataDir: string, meta: TableMeta, fill: (tmp: string) => Promise<void>): Promise<void> {
  // A full volume answers 507 (volume-full.ts); the partial folder is gone either way.
  await mapVolumeFull(() => publishVersionFiles(dataDir, meta, fill))
}

async function publishVersionFiles(dataDir: string, meta: TableMeta, fill: (tmp: string) => Promise<void>): Promise<void> {
  const root = tablesDir(dataDir)
  await mkdir(root, { recursive: true })
  const tmp = await mkdtemp(join(root, TEMP_PREFIX))
  const final = versionDir(dataDir, meta.version)
  let renamed = false
  try {
    await fill(tmp)
    await writeFileDurably(join(tmp, META_FILE), JSON.stringify(meta, null, 1))
    await syncDir(tmp)
    await rename(tmp, final)
    renamed = true
    await syncDir(root)
  } catch (e) {
    await rm(renamed ? final : tmp, { recursive: true, force: true }).catch(() => undefined)
    throw e
  }
}

/** The column files; the SQLite image is left to the first query that needs it (sqlite-image-add.ts). */
async function writeFiles(dir: string, meta: TableMeta, data: readonly ColumnValues[]): Promise<void> {
  for (let i = 0; i < data.length; i++) {
    const values = data[i]
    if (meta.columns[i].type === 'text') {
      const { codes, dict } = encodeStoredText(values as readonly string[])
      await writeColumn(dir, meta, i, codes)
      await writeFileDurably(join(dir, dictFile(i)), JSON.stringify(dict))
    } else {
      await writeColumn(dir, meta, i, values as Int32Array | Float64Array | BigInt64Array)
    }
  }
}

/** One column's values: one file, or one per row segment (a text column's segments share its dictionary). */
async function writeColumn(dir: string, meta: TableMeta, i: number, values: Int32Array | Float64Array | BigInt64Array): Promise<void> {
  if (meta.segments === undefined) return writeFileDurably(join(dir, columnFile(i)), bytesOf(values))
  const starts = meta.segments
  for (let k = 0; k < starts.length; k++) {
    const end = k + 1 < starts.length ? starts[k + 1] : meta.rows
    await writeFileDurably(join(dir, segmentFile(i, k)), bytesOf(values.subarray(starts[k], end)))
  }
}

/** Keep only the ColumnSpec fields, so stray properties of the input never reach meta.json. */
export function cleanSpec(s: ColumnSpec): ColumnSpec {
  return {
    name: s.name,
    type: s.type,
    ...(s.label !== undefined && { label: s.label }),
    ...(s.desc !== undefined && { desc: s.desc }),
    ...(s.width !== undefined && { width: s.width }),
    ...(s.format !== undefined && { format: s.format }),
    ...(s.fixed !== undefined && { fixed: s.fixed }),
  }
}
