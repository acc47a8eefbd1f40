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
import type { TextColumn } from './types.js'

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

/** Code units encoded or decoded between turns of the event loop by the *InSlices functions. */
const SLICE_UNITS = 1024 * 1024

/** Shared memory for the entries of `dict`, in the layout of SharedDictionary, not filled yet. */
function allocate(dict: readonly string[]): SharedDictionary {
  let total = 0
  for (const s of dict) total += s.length
  return { id: `${NONCE}/${++encoded}`, size: dict.length, units: new SharedArrayBuffer(total * 2), ends: new SharedArrayBuffer(dict.length * 4) }
}

/**
 * Writes the entries of `dict` into `d`, joining runs of about SLICE_UNITS code units into one
 * write (one write per entry is several times slower for short entries; one join of everything
 * fails past V8's longest string), and pauses after each run.
 */
function* encodeRuns(dict: readonly string[], d: SharedDictionary): Generator<void> {
  const bytes = Buffer.from(d.units)
  const ends = new Int32Array(d.ends)
  let at = 0
  for (let from = 0; from < dict.length;) {
    let to = from
    let units = 0
    while (to < dict.length && (to === from || units + dict[to].length <= SLICE_UNITS)) {
      units += dict[to].length
      ends[to] = at + units
      to++
    }
    // utf16le copies code units as they are, lone surrogates included.
    bytes.write(to - from === 1 ? dict[from] : dict.slice(from, to).join(''), at * 2, 'utf16le')
    at += units
    from = to
    yield
  }
}

/** Encodes `dict` (entry 0 is '', N/A) into shared memory, once per loaded column. */
export function shareDictionary(dict: readonly string[]): SharedDictionary {
  const d = allocate(dict)
  for (const _ of encodeRuns(dict, d));
  return d
}

/**
 * shareDictionary with a turn of the event loop (`breathe`) after every SLICE_UNITS code units:
 * for the gateway's thread, which loads the dictionaries of tables whose text may run to hundreds
 * of megabytes.
 */
export async function shareDictionaryInSlices(dict: readonly string[], breathe: () => Promise<void>): Promise<SharedDictionary> {
  const d = allocate(dict)
  for (const _ of encodeRuns(dict, d)) await breathe()
  return d
}

/** Reads the entries of `d` into `out`, one decode per run of about SLICE_UNITS code units, pausing after each run. */
function* decodeRuns(d: SharedDictionary, out: string[]): Generator<void> {
  const bytes = Buffer.from(d.units)
  const ends = new Int32Array(d.ends)
  let start = 0
  for (let from = 0; from < d.size;) {
    let to = from + 1
    while (to < d.size && ends[to] - start <= SLICE_UNITS) to++
    const run = bytes.toString('utf16le', start * 2, ends[to - 1] * 2)
    let at = start
    for (let i = from; i < to; i++) {
      out[i] = run.slice(at - start, ends[i] - start)
      at = ends[i]
    }
    start = ends[to - 1]
    from = to
    yield
  }
}

function decode(d: SharedDictionary): string[] {
  const out = new Array<string>(d.size)
  for (const _ of decodeRuns(d, out));
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

/**
 * The entries of `d` as strings, decoded with a turn of the event loop (`breathe`) after every
 * SLICE_UNITS code units: the gateway's thread receives answers whose text runs to hundreds of
 * megabytes (parallel/wire-dictionaries.ts), which decoded in one go held it for a second.
 * Not kept (KeptDictionaries): an answer's text is read once; a later post of the same array
 * still crosses as `d` (sharedFormOf).
 */
export async function decodeInSlices(d: SharedDictionary, breathe: () => Promise<void>): Promise<string[]> {
  const out = new Array<string>(d.size)
  for (const _ of decodeRuns(d, out)) await breathe()
  noteOpened(d, out)
  return out
}

/**
 * The arrays this thread holds for shared dictionaries, by id, without keeping them alive: the
 * gateway's table cache holds the strings of the dictionaries it shared, and an answer that
 * carries one of them back finds it here instead of decoding it again.
 */
const living = new Map<string, WeakRef<readonly string[]>>()
const forget = new FinalizationRegistry<string>((id) => {
  if (living.get(id)?.deref() === undefined) living.delete(id)
})

/** Records that `dict` holds the strings of `d` on this thread. */
export function noteOpened(d: SharedDictionary, dict: readonly string[]): void {
  openedFrom.set(dict, d)
  living.set(d.id, new WeakRef(dict))
  forget.register(dict, d.id)
}

/** The strings of `d` if this thread holds them already (noteOpened). */
export function alreadyOpened(d: SharedDictionary): readonly string[] | undefined {
  return living.get(d.id)?.deref()
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
    noteOpened(d, dict)
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

/**
 * A stored text column over `codes` whose strings are decoded when something first reads them:
 * a query pays for the dictionaries of the columns it reads, not of every column of a wide table
 * (decoding a million URLs takes longer than counting a table's rows).
 */
export function storedTextColumn(codes: Int32Array, c: { readonly dict?: SharedDictionary }): TextColumn {
  let dict: readonly string[] | undefined
  return {
    type: 'text',
    codes,
    get dict(): readonly string[] {
      return (dict ??= dictionaryOf(c))
    },
  }
}
