/**
 * One key column's values as dense ids (first-appearance order), whatever its type: ints and
 * dates directly, text by code, floats by the two halves of their bit pattern (with -0 folded
 * into 0 and every NaN into one N/A). `find` maps another column's values to the same ids, which
 * is what a link lookup needs.
 */
import { lookupCode } from './dict.js'
import { internInt32 } from './int-ids.js'
import { toBigint, toFloat } from './make.js'
import { internPairs } from './pair-ids.js'
import { bigintWords } from './bigint.js'
import { isFloat, type Column, type TextColumn } from './types.js'

/** One key column interned: ids per row and a lookup for other columns' values. */
export interface KeyIds {
  /** Per row: the value's id; -1 for rows left out by the mask. */
  readonly ids: Int32Array
  readonly count: number
  /** Ids of another column's values here (-1: value absent). See `alignProbe` for types. */
  find(probe: Column, rows: number): Int32Array
}

/**
 * Dense ids of one column's values.
 * @param probes how many values will be looked up later with `find` (sizes the table)
 */
export function keyIds(col: Column, rows: number, mask: Uint8Array | null, probes = 0): KeyIds {
  if (col.type === 'bigint') {
    const { hi, lo } = splitWords(bigintWords(col.data), rows)
    const inner = internPairs(hi, lo, rows, mask, false)
    const find = (probe: Column, m: number): Int32Array => {
      if (probe.type === 'text' || probe.type === 'float') throw new Error('keyIds: probe big integers with ints or big integers (align decimals first)')
      const w = splitWords(bigintWords(toBigint(probe).data), m)
      return inner.find(w.hi, w.lo, m)
    }
    return { ids: inner.ids, count: inner.count, find }
  }
  if (isFloat(col)) {
    const { hi, lo } = floatWords(col.data, rows)
    const inner = internPairs(hi, lo, rows, mask, false)
    const find = (probe: Column, m: number): Int32Array => {
      if (probe.type === 'text') return new Int32Array(m).fill(-1)
      const w = floatWords(toFloat(probe).data, m)
      return inner.find(w.hi, w.lo, m)
    }
    return { ids: inner.ids, count: inner.count, find }
  }
  const keys = col.type === 'text' ? col.codes : col.data
  const inner = internInt32(keys, rows, mask, rows + probes)
  const find = (probe: Column, m: number): Int32Array => inner.find(probeKeys(col, probe, m), m)
  return { ids: inner.ids, count: inner.count, find }
}

/**
 * Int32 keys of a probe column comparable with an int or text key column. Text against text is
 * translated into the key column's dictionary (absent strings get -2, which no code equals);
 * any other pairing is compared as raw Int32 values (callers that align text keys themselves
 * pass codes as int columns). Float against int is the caller's to align (both as floats).
 */
function probeKeys(key: Column, probe: Column, m: number): Int32Array {
  if (probe.type === 'text') return key.type === 'text' ? translateCodes(probe, key.dict, m) : probe.codes
  if (probe.type === 'float' || probe.type === 'bigint') throw new Error('keyIds: convert int keys to the type of the probe before probing with it')
  return probe.data
}

/** The probe's codes as codes of `dict` (-2 where its string is absent), one lookup per entry. */
function translateCodes(probe: TextColumn, dict: readonly string[], m: number): Int32Array {
  const map = new Int32Array(probe.dict.length)
  for (let c = 0; c < map.length; c++) {
    const code = lookupCode(dict, probe.dict[c])
    map[c] = code < 0 ? -2 : code
  }
  const out = new Int32Array(m)
  const codes = probe.codes
  for (let i = 0; i < m; i++) out[i] = map[codes[i]]
  return out
}

/** Low and high 32-bit words of each double, after folding -0 into 0 and all NaNs into one. */
export function floatWords(data: Float64Array, n: number): { hi: Int32Array; lo: Int32Array } {
  const tmp = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const v = data[i]
    tmp[i] = v !== v ? Number.NaN : v === 0 ? 0 : v
  }
  // Typed arrays use the platform's byte order; Node runs on little-endian hosts only (x64, arm64).
  return splitWords(new Int32Array(tmp.buffer), n)
}

/** The low and high words of `n` 8-byte values (words 2i and 2i+1) as two arrays. */
function splitWords(words: Int32Array, n: number): { hi: Int32Array; lo: Int32Array } {
  const hi = new Int32Array(n)
  const lo = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    lo[i] = words[2 * i]
    hi[i] = words[2 * i + 1]
  }
  return { hi, lo }
}
