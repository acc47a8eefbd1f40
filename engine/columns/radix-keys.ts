/**
 * Stable sort of positions by several radix keys (a big integer's two words, a float's, or
 * several columns whose bits do not fit one 32-bit key): most-significant digit first over the
 * keys taken as one long key. The first scatter over the whole array splits it into buckets of
 * a few thousand rows; every later digit works inside a bucket, in cache. (Sorting key by key
 * from the last instead scattered the whole array once per key, with a random gather of the next
 * key between: about twice the time for two 32-bit keys over 10M rows.)
 *
 * A digit on which a range does not differ (a run of equal values) is skipped without moving
 * anything, and ranges of a few rows are finished by insertion sort.
 */
/** A radix key (radix.ts's RadixKey, restated here: radix.ts imports this file). */
interface Key {
  readonly values: Uint32Array
  readonly bits: number
}

const MAX_DIGIT_BITS = 11
const INSERTION_LIMIT = 32

/** The sort state: each key's values and the positions, in their current order, with scratch. */
interface State {
  readonly vals: Uint32Array[]
  readonly tmp: Uint32Array[]
  perm: Int32Array
  tmpPerm: Int32Array
  readonly bits: readonly number[]
  /** Destination of each row of the range being scattered. */
  readonly dest: Int32Array
  /** Digit counts, one array per recursion depth. */
  readonly counts: Int32Array[]
}

/**
 * Positions 0…n-1 ordered by `keys` (most significant first, each of 1…32 bits), ties in
 * position order. The keys' arrays are used as scratch space.
 */
export function sortByKeys(keys: readonly Key[], n: number): Int32Array {
  const perm = new Int32Array(n)
  for (let i = 0; i < n; i++) perm[i] = i
  const s: State = {
    vals: keys.map((k) => k.values),
    tmp: keys.map(() => new Uint32Array(n)),
    perm,
    tmpPerm: new Int32Array(n),
    bits: keys.map((k) => k.bits),
    dest: new Int32Array(n),
    counts: [],
  }
  sortRange(s, 0, n, 0, s.bits[0], 0)
  return s.perm
}

/**
 * Sorts [from, to), whose rows agree on every key before `key` and on the bits of `key` above
 * its lowest `left`.
 */
function sortRange(s: State, from: number, to: number, key: number, left: number, depth: number): void {
  const size = to - from
  while (key < s.bits.length) {
    if (size <= INSERTION_LIMIT) {
      insertionSort(s, from, to, key)
      return
    }
    // About four rows a bucket: wider digits would spend more on empty buckets than they save.
    const width = Math.min(left, MAX_DIGIT_BITS, Math.max(1, Math.floor(Math.log2(size)) - 2))
    const shift = left - width
    const mask = (1 << width) - 1
    if (depth === s.counts.length) s.counts.push(new Int32Array((1 << MAX_DIGIT_BITS) + 1))
    const counts = s.counts[depth]
    counts.fill(0, 0, mask + 2)
    const v = s.vals[key]
    const digitKey = key
    for (let i = from; i < to; i++) counts[((v[i] >>> shift) & mask) + 1]++
    left = shift
    if (left === 0) {
      key++
      left = key < s.bits.length ? s.bits[key] : 0
    }
    // Every row has the same digit: nothing to move, go on to the next digit.
    if (counts[((v[from] >>> shift) & mask) + 1] === size) continue
    counts[0] = from
    for (let d = 1; d <= mask + 1; d++) counts[d] += counts[d - 1]
    scatter(s, from, to, digitKey, shift, mask, counts)
    // counts[d] is now the end of bucket d (its start was counts[d - 1] before the scatter).
    let start = from
    for (let d = 0; d <= mask; d++) {
      const end = counts[d]
      if (end - start > 1 && key < s.bits.length) sortRange(s, start, end, key, left, depth + 1)
      start = end
    }
    return
  }
}

/**
 * Moves the rows of [from, to) to the bucket of their digit of key `key`, in order within a
 * bucket (the earlier keys are equal in the range: they stay).
 */
function scatter(s: State, from: number, to: number, key: number, shift: number, mask: number, next: Int32Array): void {
  const dest = s.dest
  const v = s.vals[key]
  for (let i = from; i < to; i++) dest[i] = next[(v[i] >>> shift) & mask]++
  const whole = from === 0 && to === s.perm.length
  for (let k = key; k < s.vals.length; k++) {
    const src = s.vals[k]
    const dst = s.tmp[k]
    for (let i = from; i < to; i++) dst[dest[i]] = src[i]
    // The whole array: the scratch becomes the array. A range: copied back, in cache.
    if (whole) {
      s.tmp[k] = src
      s.vals[k] = dst
    } else {
      src.set(dst.subarray(from, to), from)
    }
  }
  const perm = s.perm
  const tmpPerm = s.tmpPerm
  for (let i = from; i < to; i++) tmpPerm[dest[i]] = perm[i]
  if (whole) {
    s.perm = tmpPerm
    s.tmpPerm = perm
  } else {
    perm.set(tmpPerm.subarray(from, to), from)
  }
}

/** Insertion sort of [from, to) by keys `key`… (earlier keys are equal in the range). */
function insertionSort(s: State, from: number, to: number, key: number): void {
  const { vals, perm } = s
  const last = vals.length
  for (let i = from + 1; i < to; i++) {
    let j = i
    while (j > from && greater(vals, key, last, j - 1, j)) {
      for (let k = key; k < last; k++) {
        const t = vals[k][j]
        vals[k][j] = vals[k][j - 1]
        vals[k][j - 1] = t
      }
      const p = perm[j]
      perm[j] = perm[j - 1]
      perm[j - 1] = p
      j--
    }
  }
}

/** Whether row a's keys key… come after row b's. */
function greater(vals: readonly Uint32Array[], key: number, last: number, a: number, b: number): boolean {
  for (let k = key; k < last; k++) {
    const x = vals[k][a]
    const y = vals[k][b]
    if (x !== y) return x > y
  }
  return false
}
