/**
 * The rows that can be among the first `limit` of a sort by several radix keys (a top-N): found
 * digit by digit, most significant first, 11 bits at a time across the keys. At each digit the
 * rows still in question are counted per digit value: those below the digit where the count
 * reaches what is still wanted are certainly in, those above certainly out, and those on it go on
 * to the next digit. So a first key on which most rows tie (ClickBench's `ORDER BY c DESC` after
 * grouping by an id unique per row: every count is 1) hands the choice to the next key instead of
 * leaving every row a candidate.
 */
/** A radix key (radix.ts's RadixKey, restated here: radix.ts imports this file). */
interface RadixKey {
  readonly values: Uint32Array
  readonly bits: number
}

const DIGIT_BITS = 11

/** Rows on the boundary digit few enough to sort them all rather than look at another digit. */
const settled = (rows: number, want: number): boolean => rows <= 4 * want + 256

/**
 * Candidate positions in increasing order (so a stable sort of them keeps ties in position
 * order), a superset of the first `limit` positions of the stable sort by `keys`; null when no
 * digit narrows them (every position is one).
 */
export function topCandidates(keys: readonly RadixKey[], n: number, limit: number): Int32Array | null {
  let rows: Int32Array | null = null // null: every position 0…n-1
  let m = n
  let want = limit
  const sure: Int32Array[] = []
  for (const key of keys) {
    for (let hi = key.bits; hi > 0 && !settled(m, want);) {
      const lo = Math.max(hi - DIGIT_BITS, 0)
      const split = splitOnDigit(key.values, rows, m, lo, (1 << (hi - lo)) - 1, want)
      if (split.below.length > 0) sure.push(split.below)
      want -= split.below.length
      rows = split.on
      m = rows.length
      hi = lo
    }
  }
  if (rows === null) return null
  const total = sure.reduce((s, a) => s + a.length, m)
  const out = new Int32Array(total)
  let at = 0
  for (const a of sure) {
    out.set(a, at)
    at += a.length
  }
  out.set(rows, at)
  return out.sort()
}

/**
 * Among `rows` (null: 0…m-1), those whose digit (value >>> lo) & mask is below the digit where
 * the running count reaches `want`, and those on it, each in position order.
 */
function splitOnDigit(values: Uint32Array, rows: Int32Array | null, m: number, lo: number, mask: number, want: number): { below: Int32Array; on: Int32Array } {
  const counts = new Int32Array(mask + 1)
  if (rows === null) for (let i = 0; i < m; i++) counts[(values[i] >>> lo) & mask]++
  else for (let i = 0; i < m; i++) counts[(values[rows[i]] >>> lo) & mask]++
  let digit = 0
  let before = 0
  while (before + counts[digit] < want) before += counts[digit++]
  const below = new Int32Array(before)
  const on = new Int32Array(counts[digit])
  let b = 0
  let o = 0
  for (let i = 0; i < m; i++) {
    const r = rows === null ? i : rows[i]
    const d = (values[r] >>> lo) & mask
    if (d < digit) below[b++] = r
    else if (d === digit) on[o++] = r
  }
  return { below, on }
}
