/**
 * Text dictionaries that cross to worker threads without a copy. A table's dictionary used to
 * travel with every task as an array of strings, which the structured clone copied both ways:
 * about 30 ms for a 1M-row table with 100,000 customers, paid again by every part of a split
 * query. The gateway now encodes each dictionary once, when it loads the column, into shared
 * memory; a worker decodes it on first use and keeps the strings for later tasks, under an id
 * that names that one encoding. Ids are never reused, so a kept dictionary cannot go stale.
 */
import { randomUUID } from 'node:crypto'
import type { SharedDictionary } from '../../shared/protocol.js'

export type { SharedDictionary }

/** Ids are this thread's nonce and a count, unique across threads and the life of the process. */
const NONCE = randomUUID()
let encoded = 0

/**
 * Code units of decoded dictionaries a thread keeps (two bytes each, plus about 30 bytes per
 * entry): 64 Mi units, 128 MB of text, far more than the dictionaries of the tables a gateway
 * serves at once. The least recently used go first.
 */
export const KEPT_UNITS = 64 * 1024 * 1024

/** Encodes `dict` (entry 0 is '', N/A) into shared memory, once per loaded column. */
export function shareDictionary(dict: readonly string[]): SharedDictionary {
  const joined = dict.join('')
  const units = new SharedArrayBuffer(joined.length * 2)
  // utf16le copies code units as they are, lone surrogates included.
  Buffer.from(units).write(joined, 0, 'utf16le')
  const ends = new Int32Array(new SharedArrayBuffer(dict.length * 4))
  let at = 0
  for (let i = 0; i < dict.length; i++) {
    at += dict[i].length
    ends[i] = at
  }
  return { id: `${NONCE}/${++encoded}`, size: dict.length, units, ends: ends.buffer as SharedArrayBuffer }
}

/** Code units written between turns of the event loop by shareDictionaryInSlices. */
const SLICE_UNITS = 1024 * 1024

/**
 * shareDictionary with a turn of the event loop (`breathe`) after every SLICE_UNITS code units:
 * for the gateway's thread, which loads the dictionaries of tables whose text may run to hundreds
 * of megabytes. The same layout as shareDictionary's.
 */
export async function shareDictionaryInSlices(dict: readonly string[], breathe: () => Promise<void>): Promise<SharedDictionary> {
  let total = 0
  for (const s of dict) total += s.length
  const units = new SharedArrayBuffer(total * 2)
  const bytes = Buffer.from(units)
  const ends = new Int32Array(new SharedArrayBuffer(dict.length * 4))
  let at = 0
  let since = 0
  for (let i = 0; i < dict.length; i++) {
    // utf16le copies code units as they are, lone surrogates included.
    bytes.write(dict[i], at * 2, 'utf16le')
    at += dict[i].length
    ends[i] = at
    since += dict[i].length + 8
    if (since >= SLICE_UNITS) {
      since = 0
      await breathe()
    }
  }
  return { id: `${NONCE}/${++encoded}`, size: dict.length, units, ends: ends.buffer as SharedArrayBuffer }
}

function decode(d: SharedDictionary): string[] {
  const all = Buffer.from(d.units).toString('utf16le')
  const ends = new Int32Array(d.ends)
  const out = new Array<string>(d.size)
  let from = 0
  for (let i = 0; i < d.size; i++) {
    out[i] = all.slice(from, ends[i])
    from = ends[i]
  }
  return out
}

/**
 * The shared dictionary each array opened on this thread came from, so that the array can cross
 * to another thread again as that reference instead of its strings (parallel/wire-dictionaries.ts).
 */
const openedFrom = new WeakMap<readonly string[], SharedDictionary>()

/** The shared dictionary `dict` was opened from on this thread, if it was. */
export function sharedFormOf(dict: readonly string[]): SharedDictionary | undefined {
  return openedFrom.get(dict)
}

/** Whether a value is a shared dictionary (as opposed to an array of strings). */
export function isSharedDictionary(x: unknown): x is SharedDictionary {
  return typeof x === 'object' && x !== null && !Array.isArray(x) && (x as { units?: unknown }).units instanceof SharedArrayBuffer
}

/** Decoded dictionaries kept within a budget of code units, the least recently used given up first. */
export class KeptDictionaries {
  private readonly kept = new Map<string, { readonly dict: readonly string[]; readonly units: number }>()
  private keptUnits = 0

  constructor(private readonly budgetUnits: number) {}

  /**
   * The strings of a shared dictionary: decoded on first use, then the same array every time, so
   * that operations comparing dictionaries by identity (a link, a merge of parts) find them equal
   * at once.
   */
  open(d: SharedDictionary): readonly string[] {
    const hit = this.kept.get(d.id)
    if (hit !== undefined) {
      this.kept.delete(d.id)
      this.kept.set(d.id, hit)
      return hit.dict
    }
    const dict = decode(d)
    openedFrom.set(dict, d)
    const units = d.units.byteLength / 2
    if (units > this.budgetUnits) return dict
    this.kept.set(d.id, { dict, units })
    this.keptUnits += units
    for (const [id, entry] of this.kept) {
      if (this.keptUnits <= this.budgetUnits) break
      this.kept.delete(id)
      this.keptUnits -= entry.units
    }
    return dict
  }

  get stats(): { readonly count: number; readonly units: number } {
    return { count: this.kept.size, units: this.keptUnits }
  }
}

/** This thread's kept dictionaries. */
const kept = new KeptDictionaries(KEPT_UNITS)

export function openDictionary(d: SharedDictionary): readonly string[] {
  return kept.open(d)
}

const NO_DICTIONARY: readonly string[] = ['']

/** A stored text column's strings; a column without a dictionary holds only N/A. */
export function dictionaryOf(c: { readonly dict?: SharedDictionary }): readonly string[] {
  return c.dict ? openDictionary(c.dict) : NO_DICTIONARY
}
