/** `<cols>`: metadata for several columns from an inline table (reference §2.7). */
import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import { makeTable, runXml } from '../helpers/engine.js'

const T = makeTable('t', [
  { name: 'name', type: 'text', values: ['a', 'b'] },
  { name: 'qty', type: 'int', values: [1, 2] },
  { name: 'price', type: 'float', values: [1.5, 2.5] },
])

const meta = (xml: string) => runXml(`<base table="t"/>${xml}`, [T]).cols

function failure(xml: string): AppError {
  try {
    meta(xml)
  } catch (err) {
    if (err instanceof AppError) return err
    throw err
  }
  throw new Error('expected an error')
}

describe('<cols>', () => {
  it('runs the documented example: <cols><table cols="name,width">name,24;</table></cols> sets the width of column name', () => {
    const cols = meta('<cols><table cols="name,width">name,24;</table></cols>')
    expect(cols.find((c) => c.name === 'name')?.width).to.equal(24)
    expect(cols.map((c) => c.name)).to.deep.equal(['name', 'qty', 'price'])
  })

  it('sets label, desc, format, fixed by name; blank cells leave a field as it was; unknown names are skipped', () => {
    const before = meta('')
    const cols = meta(`<cols><table cols="name,label,desc,format,fixed">qty,Quantity,How many,,1;price,,,type:currency,;nope,X,,,</table></cols>`)
    const qty = cols.find((c) => c.name === 'qty')
    const price = cols.find((c) => c.name === 'price')
    expect(qty).to.include({ label: 'Quantity', desc: 'How many', fixed: 1, format: before.find((c) => c.name === 'qty')?.format })
    expect(price?.label).to.equal(before.find((c) => c.name === 'price')?.label)
    expect(price?.format).to.match(/^type:currency;/)
  })

  it('reaches a column by its 1-based position with ord alone', () => {
    expect(meta('<cols><table cols="ord,label">3,Third</table></cols>')[2]).to.include({ name: 'price', label: 'Third' })
  })

  it('with name and ord, moves the named column to that position, the others keeping their order', () => {
    expect(meta('<cols><table cols="name,ord">price,1</table></cols>').map((c) => c.name)).to.deep.equal(['price', 'name', 'qty'])
    expect(meta('<cols><table cols="name,ord">name,3;price,2</table></cols>').map((c) => c.name)).to.deep.equal(['qty', 'price', 'name'])
  })

  it('keeps the data: values follow their columns when they move', () => {
    const r = runXml('<base table="t"/><cols><table cols="name,ord">price,1</table></cols>', [T])
    expect(r.cols.map((c) => c.name)).to.deep.equal(['price', 'name', 'qty'])
    expect(r.rowCount).to.equal(2)
  })

  const ERRORS: readonly [string, string, string][] = [
    ['an ord past the last column', '<cols><table cols="ord,label">4,X</table></cols>', 'ord 4, but the worksheet has 3 columns'],
    ['an ord given twice', '<cols><table cols="ord,label">1,X;1,Y</table></cols>', 'ord 1 twice'],
    ['an ord that is not a whole number', '<cols><table cols="ord,label">x,X</table></cols>', "ord must be a whole number ≥ 1, not 'x'"],
    ['a table without name or ord', '<cols><table cols="label">X</table></cols>', 'needs a name or an ord column'],
    ['a row with neither', '<cols><table cols="name,ord,label">,,X</table></cols>', 'row 1 of the <cols> table gives neither'],
    ['an unknown metadata column', '<cols><table cols="name,colour">qty,red</table></cols>', "column 'colour'"],
    ['a bad width', '<cols><table cols="name,width">qty,wide</table></cols>', "must be a whole number ≥ 0, not 'wide'"],
    ['no table inside', '<cols/>', 'needs exactly one inline <table> child'],
    ['table2', '<cols table2="t"/>', '<cols table2> is not supported'],
  ]
  for (const [what, xml, part] of ERRORS) {
    it(`refuses ${what} with a check_error`, () => {
      const err = failure(xml)
      expect(err.code).to.equal('CHECK_ERROR')
      expect(err.message).to.include(part)
    })
  }
})
