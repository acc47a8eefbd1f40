/**
 * The memory windows of tables larger than TABLE_CACHE_MB are read into (docs/large-tables.md):
 * a fixed number of sets of shared buffers (WindowBuffers), each reused window after window. A window read
 * into fresh buffers each time left every one of them to the garbage collector, which frees shared
 * memory only when its heap fills: resident memory grew by the table's whole size per query. With
 * the pool it holds at most `sets` windows' worth, reused, whatever the table's size and however
 * many such queries run at once (a query waits for a free set as for a worker).
 */
import type { ResultColumn, ResultSet } from '../../shared/protocol.js'

/** One window's buffers, one per column, kept and reused while they are large enough. */
export class WindowBuffers {
  private readonly perColumn: SharedArrayBuffer[] = []

  get bytes(): number {
    return this.perColumn.reduce((n, b) => n + b.byteLength, 0)
  }

  /** A buffer of at least `bytes` for column `index`: the one it had, or a larger one in its place. */
  buffer(index: number, bytes: number): SharedArrayBuffer {
    const had = this.perColumn[index]
    if (had !== undefined && had.byteLength >= bytes) return had
    const made = new SharedArrayBuffer(bytes)
    this.perColumn[index] = made
    return made
  }

  /**
   * The answer of a task that read these buffers, with any column still viewing their memory
   * copied out of it, since the next window is read over them.
   */
  detach(answer: ResultSet): ResultSet {
    const mine = new Set<ArrayBufferLike>(this.perColumn)
    const own = <T extends Int32Array | Float64Array>(a: T): T => (mine.has(a.buffer) ? (a.slice() as T) : a)
    const columns = answer.columns.map((c): ResultColumn => {
      if (c.kind === 'int') return { kind: 'int', data: own(c.data) }
      if (c.kind === 'float') return { kind: 'float', data: own(c.data) }
      if (c.kind === 'coded') return { kind: 'coded', codes: own(c.codes), dict: c.dict }
      return c
    })
    return { ...answer, columns }
  }
}

export class WindowPool {
  private readonly free: WindowBuffers[] = []
  private readonly waiting: ((buffers: WindowBuffers) => void)[] = []
  private readonly all: WindowBuffers[] = []
  private made = 0

  /** Bytes of every set's buffers, in use or free (metric table_window_bytes). */
  get bytes(): number {
    return this.all.reduce((n, s) => n + s.bytes, 0)
  }

  constructor(private readonly sets: number) {}

  /** A set of buffers, once one is free; `signal` gives up waiting (the query stopped). */
  acquire(signal?: AbortSignal): Promise<WindowBuffers> {
    signal?.throwIfAborted()
    const free = this.free.pop() ?? (this.made < this.sets ? this.make() : undefined)
    if (free !== undefined) return Promise.resolve(free)
    return new Promise((resolve, reject) => {
      const take = (s: WindowBuffers) => {
        signal?.removeEventListener('abort', gone)
        resolve(s)
      }
      const gone = () => {
        this.waiting.splice(this.waiting.indexOf(take), 1)
        reject(signal!.reason)
      }
      signal?.addEventListener('abort', gone, { once: true })
      this.waiting.push(take)
    })
  }

  private make(): WindowBuffers {
    this.made++
    const made = new WindowBuffers()
    this.all.push(made)
    return made
  }

  /** Gives a set back once nothing reads it any more (its task answered or was ended). */
  release(buffers: WindowBuffers): void {
    const next = this.waiting.shift()
    if (next !== undefined) next(buffers)
    else this.free.push(buffers)
  }
}
