/**
 * The one-group kernels of the summaries' folds (summaries/parts.ts `addToOne`, taken by a
 * tabulation without breaks) give the bits the general kernels give with every row in slot 0:
 * the same additions in the same order, N/A left out, -0 and 0 as the general ones treat them.
 */
import { expect } from 'chai'
import { MAX, MIN, SQUARES, SUM, VALID, type FoldPart } from '../../engine/summaries/parts.js'
import { Rng } from '../../engine/columns/random.js'
import { newVector } from '../../engine/summaries/fold.js'

function randomValues(rng: Rng, n: number): Float64Array {
  const pick = [Number.NaN, 0, -0, 1e308, -1e308, 0.1, 1 / 3, 2 ** 53, -7]
  const x = new Float64Array(n)
  for (let i = 0; i < n; i++) x[i] = rng.next() < 0.3 ? pick[Math.floor(rng.next() * pick.length)]! : (rng.next() - 0.5) * 10 ** Math.floor(rng.next() * 12)
  return x
}

describe('summary folds of one group', () => {
  for (const part of [SUM, SQUARES, VALID, MIN, MAX] as FoldPart[]) {
    it(`${part.name}: the one-group kernel gives the general kernel's bits`, () => {
      const rng = new Rng(part.name.length * 7919)
      for (const n of [0, 1, 5, 1000, 4099]) {
        const x = randomValues(rng, n + 3)
        for (const off of [0, 3]) {
          const general = newVector(part, 1)
          const one = newVector(part, 1)
          // Two runs into the same vector, as foldRows adds run after run.
          const half = Math.floor(n / 2)
          part.add(new Int32Array(half), x, off, half, general)
          part.add(new Int32Array(n - half), x, off + half, n - half, general)
          part.addToOne(x, off, half, one)
          part.addToOne(x, off + half, n - half, one)
          expect(Object.is(one[0], general[0]), `${n} rows from ${off}: ${one[0]} vs ${general[0]}`).to.equal(true)
        }
      }
    })
  }
})
