/**
 * A new version of a table that shares its data files with an existing version: only meta.json is
 * new. Column labels, descriptions and formats live in meta.json, and every reader keys its caches
 * on the version id, so changing them (or copying a table) must produce a new version; hard links
 * make that cost nothing however large the table is, and each version stays immutable and can be
 * removed without breaking the other. A SQLite image the source has is linked too: it holds the
 * same names, types and values, so it is the clone's image as well.
 */
import { copyFile, link, open, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { AppError } from '../../shared/errors.js'
import type { ColumnSpec, TableMeta } from '../../shared/table.js'
import { META_FILE, newVersionId, versionDir } from './layout.js'
import { readTableMeta } from './read.js'
import { cleanSpec, publishVersion } from './write.js'

type LinkFn = (existing: string, created: string) => Promise<void>

/**
 * Hard-link `src` to `dest`, or copy it (fsynced) when the file system refuses the link: another
 * device (EXDEV), no hard-link support (EPERM, ENOTSUP), too many links (EMLINK).
 */
export async function linkOrCopy(src: string, dest: string, linkFile: LinkFn = link): Promise<'linked' | 'copied'> {
  try {
    await linkFile(src, dest)
    return 'linked'
  } catch {
    // A missing source fails copyFile too, with its own error, so every cause can fall back.
    await copyFile(src, dest)
    const fh = await open(dest, 'r+')
    try {
      await fh.sync()
    } finally {
      await fh.close()
    }
    return 'copied'
  }
}

/**
 * The metadata of a clone: the old columns, or `columns` when given. Only labels, descriptions,
 * widths, formats and fixed flags may differ; names and types are what the data files hold.
 */
function cloneColumns(old: readonly ColumnSpec[], columns: readonly ColumnSpec[] | undefined): ColumnSpec[] {
  if (columns === undefined) return old.map(cleanSpec)
  if (columns.length !== old.length) {
    throw new AppError('INTERNAL', `A clone must keep the ${old.length} columns of its source, not ${columns.length}.`)
  }
  return columns.map((c, i) => {
    if (c.name !== old[i].name || c.type !== old[i].type) {
      throw new AppError('INTERNAL', `A clone must keep column ${i + 1} as ${old[i].name} (${old[i].type}), not ${c.name} (${c.type}).`)
    }
    return cleanSpec(c)
  })
}

/**
 * Make a new immutable version with the data of `version` and, when given, new column metadata
 * (same names and types, in the same order); returns its metadata. Like writeTableVersion, it is
 * assembled in a temporary folder, fsynced and renamed into place, and removed on any failure.
 * Committing the version to the catalog is the caller's job.
 */
export async function cloneTableVersion(dataDir: string, version: string, columns?: readonly ColumnSpec[]): Promise<TableMeta> {
  const source = await readTableMeta(dataDir, version)
  const meta: TableMeta = {
    version: newVersionId(),
    rows: source.rows,
    columns: cloneColumns(source.columns, columns),
    // The data files are the source's, segment files included: so is their layout.
    ...(source.segments !== undefined && { segments: source.segments }),
    ...(source.int64 === true && { int64: true }),
    createdAt: new Date().toISOString(),
  }
  const from = versionDir(dataDir, version)
  await publishVersion(dataDir, meta, async (tmp) => {
    for (const name of await readdir(from)) {
      if (name !== META_FILE) await linkOrCopy(join(from, name), join(tmp, name))
    }
  })
  return meta
}
