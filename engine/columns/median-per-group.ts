/**
 * The median of each group (the summary `median` and g_median). The values are laid out group by
 * group with one counting pass and one scatter, then each group's middle is found by selection
 * (quickselect: linear on average) instead of sorting every group; the second middle value of an
 * even group is the largest value left of the first after the selection.
 */

/**
 * med[g]: the middle non-N/A value of group g (the mean of the two middle ones for an even
 * count), NaN for a group without values.
 * @param groupIds per row: its group (0…groupCount-1), or negative for a row of no group
 * @param x per row: the value, NaN for N/A
 */
export function medianPerGroup(groupIds: Int32Array, groupCount: number, x: Float64Array, rows: number): Float64Array {
  const starts = new Int32Array(groupCount + 1)
  for (let r = 0; r < rows; r++) {
    const v = x[r]
    if (v === v && groupIds[r] >= 0) starts[groupIds[r] + 1]++
  }
  for (let g = 0; g < groupCount; g++) starts[g + 1] += starts[g]
  const values = new Float64Array(starts[groupCount])
  const fill = starts.slice(0, groupCount)
  for (let r = 0; r < rows; r++) {
    const v = x[r]
    const g = groupIds[r]
    if (v === v && g >= 0) values[fill[g]++] = v
  }
  const med = new Float64Array(groupCount)
  for (let g = 0; g < groupCount; g++) {
    const lo = starts[g]
    const hi = starts[g + 1]
    if (hi === lo) {
      med[g] = Number.NaN
      continue
    }
    const k = lo + ((hi - lo) >> 1)
    selectNth(values, lo, hi - 1, k)
    if ((hi - lo) % 2 === 1) {
      med[g] = values[k]
      continue
    }
    let below = values[lo]
    for (let i = lo + 1; i < k; i++) if (values[i] > below) below = values[i]
    med[g] = (below + values[k]) / 2
  }
  return med
}

/**
 * Rearranges a[lo…hi] so that a[k] holds the value a sorted range would hold there, with no
 * larger value before it and no smaller one after it (Hoare partitions around a median of three).
 */
function selectNth(a: Float64Array, lo: number, hi: number, k: number): void {
  while (hi > lo) {
    if (hi - lo < 16) {
      insertionSort(a, lo, hi)
      return
    }
    const mid = (lo + hi) >>> 1
    const pivot = medianOfThree(a[lo], a[mid], a[hi])
    let i = lo
    let j = hi
    while (i <= j) {
      while (a[i] < pivot) i++
      while (a[j] > pivot) j--
      if (i <= j) {
        const t = a[i]
        a[i] = a[j]
        a[j] = t
        i++
        j--
      }
    }
    // Now a[lo…j] <= pivot <= a[i…hi], and anything between equals the pivot.
    if (k <= j) hi = j
    else if (k >= i) lo = i
    else return
  }
}

function medianOfThree(a: number, b: number, c: number): number {
  if (a < b) return b < c ? b : a < c ? c : a
  return a < c ? a : b < c ? c : b
}

function insertionSort(a: Float64Array, lo: number, hi: number): void {
  for (let i = lo + 1; i <= hi; i++) {
    const v = a[i]
    let j = i - 1
    while (j >= lo && a[j] > v) {
      a[j + 1] = a[j]
      j--
    }
    a[j + 1] = v
  }
}
