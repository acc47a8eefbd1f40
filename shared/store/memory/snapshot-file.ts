/**
 * store.json on disk: loading it on connect, and rewriting it atomically, coalescing the
 * requests of concurrent writers.
 */
import { mkdir, readFile, readdir, unlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { appliedUnsaved } from '../unsaved.js'
import { writeAtomically } from './atomic-write.js'
import type { Entry } from './entry.js'
import { parseSnapshot } from './snapshot-format.js'

/** The snapshot file inside dataDir. */
const SNAPSHOT_NAME = 'store.json'

/** Pauses between tries to save a snapshot after a failed write: 1 s, doubling up to 30 s. */
const RETRY_FIRST_MS = 1_000
const RETRY_MAX_MS = 30_000

/**
 * The snapshot of one data folder.
 *
 * At most one write is in flight. A flush requested meanwhile waits for the next write, whose
 * snapshot is rendered when it starts and therefore carries every change made in between: many
 * concurrent writers cost two disk writes, not one each, and two renames never race.
 *
 * A write that fails (a full volume) leaves changes in memory that are not on disk: their writers
 * hear so (shared/store/unsaved.ts), and the snapshot is written again after a pause, and again,
 * until it succeeds or another change's write does. So a change answered "in effect, not yet
 * saved" is saved once there is room, without waiting for the next change.
 */
export class SnapshotFile {
  readonly path: string
  private inFlight: Promise<void> | null = null
  private next: Deferred | null = null
  private tempCounter = 0
  /** The pending retry after a failed write, and the pause before the next one. */
  private retryTimer: NodeJS.Timeout | null = null
  private retryMs = RETRY_FIRST_MS

  /** `render` produces the current snapshot text; it is called once per disk write. */
  constructor(
    dataDir: string,
    private readonly render: () => string,
  ) {
    this.path = join(dataDir, SNAPSHOT_NAME)
  }

  /** Creates the folder, removes temp files a crash left behind, and reads the entries. */
  async load(): Promise<[string, Entry][]> {
    const dir = dirname(this.path)
    await mkdir(dir, { recursive: true })
    for (const name of await readdir(dir)) {
      if (name.startsWith(`${SNAPSHOT_NAME}.`) && name.endsWith('.tmp')) await unlink(join(dir, name)).catch(() => undefined)
    }
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw err
    }
    return parseSnapshot(text, this.path)
  }

  /** Resolves once a snapshot rendered after this call is on disk. */
  flush(): Promise<void> {
    if (this.next) return this.next.promise
    const next = (this.next = deferred())
    if (!this.inFlight) this.startWrite()
    return next.promise
  }

  /**
   * Resolves when no write is in flight or queued (used by close). Changes a failed write left
   * unsaved get one last try; if that fails too they are lost, as their writers were told.
   */
  async idle(): Promise<void> {
    if (this.retryTimer) {
      clearTimeout(this.retryTimer)
      this.retryTimer = null
      await this.flush().catch(() => undefined)
    }
    while (this.inFlight) await this.inFlight
  }

  /** After a failed write: write again later, backing off, unless a new change writes first. */
  private scheduleRetry(): void {
    if (this.retryTimer) return
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null
      this.flush().catch(() => undefined)
    }, this.retryMs)
    // A retry must never be what keeps the process alive.
    this.retryTimer.unref()
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS)
  }

  private startWrite(): void {
    const waiting = this.next!
    this.next = null
    const temp = `${this.path}.${process.pid}.${++this.tempCounter}.tmp`
    let text: string
    try {
      text = this.render()
    } catch (err) {
      // Only conceivable for a snapshot too big for one string; the waiters must hear of it, not hang.
      waiting.reject(err)
      return
    }
    this.inFlight = writeAtomically(this.path, temp, text)
      .then(
        () => {
          // Everything up to this snapshot is on disk, including what earlier failures left unsaved.
          this.retryMs = RETRY_FIRST_MS
          if (this.retryTimer) clearTimeout(this.retryTimer)
          this.retryTimer = null
          waiting.resolve()
        },
        (err: unknown) => {
          // The maps already hold the changes: say so, and keep trying to save them.
          waiting.reject(appliedUnsaved(err, this.path))
          this.scheduleRetry()
        },
      )
      .finally(() => {
        this.inFlight = null
        if (this.next) this.startWrite()
      })
  }
}

interface Deferred {
  readonly promise: Promise<void>
  readonly resolve: () => void
  readonly reject: (err: unknown) => void
}

function deferred(): Deferred {
  let resolve!: () => void
  let reject!: (err: unknown) => void
  const promise = new Promise<void>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}
