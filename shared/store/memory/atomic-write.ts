/** Replacing a file so that a crash leaves either the old or the new content, never a torn mix. */
import { open, rename, unlink } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * Writes `text` to `path` through `temp` (a file in the same folder): fsync, rename over the
 * target, fsync the folder (so the rename itself is durable). On failure the temp file is removed.
 */
export async function writeAtomically(path: string, temp: string, text: string): Promise<void> {
  try {
    const file = await open(temp, 'w', 0o600)
    try {
      await file.writeFile(text, 'utf8')
      await file.sync()
    } finally {
      await file.close()
    }
    await rename(temp, path)
  } catch (err) {
    await unlink(temp).catch(() => undefined)
    throw err
  }
  await syncFolder(dirname(path))
}

async function syncFolder(dir: string): Promise<void> {
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } catch (err) {
    // Some platforms (Windows) cannot fsync a folder; there the rename is as durable as it gets.
    const code = (err as NodeJS.ErrnoException).code
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL') throw err
  } finally {
    await handle.close()
  }
}
