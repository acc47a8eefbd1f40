/**
 * store.json on disk: loading it on connect, and rewriting it atomically, coalescing the
 * requests of concurrent writers.
 */
import { mkdir, readFile, readdir, unlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { AppError } from '../../errors.js'
import { writeAtomically } from './atomic-write.js'
import type { Entry } from './entry.js'
import { parseSnapshot } from './snapshot-format.js'

/** The snapshot file inside dataDir. */
const SNAPSHOT_NAME = 'store.json'

/**
 * The snapshot of one data folder.
 *
 * At most one write is in flight. A flush requested meanwhile waits for the next write, whose
 * snapshot is rendered when it starts and therefore carries every change made in between: many
 * concurrent writers cost two disk writes, not one each, and two renames never race.
 */
export class SnapshotFile {
  readonly path: string
  private inFlight: Promise<void> | null = null
  private next: Deferred | null = null
  private tempCounter = 0

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

  /** Resolves when no write is in flight or queued (used by close). */
  async idle(): Promise<void> {
    while (this.inFlight) await this.inFlight
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
      .then(waiting.resolve, (err: unknown) =>
        waiting.reject(new AppError('UNAVAILABLE', `The store could not save ${this.path}; try again later.`, {}, { cause: err })),
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
