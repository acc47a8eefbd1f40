/**
 * Removing what is no longer needed: versions the catalog has dropped and temporary folders left
 * behind by a process that died in the middle of a write (its own failures clean up already).
 */
import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { isVersionId, tablesDir, TEMP_PREFIX, versionDir } from './layout.js'

/**
 * Remove one table version. The caller must know that the catalog no longer points at it and no
 * running query reads it.
 */
export async function removeTableVersion(dataDir: string, version: string): Promise<void> {
  await rm(versionDir(dataDir, version), { recursive: true, force: true })
}

/** The entries of the tables folder; none when it does not exist yet. */
async function tableFolderNames(dataDir: string): Promise<string[]> {
  return readdir(tablesDir(dataDir)).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [] as string[]
    throw e
  })
}

/**
 * Remove every version folder not in `known` (the versions the catalog points at or has retired):
 * versions written for a change that a crash stopped before it was committed. Only for a caller
 * that is the sole writer of this data folder and is not writing now — the embedded store's
 * gateway at start — since another process's version between its write and its commit looks
 * exactly the same. Returns the names removed.
 */
export async function removeUncommittedVersions(dataDir: string, known: ReadonlySet<string>): Promise<string[]> {
  const removed: string[] = []
  for (const name of await tableFolderNames(dataDir)) {
    if (!isVersionId(name) || known.has(name)) continue
    await removeTableVersion(dataDir, name)
    removed.push(name)
  }
  return removed
}

/**
 * Remove temporary folders older than `olderThanMs`. The age guard matters: several gateways share
 * one data folder, and a young temporary folder may be another process's write in progress.
 * Returns the names removed.
 */
export async function removeStaleTempFolders(dataDir: string, olderThanMs = 24 * 3600_000): Promise<string[]> {
  const root = tablesDir(dataDir)
  const names = await tableFolderNames(dataDir)
  const removed: string[] = []
  const cutoff = Date.now() - olderThanMs
  for (const name of names) {
    if (!name.startsWith(TEMP_PREFIX)) continue
    const path = join(root, name)
    const info = await stat(path).catch(() => undefined)
    if (info === undefined || info.mtimeMs > cutoff) continue
    await rm(path, { recursive: true, force: true })
    removed.push(name)
  }
  return removed
}
