/**
 * Whole numbers past the 32-bit range written in a query (issue 21, item 1, a first part): read as
 * decimals, which hold them exactly up to 2^53, instead of ints that wrapped (3000000000 gave
 * -1294967296, 4294967297 gave 1) or read as N/A (2147483648). The `j` type, which will keep them
 * integers, is still to come; until then they are exact decimals.
 */
import { expect } from 'chai'
import { columnsOf, makeTable, runXml } from '../helpers/engine.js'

const T = makeTable('t.w', [{ name: 'a', type: 'int', values: [1, -7] }])

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
