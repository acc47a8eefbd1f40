/**
 * Edges of engine/functions that its mutation run (docs/mutation.md) found untested: integer
 * division by a constant zero or N/A, ints divided with N/A among them, strfollow on a string that
 * is a prefix of the other, round to a unit that is not positive, and max/min leaving their
 * arguments as they were, and leap days and spaces in dates read from text.
 */
import { expect } from 'chai'
import { columnFromValues, columnValues, NA_INT, type Value } from '../../engine/columns/index.js'
import { FUNCTIONS } from '../../engine/functions/index.js'
import { followPosition } from '../../engine/functions/text-follow.js'
import { parseDateText } from '../../engine/functions/text-to-date.js'

const ints = (values: readonly (number | null)[]): Value => columnFromValues('int', values)
const intConstant = (value: number): Value => ({ kind: 'scalar', type: 'int', value })
const floats = (values: readonly (number | null)[]): Value => columnFromValues('float', values)

function call(name: string, args: readonly Value[], rows: number): (number | bigint | string | null)[] {
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

  it('round to a unit of 0, a negative unit or N/A gives N/A', () => {
    for (const unit of [0, -5, NA_INT]) {
      expect(call('round', [ints([12, 17]), intConstant(unit)], 2), `unit ${unit}`).to.deep.equal([null, null])
      expect(call('round', [floats([1.25, 2]), intConstant(unit)], 2), `unit ${unit}`).to.deep.equal([null, null])
    }
    expect(call('round', [ints([12, 17]), intConstant(5)], 2)).to.deep.equal([10, 15])
  })

  it('max and min answer in a new column, leaving the columns they compare unchanged', () => {
    for (const [fn, make] of [
      ['max', floats],
      ['min', floats],
      ['max', ints],
      ['min', ints],
    ] as const) {
      const a = make([1, 9, null, 4])
      const b = make([5, 2, 3, null])
      const before = columnValues(a as never)
      const out = call(fn, [a, b], 4)
      expect(out, fn).to.deep.equal(fn === 'max' ? [5, 9, null, null] : [1, 2, null, null])
      expect(columnValues(a as never), `${fn}'s first argument`).to.deep.equal(before)
    }
  })

  it('reads 29 February only in leap years (every 4th, not every 100th, every 400th) and around spaces', () => {
    expect(parseDateText('20000229', 'mdy')).to.equal(20000229)
    expect(parseDateText('20240229', 'mdy')).to.equal(20240229)
    expect(parseDateText('19000229', 'mdy')).to.equal(null)
    expect(parseDateText('20230229', 'mdy')).to.equal(null)
    expect(parseDateText('  20240131 ', 'mdy')).to.equal(20240131)
    expect(parseDateText('02/29/2000', 'mdy')).to.equal(20000229)
    expect(parseDateText('29/02/1900', 'dmy')).to.equal(null)
  })
})
