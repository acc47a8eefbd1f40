/**
 * Sorted text dictionaries: binary search for a string, merging two dictionaries, and mapping
 * a function over the entries instead of the rows. A dictionary is sorted in JavaScript string
 * order, has no duplicates, and starts with '' (code 0, text N/A).
 */
import type { TextColumn } from './types.js'

/** The first index whose entry is >= s (dict.length when every entry is smaller). */
export function lowerBound(dict: readonly string[], s: string): number {
  let lo = 0
  let hi = dict.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (dict[mid] < s) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The first index whose entry is > s (dict.length when no entry is larger). */
export function upperBound(dict: readonly string[], s: string): number {
  let lo = 0
  let hi = dict.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (dict[mid] <= s) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The code of s in a sorted dictionary, or -1 when it is absent. */
export function lookupCode(dict: readonly string[], s: string): number {
  const i = lowerBound(dict, s)
  return i < dict.length && dict[i] === s ? i : -1
}

/**
 * The union of sorted dictionaries, sorted and without duplicates, and for each input a remap
 * table from its codes to the union's codes. A k-way merge would be asymptotically nicer; two
 * or three dictionaries is the usual case and sorting the concatenation keeps this obvious.
 */
export function mergeDicts(dicts: readonly (readonly string[])[]): { dict: string[]; remaps: Int32Array[] } {
  if (dicts.length === 2) return mergeTwo(dicts[0], dicts[1])
  const all = new Set<string>([''])
  for (const d of dicts) for (const s of d) all.add(s)
  const dict = [...all].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const remaps = dicts.map((d) => {
    const m = new Int32Array(d.length)
    for (let i = 0; i < d.length; i++) m[i] = lookupCode(dict, d[i])
    return m
  })
  return { dict, remaps }
}

/** Linear merge of two sorted dictionaries (the common case: one comparison or one link). */
function mergeTwo(a: readonly string[], b: readonly string[]): { dict: string[]; remaps: Int32Array[] } {
  const dict: string[] = []
  const ra = new Int32Array(a.length)
  const rb = new Int32Array(b.length)
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    const code = dict.length
    if (j >= b.length || (i < a.length && a[i] < b[j])) {
      dict.push(a[i])
      ra[i++] = code
    } else if (i >= a.length || b[j] < a[i]) {
      dict.push(b[j])
      rb[j++] = code
    } else {
      dict.push(a[i])
      ra[i++] = code
      rb[j++] = code
    }
  }
  return { dict, remaps: [ra, rb] }
}

/** Codes passed through a remap table: out[i] = remap[codes[i]]. */
export function remapCodes(codes: Int32Array, remap: Int32Array): Int32Array {
  const out = new Int32Array(codes.length)
  for (let i = 0; i < codes.length; i++) out[i] = remap[codes[i]]
  return out
}

/**
 * Two text columns with codes in one shared dictionary, so that equality and order of the two
 * can be decided on integers. Columns that already share a dictionary are returned as they are.
 */
export function unifyText(a: TextColumn, b: TextColumn): [TextColumn, TextColumn] {
  const [ua, ub] = unifyTextColumns([a, b])
  return [ua, ub]
}

/**
 * Text columns with codes in one dictionary, the union of theirs. Columns whose dictionaries hold
 * the same strings (one table's column, or copies of it that crossed threads) keep their codes.
 */
export function unifyTextColumns(cols: readonly TextColumn[]): TextColumn[] {
  const first = cols[0]?.dict
  if (first === undefined || cols.every((c) => c.dict === first)) return [...cols]
  if (cols.every((c) => sameStrings(c.dict, first))) return cols.map((c) => ({ type: 'text', codes: c.codes, dict: first }))
  const { dict, remaps } = mergeDicts(cols.map((c) => c.dict))
  return cols.map((c, i) => ({ type: 'text', codes: remapCodes(c.codes, remaps[i]), dict }))
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * Which codes of the column occur. Lets per-entry work skip dictionary entries no row uses, which
 * matters when a small selection of rows still carries its table's large dictionary.
 */
export function usedCodes(col: TextColumn): Uint8Array {
  const used = new Uint8Array(col.dict.length)
  const codes = col.codes
  for (let i = 0; i < codes.length; i++) used[codes[i]] = 1
  return used
}

/**
 * The column over a dictionary of only the entries its rows use ('' kept at code 0), still sorted:
 * a few groups of a large table's text then carry a few strings, not the table's whole dictionary.
 */
export function withUsedEntriesOnly(col: TextColumn): TextColumn {
  const used = usedCodes(col)
  used[0] = 1
  const remap = new Int32Array(col.dict.length)
  const dict: string[] = []
  for (let c = 0; c < used.length; c++) if (used[c] === 1) remap[c] = dict.push(col.dict[c]) - 1
  return { type: 'text', codes: remapCodes(col.codes, remap), dict }
}

/**
 * Applies `fn` to each dictionary entry instead of each row, then re-sorts and de-duplicates the
 * results and remaps the codes. N/A stays N/A (fn is not called for ''), and an entry mapped to
 * '' becomes N/A.
 */
export function textFromDictMap(col: TextColumn, fn: (s: string) => string): TextColumn {
  const { dict, codes } = col
  const skip = dict.length > 2 * codes.length ? usedCodes(col) : null
  const mapped: string[] = new Array(dict.length)
  mapped[0] = ''
  for (let c = 1; c < dict.length; c++) mapped[c] = skip !== null && skip[c] === 0 ? '' : fn(dict[c])
  const distinct = [...new Set(mapped)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  if (distinct[0] !== '') distinct.unshift('')
  const remap = new Int32Array(dict.length)
  for (let c = 0; c < dict.length; c++) remap[c] = lookupCode(distinct, mapped[c])
  return { type: 'text', codes: remapCodes(codes, remap), dict: distinct }
}

/**
 * Per-entry numbers (a predicate as 0/1, a length…) spread to the rows: out[i] = perEntry[codes[i]].
 * `fn` runs once per used dictionary entry, never for '' (whose value is `naValue`).
 */
export function intFromDictMap(col: TextColumn, fn: (s: string) => number, naValue: number): Int32Array {
  const { dict, codes } = col
  const skip = dict.length > 2 * codes.length ? usedCodes(col) : null
  const perEntry = new Int32Array(dict.length)
  perEntry[0] = naValue
  for (let c = 1; c < dict.length; c++) perEntry[c] = skip !== null && skip[c] === 0 ? 0 : fn(dict[c])
  return remapCodes(codes, perEntry)
}
