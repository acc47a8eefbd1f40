/**
 * Edges of engine/functions that its mutation run (docs/mutation.md) found untested: integer
 * division by a constant zero or N/A, ints divided with N/A among them, and strfollow on a string
 * that is a prefix of the other.
 */
import { expect } from 'chai'
import { columnFromValues, columnValues, NA_INT, type Value } from '../../engine/columns/index.js'
import { FUNCTIONS } from '../../engine/functions/index.js'
import { followPosition } from '../../engine/functions/text-follow.js'

const ints = (values: readonly (number | null)[]): Value => columnFromValues('int', values)
const intConstant = (value: number): Value => ({ kind: 'scalar', type: 'int', value })

function call(name: string, args: readonly Value[], rows: number): (number | string | null)[] {
  return columnValues(
    FUNCTIONS[name].kernel(
      args.map((value) => ({ kind: 'value' as const, value })),
      { rows },
    ),
  )
}

describe('function kernels at their edges', () => {
  it('SQL integer division and remainder by a constant 0 or N/A give N/A, as SQLite gives NULL', () => {
    for (const fn of ['$idiv', '$imod']) {
      expect(call(fn, [ints([7, -7, null]), intConstant(0)], 3), `${fn} by 0`).to.deep.equal([null, null, null])
      expect(call(fn, [ints([7, -7, null]), intConstant(NA_INT)], 3), `${fn} by N/A`).to.deep.equal([null, null, null])
      expect(call(fn, [ints([7, -7, 9]), ints([0, 2, null])], 3), `${fn} by a column`).to.deep.equal(fn === '$idiv' ? [null, -3, null] : [null, -1, null])
    }
    expect(call('$idiv', [ints([7, -7, null]), intConstant(2)], 3)).to.deep.equal([3, -3, null])
    expect(call('$imod', [ints([7, -7, null]), intConstant(2)], 3)).to.deep.equal([1, -1, null])
  })

  it('X/Y on ints is a decimal, N/A where either side is N/A or Y is 0', () => {
    expect(call('/', [ints([7, null, 6, 5]), ints([2, 3, null, 0])], 4)).to.deep.equal([3.5, null, null, null])
    expect(call('/', [ints([7, null]), intConstant(2)], 2)).to.deep.equal([3.5, null])
  })

  it('strfollow: a string that is a prefix of the other differs one past its end', () => {
    expect(followPosition('ab', 'abc', false)).to.equal(3)
    expect(followPosition('abc', 'ab', false)).to.equal(3)
    expect(followPosition('abc', 'abc', false)).to.equal(0)
    expect(followPosition('abc', 'aXc', false)).to.equal(2)
    expect(followPosition('ABc', 'abd', true)).to.equal(3)
  })
})
