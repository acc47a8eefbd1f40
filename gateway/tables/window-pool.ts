/**
 * The memory windows of tables larger than TABLE_CACHE_MB are read into (docs/large-tables.md):
 * a fixed number of slots, each a set of shared buffers reused window after window. A window read
 * into fresh buffers each time left every one of them to the garbage collector, which frees shared
 * memory only when its heap fills: resident memory grew by the table's whole size per query. With
 * the slots it holds at most `slots` windows' worth, reused, whatever the table's size and however
 * many such queries run at once (a query waits for a slot as for a worker).
 */
import type { ResultColumn, ResultSet } from '../../shared/protocol.js'

/** One window's buffers, one per column, kept and reused while they are large enough. */
export class WindowSlot {
  private readonly buffers: SharedArrayBuffer[] = []

  get bytes(): number {
    return this.buffers.reduce((n, b) => n + b.byteLength, 0)
  }

  /** A buffer of at least `bytes` for column `index`: the one it had, or a larger one in its place. */
  buffer(index: number, bytes: number): SharedArrayBuffer {
    const had = this.buffers[index]
    if (had !== undefined && had.byteLength >= bytes) return had
    const made = new SharedArrayBuffer(bytes)
    this.buffers[index] = made
    return made
  }

  /**
   * The answer of a task that read this slot, with any column still viewing the slot's memory
   * copied out of it, since the slot is read over by the next window.
   */
  detach(answer: ResultSet): ResultSet {
    const mine = new Set<ArrayBufferLike>(this.buffers)
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
  private readonly free: WindowSlot[] = []
  private readonly waiting: ((slot: WindowSlot) => void)[] = []
  private readonly all: WindowSlot[] = []
  private made = 0

  /** Bytes of every slot's buffers, in use or free (metric table_window_bytes). */
  get bytes(): number {
    return this.all.reduce((n, s) => n + s.bytes, 0)
  }

  constructor(private readonly slots: number) {}

  /** A slot, once one is free; `signal` gives up waiting (the query stopped). */
  acquire(signal?: AbortSignal): Promise<WindowSlot> {
    signal?.throwIfAborted()
    const slot = this.free.pop() ?? (this.made < this.slots ? this.make() : undefined)
    if (slot !== undefined) return Promise.resolve(slot)
    return new Promise((resolve, reject) => {
      const take = (s: WindowSlot) => {
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

  private make(): WindowSlot {
    this.made++
    const slot = new WindowSlot()
    this.all.push(slot)
    return slot
  }

  /** Gives a slot back once nothing reads it any more (its task answered or was ended). */
  release(slot: WindowSlot): void {
    const next = this.waiting.shift()
    if (next !== undefined) next(slot)
    else this.free.push(slot)
  }
}
