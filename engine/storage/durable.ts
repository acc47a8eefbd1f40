/** Small file-system helpers for writes that must survive a crash once they report success. */
import { open } from 'node:fs/promises'

/** Create `path` (it must not exist), write all of `data`, fsync and close it. */
export async function writeFileDurably(path: string, data: Uint8Array | string): Promise<void> {
  const fh = await open(path, 'wx')
  try {
    await fh.writeFile(data)
    await fh.sync()
  } finally {
    await fh.close()
  }
}

/** fsync a directory, so that the entries created or renamed in it are durable. */
export async function syncDir(path: string): Promise<void> {
  const fh = await open(path, 'r')
  try {
    await fh.sync()
  } catch (e) {
    // Some file systems cannot fsync a directory at all (EINVAL); there is nothing more to do.
    if ((e as NodeJS.ErrnoException).code !== 'EINVAL') throw e
  } finally {
    await fh.close()
  }
}

/** The raw bytes of a typed array, without copying. */
export function bytesOf(a: Int32Array | Float64Array | BigInt64Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength)
}
