/**
 * Seeded random columns for kernel tests and the kernel benchmark: N/A mixed in at a given
 * rate, integer keys over a chosen range, text from a small word list.
 */
import { Rng } from '../demo/random.js'
import { NA_FLOAT, NA_INT, type FloatColumn, type IntColumn, type TextColumn } from './types.js'
import { textColumnFromStrings } from './make.js'

export { Rng }

/** Options shared by the random column generators. */
export interface RandomOptions {
  /** Share of N/A cells, 0…1 (default 0). */
  readonly na?: number
}

/** Integers uniform in [min, max]. */
export function randomIntColumn(rng: Rng, rows: number, min: number, max: number, opts: RandomOptions = {}, type: 'int' | 'date' = 'int'): IntColumn {
  const na = opts.na ?? 0
  const data = new Int32Array(rows)
  for (let i = 0; i < rows; i++) data[i] = na > 0 && rng.next() < na ? NA_INT : rng.int(min, max)
  return { type, data }
}

/** Floats uniform in [min, max), rounded to `decimals` places so ties occur. */
export function randomFloatColumn(rng: Rng, rows: number, min: number, max: number, opts: RandomOptions & { decimals?: number } = {}): FloatColumn {
  const na = opts.na ?? 0
  const scale = 10 ** (opts.decimals ?? 2)
  const data = new Float64Array(rows)
  for (let i = 0; i < rows; i++) data[i] = na > 0 && rng.next() < na ? NA_FLOAT : Math.round((min + rng.next() * (max - min)) * scale) / scale
  return { type: 'float', data }
}

/** Text drawn from `words` ('' among them, or the N/A rate, gives N/A). */
export function randomTextColumn(rng: Rng, rows: number, words: readonly string[], opts: RandomOptions = {}): TextColumn {
  const na = opts.na ?? 0
  const strings: string[] = new Array(rows)
  for (let i = 0; i < rows; i++) strings[i] = na > 0 && rng.next() < na ? '' : rng.pick(words)
  return textColumnFromStrings(strings)
}

/** Random yyyymmdd dates between two years (valid calendar dates). */
export function randomDateColumn(rng: Rng, rows: number, fromYear: number, toYear: number, opts: RandomOptions = {}): IntColumn {
  const na = opts.na ?? 0
  const data = new Int32Array(rows)
  for (let i = 0; i < rows; i++) {
    if (na > 0 && rng.next() < na) {
      data[i] = NA_INT
      continue
    }
    const y = rng.int(fromYear, toYear)
    const m = rng.int(1, 12)
    const last = new Date(Date.UTC(y, m, 0)).getUTCDate()
    data[i] = y * 10000 + m * 100 + rng.int(1, last)
  }
  return { type: 'date', data }
}

/** A random 0/1 mask with the given share of ones. */
export function randomMask(rng: Rng, rows: number, ones: number): Uint8Array {
  const mask = new Uint8Array(rows)
  for (let i = 0; i < rows; i++) mask[i] = rng.next() < ones ? 1 : 0
  return mask
}
