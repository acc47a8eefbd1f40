/**
 * Quoted dates against any whole-number date, and year-first dates written with slashes
 * (issue 21, item 4). Dates are yyyymmdd ints whatever their column type, so '1/1/2014' beside a
 * computed date (year(d)*10000+101) or an int column of an inline table is the date 20140101, as
 * it already was beside a column stored as a date; `2014/01/15` is a date literal, not 2014÷1÷15.
 */
import { expect } from 'chai'
import { columnsOf, makeTable, runXml } from '../helpers/engine.js'

const T = makeTable('t.d', [
  { name: 'd', type: 'date', values: [20131231, 20140101, 20140615, 20150101, null] },
  { name: 'n', type: 'int', values: [20131231, 20140101, 20140615, 20150101, null] },
])

const kept = (sel: string): unknown[] => columnsOf(runXml(`<base table="t.d"/><sel value="${sel}"/>`, [T])).n

describe('quoted dates beside whole numbers', () => {
  it('compares an int column with a quoted date', () => {
    expect(kept("n>='1/1/2014'")).to.deep.equal([20140101, 20140615, 20150101])
    expect(kept("n='6/15/2014'")).to.deep.equal([20140615])
    expect(kept("'1/1/2014'<n")).to.deep.equal([20140615, 20150101])
  })

  it('takes a quoted date in between() for an int column, both bounds included', () => {
    expect(kept("between(n;'1/1/2014';'12/31/2014')")).to.deep.equal([20140101, 20140615])
  })

  it('compares a computed date with a quoted date', () => {
    const r = runXml(`<base table="t.d"/><willbe name="jan1" value="year(d)*10000+101"/><sel value="jan1='1/1/2014'"/>`, [T])
    expect(columnsOf(r).n).to.deep.equal([20140101, 20140615])
  })

  it('compares an int column of an inline table with a quoted date', () => {
    const r = runXml(`<table cols="day,x">20140101,1;20140301,2;20140401,3</table><sel value="day<'2014-03-15'"/>`)
    expect(columnsOf(r).x).to.deep.equal([1, 2])
  })

  it('reads a list of quoted dates against an int column', () => {
    expect(kept("n='1/1/2014' '1/1/2015'")).to.deep.equal([20140101, 20150101])
    expect(kept("n<>'1/1/2014' '1/1/2015'")).to.deep.equal([20131231, 20140615, null])
  })

  it('reads quoted yyyy/mm/dd dates too', () => {
    expect(kept("d>'2014/06/01'")).to.deep.equal([20140615, 20150101])
    expect(kept("n>'2014/6/1'")).to.deep.equal([20140615, 20150101])
  })

  it('still refuses text that is no date beside a number', () => {
    expect(() => kept("n>'soon'")).to.throw(/cannot compare/)
    expect(() => kept("n='1/1/2014' 'soon'")).to.throw(/cannot compare|mix/)
  })

  it('leaves quoted dates as text where nothing compares them with a number', () => {
    const r = runXml(`<base table="t.d"/><willbe name="s" value="if(n>20140101;'1/1/2014';'early')"/>`, [T])
    expect(columnsOf(r).s).to.deep.equal(['early', 'early', '1/1/2014', '1/1/2014', 'early'])
  })
})

describe('yyyy/mm/dd written in an expression', () => {
  it('is the date yyyymmdd, not a division', () => {
    expect(kept('d>=2014/01/01')).to.deep.equal([20140101, 20140615, 20150101])
    expect(kept('n=2014/6/15')).to.deep.equal([20140615])
    const r = runXml('<table cols="x">1</table><willbe name="v" value="2014/01/15"/>')
    expect(columnsOf(r).v).to.deep.equal([20140115])
  })

  it('still divides when spaced or when it is no year-first date', () => {
    const r = runXml('<table cols="x">1</table><willbe name="a" value="2014 / 4 / 2"/><willbe name="b" value="100/5/20"/>')
    expect(columnsOf(r).a).to.deep.equal([251.75])
    expect(columnsOf(r).b).to.deep.equal([1])
  })

  it('refuses an impossible year-first date, saying how to divide', () => {
    expect(() => kept('n=2014/02/30')).to.throw(/Invalid date '2014\/02\/30'.*day 30.*spaces/)
    expect(() => kept('n=2014/13/01')).to.throw(/month 13/)
    expect(() => kept('n=2014/1/123')).to.throw(/Malformed date '2014\/1\/123'/)
  })
})

describe('a quoted date that is no date', () => {
  it('is an error naming it, beside a date or an int', () => {
    expect(() => kept("d='2/30/2014'")).to.throw(/'2\/30\/2014' is not a valid date/)
    expect(() => kept("between(n;'1/1/2014';'2014-13-01')")).to.throw(/'2014-13-01' is not a valid date/)
  })
})
