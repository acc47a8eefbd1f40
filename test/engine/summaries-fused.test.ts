/**
 * The fused sum-and-count loop (summaries/fused.ts) against SUM's and VALID's own kernels, run
 * one after the other over the same random runs (N/A, -0 and fractions mixed in): the same bits.
 * And which folds it pairs.
 */
import { expect } from 'chai'
import { Rng } from '../../engine/columns/random.js'
import { pairSumsWithCounts, sumAndCountBlock, sumAndCountOne } from '../../engine/summaries/fused.js'
import { MAX, SUM, VALID, type FoldPart } from '../../engine/summaries/parts.js'
import { BLOCK_VALID } from '../../engine/interpret/ops/tabu-shift.js'

describe('sumAndCountBlock()', () => {
  it('adds what SUM and VALID add, bit for bit', () => {
    const rng = new Rng(7)
    for (let round = 0; round < 50; round++) {
      const groups = rng.int(1, 9)
      const len = rng.int(0, 300)
      const off = rng.int(0, 5)
      const x = Float64Array.from({ length: off + len }, () =>
        rng.chance(0.2) ? Number.NaN : rng.chance(0.1) ? -0 : (rng.next() - 0.5) * 10 ** rng.int(-3, 12),
      )
      const slots = Int32Array.from({ length: len }, () => rng.int(0, groups - 1))
      const [s1, n1] = [new Float64Array(groups), new Int32Array(groups)]
      const [s2, n2] = [new Float64Array(groups), new Int32Array(groups)]
      SUM.add(slots, x, off, len, s1)
      VALID.add(slots, x, off, len, n1)
      sumAndCountBlock(slots, x, off, len, s2, n2)
      expect(Array.from(s2, (v) => (Object.is(v, -0) ? '-0' : v))).to.deep.equal(Array.from(s1, (v) => (Object.is(v, -0) ? '-0' : v)))
      expect(n2).to.deep.equal(n1)
    }
  })
})

describe('sumAndCountOne()', () => {
  it('adds what SUM and VALID add into group 0, bit for bit', () => {
    const rng = new Rng(8)
    for (let round = 0; round < 50; round++) {
      const len = rng.int(0, 300)
      const off = rng.int(0, 5)
      const x = Float64Array.from({ length: off + len }, () =>
        rng.chance(0.2) ? Number.NaN : rng.chance(0.1) ? -0 : (rng.next() - 0.5) * 10 ** rng.int(-3, 12),
      )
      const [s1, n1] = [new Float64Array(1), new Int32Array(1)]
      const [s2, n2] = [new Float64Array(1), new Int32Array(1)]
      SUM.add(new Int32Array(len), x, off, len, s1)
      VALID.add(new Int32Array(len), x, off, len, n1)
      sumAndCountOne(x, off, len, s2, n2)
      expect(Object.is(s2[0], s1[0]), `${s2[0]} vs ${s1[0]}`).to.equal(true)
      expect(n2[0]).to.equal(n1[0])
    }
  })
})

describe('pairSumsWithCounts()', () => {
  const fold = (part: FoldPart, x: string) => ({ part, x })
  it('pairs each sum with a count of the same values, once, where the first of them was', () => {
    const [sumA, countA, maxA, sumB, blockB, sumC, countC2] = [
      fold(SUM, 'a'),
      fold(VALID, 'a'),
      fold(MAX, 'a'),
      fold(SUM, 'b'),
      fold(BLOCK_VALID, 'b'),
      fold(SUM, 'c'),
      fold(VALID, 'c2'),
    ]
    expect(pairSumsWithCounts([countA, maxA, sumA, sumB, blockB, sumC, countC2])).to.deep.equal([
      { fold: sumA, count: countA },
      { fold: maxA, count: null },
      { fold: sumB, count: blockB },
      { fold: sumC, count: null },
      { fold: countC2, count: null },
    ])
  })
})
