/**
 * Each <tcol> summary kernel against a plain row-by-row reference on random data with N/A mixed
 * in: the reference works on arrays of JS values (null = N/A) grouped with a Map.
 */
import { expect } from 'chai'
import { SUMMARY_REFERENCE } from '../helpers/summary-reference.js'
import { Rng, randomFloatColumn, randomIntColumn, randomTextColumn } from '../../engine/columns/random.js'
import { columnFromValues, columnValues, groupBy } from '../../engine/columns/index.js'
import type { Column } from '../../engine/columns/types.js'
import { accumulatorOf, SUMMARIES } from '../../engine/summaries/index.js'

type V = number | bigint | string | null

function groupsOf(ids: Int32Array, count: number, values: readonly V[]): V[][] {
  const out: V[][] = Array.from({ length: count }, () => [])
  ids.forEach((g, i) => out[g].push(values[i]))
  return out
}

function closeTo(actual: readonly V[], expected: readonly V[], what: string): void {
  expect(actual.length, what).to.equal(expected.length)
  actual.forEach((a, i) => {
    const e = expected[i]
    if (typeof a === 'number' && typeof e === 'number') expect(a, `${what} group ${i}`).to.be.closeTo(e, 1e-9 * Math.max(1, Math.abs(e)))
    else expect(a, `${what} group ${i}`).to.equal(e)
  })
}

describe('tabulation summaries against a row-by-row reference', () => {
  const rng = new Rng(20261121)
  const sources: [string, (rows: number) => Column][] = [
    ['int', (n) => randomIntColumn(rng, n, -50, 50, { na: 0.15 })],
    ['float', (n) => randomFloatColumn(rng, n, -100, 100, { na: 0.15 })],
    ['text', (n) => randomTextColumn(rng, n, ['ant', 'bee', 'cat', 'dog', 'eel'], { na: 0.15 })],
  ]
  for (const [name, def] of Object.entries(SUMMARIES)) {
    for (const [kind, make] of sources) {
      if (def.types && !def.types.includes(kind as 'int' | 'float' | 'text')) continue
      for (const rows of [0, 1, 7, 500]) {
        it(`${name} over ${kind} values agrees on ${rows} rows`, () => {
          const keys = randomIntColumn(rng, rows, 0, 6, { na: 0.1 })
          const source = make(rows)
          const weight = randomIntColumn(rng, rows, 0, 5, { na: 0.1 })
          const groups = groupBy([keys], rows, null)
          const out = def.kernel({ groups, source: def.needsSource ? source : null, weight: def.needsWeight ? weight : null })
          const values = columnValues(source) as V[]
          const perGroup = groupsOf(groups.ids, groups.count, values)
          const weights = groupsOf(groups.ids, groups.count, columnValues(weight) as V[])
          const expected = perGroup.map((vs, g) => SUMMARY_REFERENCE[name](vs, weights[g]))
          closeTo(
            columnValues(out) as V[],
            expected.map((v) => (v === '' ? '' : v)),
            `${name}/${kind}`,
          )
        })
      }
    }
  }

  it("joins group_concat's texts in row order by its separator, NULL for a group without any", () => {
    const groups = { ids: Int32Array.from([1, 0, 1, 1, 0, 2]), count: 3 }
    const source = columnFromValues('text', ['b', 'x', null, 'a', 'y', null])
    const sep = columnFromValues('text', Array<string>(6).fill('; '))
    expect(columnValues(SUMMARIES.$group_concat.kernel({ groups, source, weight: sep }))).to.deep.equal(['x; y', 'b; a', null])
  })

  it('sums an all-N/A group to 0 and averages it to N/A', () => {
    const groups = { ids: Int32Array.from([0, 0, 1]), count: 2 }
    const source: Column = { type: 'float', data: Float64Array.from([Number.NaN, Number.NaN, 2]) }
    expect(columnValues(SUMMARIES.sum.kernel({ groups, source, weight: null }))).to.deep.equal([0, 2])
    expect(columnValues(SUMMARIES.avg.kernel({ groups, source, weight: null }))).to.deep.equal([null, 2])
  })

  it('gives the fast paths an accumulator only for an unweighted summary with what it needs', () => {
    const x = { kind: 'Col', name: 'x' }
    expect(accumulatorOf({ fun: 'mean', source: x, weight: null })).to.equal('avg')
    expect(accumulatorOf({ fun: 'COUNT', source: null, weight: null })).to.equal('cnt')
    expect(accumulatorOf({ fun: 'sum', source: null, weight: null })).to.equal(null)
    expect(accumulatorOf({ fun: 'sum', source: x, weight: x })).to.equal(null)
    expect(accumulatorOf({ fun: 'median', source: x, weight: null })).to.equal(null)
    expect(accumulatorOf({ fun: 'nosuch', source: x, weight: null })).to.equal(null)
  })
})
