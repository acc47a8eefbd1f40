/**
 * Sorting doubles that no decimal scale holds (engine/columns/sort-words.ts turns them into two
 * order-preserving 32-bit words) and the top rows of a sort (sort.ts takes candidates below a
 * sampled bound first), against a plain comparison sort. The folder's other sort tests draw
 * decimals of two places, which take the scaled path: the mutation run of engine/columns found the
 * word path's changes (a negative's low word left uninverted, a word's minimum not subtracted)
 * and the candidate bound's unnoticed.
 */
import { expect } from 'chai'
import { sortPermutation } from '../../engine/columns/index.js'
import { Rng } from '../../engine/columns/random.js'

/** The next double above v (v finite, not -0). */
function nextUp(v: number): number {
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, v)
  const bits = view.getBigUint64(0)
  view.setBigUint64(0, v >= 0 ? bits + 1n : bits - 1n)
  return view.getFloat64(0)
}

/** Wide: magnitudes from 1e-30 to 1e30. Narrow: all near 1000, so the high words barely differ. */
function fullPrecisionDoubles(rng: Rng, n: number, narrow = false): Float64Array {
  const out = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const pick = rng.next()
    if (pick < 0.05) out[i] = Number.NaN
    else if (pick < 0.1 && i > 0)
      out[i] = out[i - 1] // ties
    else if (pick < 0.25 && i > 0 && Number.isFinite(out[i - 1]))
      out[i] = nextUp(out[i - 1]) // neighbours: differ in the low word
    else if (pick < 0.28) out[i] = [0, -0, Infinity, -Infinity, Number.MIN_VALUE, -Number.MIN_VALUE][rng.int(0, 5)]
    else out[i] = narrow ? 1000 + rng.next() * 1e-9 : (rng.next() - 0.5) * 10 ** rng.int(-30, 30) * Math.PI
  }
  return out
}

/** N/A (NaN) lowest, -0 equal to 0, ties in row order; descending reverses the values only. */
function referenceOrder(data: Float64Array, desc: boolean): number[] {
  const rank = (v: number): number => (Number.isNaN(v) ? -Infinity : v)
  const rows = Array.from(data, (_, i) => i)
  return rows.sort((a, b) => {
    const x = rank(data[a])
    const y = rank(data[b])
    const nanA = Number.isNaN(data[a])
    const nanB = Number.isNaN(data[b])
    let c: number
    if (nanA || nanB) c = nanA === nanB ? 0 : nanA ? -1 : 1
    else c = x < y ? -1 : x > y ? 1 : 0
    return (desc ? -c : c) || a - b
  })
}

describe('sorting doubles at full precision', () => {
  it('orders random doubles (wide and narrow spreads), their neighbours, ties, zeros, infinities and N/A as a comparison sort does', () => {
    const rng = new Rng(424242)
    for (let round = 0; round < 40; round++) {
      const n = rng.int(1, 3000)
      const data = fullPrecisionDoubles(rng, n, round % 2 === 1)
      for (const desc of [false, true]) {
        const got = sortPermutation([{ col: { type: 'float', data }, desc }], n)
        expect([...got], `round ${round}, ${desc ? 'descending' : 'ascending'}`).to.deep.equal(referenceOrder(data, desc))
      }
    }
  })

  it('gives the same top rows with a limit as the full sort does', () => {
    const rng = new Rng(777)
    // Candidates are taken from 8,192 rows up (twice the sample) and for a limit of at most 1/16.
    for (let round = 0; round < 24; round++) {
      const n = rng.int(8192, 40000)
      const data = fullPrecisionDoubles(rng, n, round % 3 === 2)
      const limit = rng.int(1, Math.floor(n / 16))
      const desc = round % 2 === 1
      const full = sortPermutation([{ col: { type: 'float', data }, desc }], n)
      const top = sortPermutation([{ col: { type: 'float', data }, desc }], n, undefined, limit)
      expect([...top], `round ${round}: n ${n}, limit ${limit}`).to.deep.equal([...full.subarray(0, limit)])
    }
  })

  it('sorts every row when the sample misses the values of most rows', () => {
    // The sample reads every tenth row: those hold 0, 1, 2, … and every other row more than a
    // million, so the bound the sample suggests keeps 817 rows, fewer than the 2,000 asked for.
    const n = 40960
    const data = Float64Array.from({ length: n }, (_, i) => (i % 10 === 0 ? i / 10 : 1e6 + i))
    const limit = 2000
    const full = sortPermutation([{ col: { type: 'float', data }, desc: false }], n)
    const top = sortPermutation([{ col: { type: 'float', data }, desc: false }], n, undefined, limit)
    expect([...top]).to.deep.equal([...full.subarray(0, limit)])
  })
})
