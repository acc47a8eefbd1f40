/**
 * Integers past the 32-bit range (issue 21, item 1, a first part). Whole numbers written in a
 * query are read as decimals, which hold them exactly up to 2^53, instead of ints that wrapped
 * (3000000000 gave -1294967296, 4294967297 gave 1) or read as N/A (2147483648). Int arithmetic
 * whose result leaves the range (`20240131*1000`, `d+d` with d = 2,000,000,000) is an error that
 * says what to write, where it gave N/A without a word. The `j` type, which will keep such values
 * integers, is still to come.
 */
import { expect } from 'chai'
import { columnsOf, makeTable, runXml } from '../helpers/engine.js'

const T = makeTable('t.w', [
  { name: 'a', type: 'int', values: [1, -7] },
  { name: 'd', type: 'int', values: [2000000000, 5] },
])

const value = (expr: string): unknown => columnsOf(runXml(`<base table="t.w"/><willbe name="x" value="${expr}"/>`, [T])).x[0]

describe('whole-number literals past 32 bits', () => {
  for (const [expr, want] of [
    ['3000000000', 3000000000],
    ['4294967297', 4294967297],
    ['2147483648', 2147483648],
    ['-2147483648', -2147483648],
    ['3000000000+1', 3000000001],
    ['3000000000/2', 1500000000],
    ['9007199254740991', 9007199254740991],
    // Past 2^53 a literal keeps its digits (a big integer), where a float64 would round them.
    ['9007199254740993', 9007199254740993n],
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775807', -9223372036854775807n],
    ['20240131*1000.0', 20240131000],
  ] as const) {
    it(`${expr} is ${want}`, () => expect(value(expr)).to.equal(want))
  }

  it('keeps a literal that fits as an int', () => {
    const r = runXml('<base table="t.w"/><willbe name="x" value="2147483647"/><willbe name="y" value="a+1"/>', [T])
    expect(r.cols.find((c) => c.name === 'x')?.type).to.equal('i')
    expect(columnsOf(r).y).to.deep.equal([2, -6])
  })

  it('compares an int column with such a literal by value', () => {
    expect(columnsOf(runXml('<base table="t.w"/><sel value="a<3000000000"/>', [T])).a).to.deep.equal([1, -7])
  })
})

describe('int arithmetic past 32 bits', () => {
  for (const [expr, shown] of [
    ['20240131*1000', '20240131 * 1000 is 20240131000'],
    ['d+d', '2000000000 + 2000000000 is 4000000000'],
    ['0-d-d', '-2000000000 - 2000000000 is -4000000000'],
  ] as const) {
    it(`refuses ${expr}, naming the values and what to write instead`, () => {
      expect(() => value(expr)).to.throw(
        `Integer overflow: ${shown}, past the 32-bit integer range (-2147483647 to 2147483647); write one side as a decimal (such as 1000.0) to compute in decimals.`,
      )
    })
  }

  it('computes the same in decimals when one side is written as one', () => {
    expect(columnsOf(runXml('<base table="t.w"/><willbe name="x" value="d+d*1.0"/>', [T])).x).to.deep.equal([4000000000, 10])
  })
})
