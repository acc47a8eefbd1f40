/**
 * One key column's values as dense ids (first-appearance order), whatever its type: ints and
 * dates directly, text by code, big integers as ints when close together and else by their two
 * words, floats by the two words of their bit pattern (with -0 folded into 0 and every NaN into
 * one N/A). `find` maps another column's values to the same ids, which is what a link lookup
 * needs.
 */
import { lookupCode } from './dict.js'
import { internInRange, internInt32 } from './int-ids.js'
import { toBigint, toFloat } from './make.js'
import { estimatedDistinct } from './distinct-sample.js'
import { internWords } from './word-ids.js'
import { offsetKeys, probeOffsetKeys, wordSpan } from './word-span.js'
import { bigintWords, isNaWords } from './bigint.js'
import { isFloat, NA_INT, type Column, type TextColumn } from './types.js'

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
  if (col.type === 'bigint') return bigintKeyIds(col.data, rows, mask, probes)
  if (isFloat(col)) {
    const words = floatWords(col.data, rows)
    const inner = internWords(words, rows, mask, expectedKeys(words, rows, probes))
    const find = (probe: Column, m: number): Int32Array => {
      if (probe.type === 'text') return new Int32Array(m).fill(-1)
      return inner.find(floatWords(toFloat(probe).data, m), m)
    }
    return { ids: inner.ids, count: inner.count, find }
  }
  const keys = col.type === 'text' ? col.codes : col.data
  const inner = internInt32(keys, rows, mask, rows + probes)
  const find = (probe: Column, m: number): Int32Array => inner.find(probeKeys(col, probe, m), m)
  return { ids: inner.ids, count: inner.count, find }
}

/**
 * A key side that will be probed is usually a dimension's unique keys; other keys are counted
 * from a sample (distinct-sample.ts): either way a word table for many keys is sized for them at
 * once rather than grown by doubling.
 */
const expectedKeys = (words: Int32Array, rows: number, probes: number): number => (probes > 0 ? rows : estimatedDistinct(words, rows))

/**
 * Big integers: as Int32 offsets from the smallest value, through the int path (a lookup table
 * for a narrow range), when the values lie within 2^32 − 2 of each other (word-span.ts); else
 * by their word pairs in place.
 */
function bigintKeyIds(data: BigInt64Array, rows: number, mask: Uint8Array | null, probes: number): KeyIds {
  const words = bigintWords(data)
  const s = wordSpan(words, rows)
  if (s === null) {
    const inner = internWords(words, rows, mask, expectedKeys(words, rows, probes))
    return { ids: inner.ids, count: inner.count, find: (probe, m) => inner.find(bigintProbe(probe), m) }
  }
  const inner = internInRange(offsetKeys(words, rows, s), rows, mask, NA_INT + 1, s.span + 1, rows + probes)
  const find = (probe: Column, m: number): Int32Array => {
    const w = bigintProbe(probe)
    const { keys, outside } = probeOffsetKeys(w, m, s)
    const out = inner.find(keys, m)
    // Values outside the span got N/A's key: where N/A has an id, they must not take it.
    if (outside > 0 && inner.find(Int32Array.of(NA_INT), 1)[0] >= 0) {
      for (let i = 0; i < m; i++) if (keys[i] === NA_INT && !isNaWords(w[2 * i], w[2 * i + 1])) out[i] = -1
    }
    return out
  }
  return { ids: inner.ids, count: inner.count, find }
}

/** The words of a column probing big integers. */
function bigintProbe(probe: Column): Int32Array {
  if (probe.type === 'text' || probe.type === 'float') throw new Error('keyIds: probe big integers with ints or big integers (align decimals first)')
  return bigintWords(toBigint(probe).data)
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

/**
 * The words of each double (low first, as internWords reads them), after folding -0 into 0 and
 * every NaN into one, so that equal values have equal bits.
 */
export function floatWords(data: Float64Array, n: number): Int32Array {
  const tmp = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const v = data[i]
    tmp[i] = v !== v ? Number.NaN : v === 0 ? 0 : v
  }
  // Typed arrays use the platform's byte order; Node runs on little-endian hosts only (x64, arm64).
  return new Int32Array(tmp.buffer)
}
