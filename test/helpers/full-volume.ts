/**
 * A small file system that a test can fill up and free again, for what a full data volume does
 * (ENOSPC). As in test/security/heavy-disk-full.test.ts: a real tmpfs, which needs root (CI runs
 * as root); elsewhere the suite is skipped with a message, and on CI=true a failed mount fails it.
 */
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, open, rm, statfs } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface SmallVolume {
  /** An empty folder on the volume, for DATA_DIR. */
  readonly dataDir: string
  /** Fills the volume with one file, to the last byte or leaving `leaveBytes` free. */
  fill(leaveBytes?: number): Promise<void>
  /** Removes that file. */
  free(): Promise<void>
  /** Bytes used on the volume. */
  used(): Promise<number>
  unmount(): Promise<void>
}

/** Mounts a tmpfs of `mb` MB, or returns why it could not. */
export async function mountSmallVolume(mb: number): Promise<SmallVolume | string> {
  const mountPoint = await mkdtemp(join(tmpdir(), 'tabula-full-'))
  const isRoot = process.getuid?.() === 0
  if (!isRoot && process.env.CI !== 'true') {
    await rm(mountPoint, { recursive: true, force: true })
    return 'not root'
  }
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${mb}m`, 'tmpfs', mountPoint], { stdio: 'pipe' })
  } catch (err) {
    await rm(mountPoint, { recursive: true, force: true })
    const why = String((err as { stderr?: Buffer }).stderr ?? err).trim()
    if (process.env.CI === 'true') throw new Error(`CI=true but a ${mb} MB tmpfs could not be mounted: ${why}`, { cause: err })
    return why
  }
  const dataDir = join(mountPoint, 'data')
  await mkdir(dataDir)
  const filler = join(mountPoint, 'filler')
  return {
    dataDir,
    async fill(leaveBytes = 0) {
      const fh = await open(filler, 'a')
      try {
        // Large pieces first, then smaller ones, down to a single page.
        for (let size = 1 << 20; size >= 4096; size >>= 1) {
          const piece = Buffer.alloc(size, 120)
          for (;;) {
            try {
              await fh.write(piece)
            } catch (err) {
              if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err
              break
            }
          }
        }
        if (leaveBytes > 0) await fh.truncate(Math.max(0, (await fh.stat()).size - leaveBytes))
      } finally {
        await fh.close()
      }
    },
    free: () => rm(filler, { force: true }),
    async used() {
      const s = await statfs(mountPoint)
      return (s.blocks - s.bfree) * s.bsize
    },
    async unmount() {
      execFileSync('umount', [mountPoint])
      await rm(mountPoint, { recursive: true, force: true })
    },
  }
}
