/**
 * Adding the SQLite image to a version that is already published. A version is immutable, but
 * its image is a pure function of its column files, so adding it later changes nothing a reader
 * can see except that the file is there: written whole under a temporary name, fsynced, renamed
 * to data.sqlite in the version folder, and the folder fsynced. The temporary file lives beside
 * the version folders (tables/.tmp-…), not in one, so a version folder never holds part of an
 * image, a clone never links one, and the sweep of stale temporary folders (cleanup.ts) removes
 * what a crash left.
 *
 * Several builders may race (two threads, two gateways sharing DATA_DIR): each writes its own
 * temporary file and renames it into place. The bytes are the same whoever builds them (same
 * files, same sql.js, same statements), so whichever rename lands last, data.sqlite is whole and
 * the same, and a reader that opened the earlier file keeps reading a whole one.
 */
import { randomBytes } from 'node:crypto'
import { rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { syncDir, writeFileDurably } from './durable.js'
import { SQLITE_FILE, tablesDir, TEMP_PREFIX, versionDir } from './layout.js'
import { readTableMeta } from './read.js'
import { buildSqliteImageFromFiles } from './sqlite-image-files.js'
import { mapVolumeFull } from './volume-full.js'

/** Where a version's image is, whether or not it has been built yet. */
export const sqliteImagePath = (dataDir: string, version: string): string => join(versionDir(dataDir, version), SQLITE_FILE)

/** Whether the version has its image (built by a query, or written with it by an older release). */
export async function hasSqliteImage(dataDir: string, version: string): Promise<boolean> {
  return stat(sqliteImagePath(dataDir, version)).then(
    () => true,
    (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return false
      throw e
    },
  )
}

/**
 * Builds the version's image unless it has one; answers whether this call built it. Throws if
 * the version is gone or damaged; leaves no temporary file behind when it fails.
 */
export async function addSqliteImage(dataDir: string, version: string): Promise<boolean> {
  if (await hasSqliteImage(dataDir, version)) return false
  const meta = await readTableMeta(dataDir, version)
  const image = await buildSqliteImageFromFiles(dataDir, meta)
  const tmp = join(tablesDir(dataDir), `${TEMP_PREFIX}${randomBytes(6).toString('hex')}.sqlite`)
  await mapVolumeFull(async () => {
    try {
      await writeFileDurably(tmp, image)
      await rename(tmp, sqliteImagePath(dataDir, version))
    } catch (e) {
      await rm(tmp, { force: true }).catch(() => undefined)
      throw e
    }
    await syncDir(versionDir(dataDir, version))
  })
  return true
}
