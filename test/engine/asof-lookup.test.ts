/**
 * The as-of lookup kernel (engine/columns/asof-lookup.ts) against a slow reference that reads its
 * rule literally: per probe row, of the foreign rows whose other keys equal the probe's (N/A equal
 * to N/A) and whose last key is a number not above the probe's, the one with the greatest last key,
 * the first such row in foreign order on a tie; -1 when there is none or the probe's last key is
 * N/A. Only through <link type="asof"> before, so the mutation run of engine/columns found every
 * change to it unnoticed by the folder's tests.
 */
import { expect } from 'chai'
import { asofLookup, NA_INT, type Column } from '../../engine/columns/index.js'
import { Rng, randomFloatColumn, randomIntColumn } from '../../engine/columns/random.js'

function valueAt(c: Column, r: number): number | null {
  if (c.type === 'text' || c.type === 'bigint') throw new Error('ints and floats only here')
  const v = c.data[r]
  if (c.type === 'float') return Number.isNaN(v) ? null : v
  return v === NA_INT ? null : v
}

function reference(keys: readonly Column[], rows: number, probes: readonly Column[], probeRows: number): Int32Array {
  const last = keys.length - 1
  const out = new Int32Array(probeRows).fill(-1)
  for (let i = 0; i < probeRows; i++) {
    const x = valueAt(probes[last], i)
    if (x === null) continue
    let best = -1
    let bestValue = -Infinity
    for (let r = 0; r < rows; r++) {
      if (!keys.slice(0, last).every((k, j) => valueAt(k, r) === valueAt(probes[j], i))) continue
      const v = valueAt(keys[last], r)
      if (v === null || v > x) continue
      if (best < 0 || v > bestValue) {
        best = r
        bestValue = v
      }
    }
    out[i] = best
  }
  return out
}

describe('asofLookup (the kernel of <link type="asof">)', () => {
  it('matches a slow reference on random keys: none, one or two exact keys, int or float last keys, N/A and ties', () => {
    const rng = new Rng(20261128)
    for (let round = 0; round < 120; round++) {
      const rows = rng.int(0, 60)
      const probeRows = rng.int(1, 60)
      const exactKeys = round % 3
      const floatLast = round % 2 === 1
      const na = { na: 0.15 }
      const keys: Column[] = []
      const probes: Column[] = []
      for (let k = 0; k < exactKeys; k++) {
        keys.push(randomIntColumn(rng, rows, 0, 3, na))
        probes.push(randomIntColumn(rng, probeRows, 0, 4, na))
      }
      keys.push(floatLast ? randomFloatColumn(rng, rows, -5, 5, { ...na, decimals: 0 }) : randomIntColumn(rng, rows, -5, 5, na))
      probes.push(floatLast ? randomFloatColumn(rng, probeRows, -7, 7, { ...na, decimals: 1 }) : randomIntColumn(rng, probeRows, -7, 7, na))
      const got = asofLookup(keys, rows, probes, probeRows)
      expect([...got], `round ${round}`).to.deep.equal([...reference(keys, rows, probes, probeRows)])
    }
  })

  it('takes the first foreign row of several with the same last key, and nothing below every key', () => {
    const keys: Column[] = [{ type: 'int', data: Int32Array.from([5, 3, 3, 9]) }]
    const probes: Column[] = [{ type: 'int', data: Int32Array.from([4, 3, 2, 100, NA_INT]) }]
    expect([...asofLookup(keys, 4, probes, 5)]).to.deep.equal([1, 1, -1, 3, -1])
  })

  it('refuses key and probe lists of different lengths, or none', () => {
    const one: Column[] = [{ type: 'int', data: Int32Array.from([1]) }]
    expect(() => asofLookup(one, 1, [...one, ...one], 1)).to.throw(/counts differ/)
    expect(() => asofLookup([], 1, [], 1)).to.throw(/counts differ/)
  })
})
