/** `<table format="xml">`: an inline table written as a Table Tree (1010data XML API, "Table Tree"). */
import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import { columnsOf, runXml } from '../helpers/engine.js'

/** The Table Tree page's example (its first five rows), inside <table format="xml">. */
const DOC_EXAMPLE = `<table format="xml">
  <title>Table Tree Example</title>
  <sdesc>Example of a table tree</sdesc>
  <cols>
    <th name="transid" type="i">Transaction ID</th>
    <th name="store" type="i">Store</th>
    <th name="sumsales" type="f" format="type:currency">Sum of&#10;Sales</th>
    <th name="totunits" type="f" format="type:num;width:4;dec:0">Total Units</th>
  </cols>
  <data>
    <tr><td>531</td><td>1</td><td>-5</td><td>-1</td></tr>
    <tr><td>532</td><td>1</td><td>1.6</td><td>2</td></tr>
    <tr><td>534</td><td>1</td><td>8.25</td><td>3</td></tr>
    <tr><td>535</td><td>2</td><td>3.85</td><td>3</td></tr>
    <tr><td>536</td><td>2</td><td>6.02</td><td>4</td></tr>
  </data>
</table>`

function failure(xml: string): AppError {
  try {
    runXml(xml)
  } catch (err) {
    if (err instanceof AppError) return err
    throw err
  }
  throw new Error('expected an error')
}

describe('<table format="xml">', () => {
  it('reads the documented Table Tree example: values, declared types, headings as labels, formats', () => {
    const r = runXml(DOC_EXAMPLE)
    expect(columnsOf(r)).to.deep.equal({
      transid: [531, 532, 534, 535, 536],
      store: [1, 1, 1, 2, 2],
      sumsales: [-5, 1.6, 8.25, 3.85, 6.02],
      totunits: [-1, 2, 3, 3, 4],
    })
    expect(r.cols.map((c) => c.type)).to.deep.equal(['i', 'i', 'f', 'f'])
    expect(r.cols.map((c) => c.label)).to.deep.equal(['Transaction ID', 'Store', 'Sum of`Sales', 'Total Units'])
    expect(r.cols[2].format).to.match(/^type:currency/)
  })

  it('keeps the declared type even where the cells would read as another (a text column of digits, a float of whole numbers)', () => {
    const r = runXml(
      '<table format="xml"><cols><th name="zip" type="a"/><th name="x" type="f"/></cols><data><tr><td>01234</td><td>2</td></tr><tr><td></td><td></td></tr></data></table>',
    )
    expect(columnsOf(r)).to.deep.equal({ zip: ['01234', ''], x: [2, null] })
    expect(r.cols.map((c) => c.type)).to.deep.equal(['a', 'f'])
  })

  it('reads a j column as big integers, exactly', () => {
    const r = runXml('<table format="xml"><cols><th name="id" type="j"/></cols><data><tr><td>9007199254740991</td></tr><tr><td>2</td></tr></data></table>')
    expect(columnsOf(r)).to.deep.equal({ id: [9007199254740991, 2] })
    expect(r.cols.map((c) => c.type)).to.deep.equal(['j'])
    const past = runXml('<table format="xml"><cols><th name="id" type="j"/></cols><data><tr><td>9007199254740993</td></tr></data></table>')
    expect(columnsOf(past)).to.deep.equal({ id: [9007199254740993n] })
    expect(() => runXml('<table format="xml"><cols><th name="id" type="j"/></cols><data><tr><td>9223372036854775808</td></tr></data></table>')).to.throw(
      /not an integer within ±\(2\^63 − 1\) \(type j\)/,
    )
  })

  it('is a worksheet later operations can use', () => {
    const r = runXml(`${DOC_EXAMPLE}<tabu breaks="store"><tcol source="sumsales" fun="sum" name="s"/></tabu>`)
    expect(columnsOf(r).store).to.deep.equal([1, 2])
    expect((columnsOf(r).s as number[])[1]).to.be.closeTo(9.87, 1e-9)
  })

  const ERRORS: readonly [string, string, string][] = [
    ['no <cols>', '<table format="xml"><data/></table>', 'needs a <cols> element'],
    [
      'a <th> without a type',
      '<table format="xml"><cols><th name="a"/></cols></table>',
      `<th name="a"> needs type i (integer), j (big integer), f (float) or a (text)`,
    ],
    [
      'a cell that is not of the declared type',
      '<table format="xml"><cols><th name="a" type="i"/></cols><data><tr><td>1.5</td></tr></data></table>',
      "'1.5' in column a is not an integer",
    ],
    [
      'a row with too few cells',
      '<table format="xml"><cols><th name="a" type="i"/><th name="b" type="i"/></cols><data><tr><td>1</td></tr></data></table>',
      'row 1 of <table format="xml"> has 1 <td>',
    ],
    ['a bad column name', '<table format="xml"><cols><th name="1a" type="i"/></cols></table>', 'is not a valid column name'],
    ['a column declared twice', '<table format="xml"><cols><th name="a" type="i"/><th name="A" type="a"/></cols></table>', 'declares the column a twice'],
    ['cols as an attribute too', '<table format="xml" cols="a"><cols><th name="a" type="i"/></cols></table>', 'drop depth and cols'],
    [
      'an element inside a cell',
      '<table format="xml"><cols><th name="a" type="i"/></cols><data><tr><td><b/></td></tr></data></table>',
      '<b> cannot appear inside a <td>',
    ],
  ]
  for (const [what, xml, part] of ERRORS) {
    it(`refuses ${what}`, () => {
      const err = failure(xml)
      expect(err.code).to.equal('CHECK_ERROR')
      expect(err.message).to.include(part)
    })
  }
})
