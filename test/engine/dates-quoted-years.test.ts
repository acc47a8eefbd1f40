/**
 * Quoted dates follow the same calendar as every other reader of dates (shared/ymd.ts): years
 * 1–9999. They used to check the day through Date.UTC, which reads years 0–99 as 1900–1999, so
 * '0050-01-01' was refused as "not a valid date" while an upload, the lexer (50/1/1 as 0050/1/1)
 * and todate all took it.
 */
import { expect } from 'chai'
import { parseDateText } from '../../engine/check/date-literals.js'
import { columnsOf, makeTable, runXml } from '../helpers/engine.js'

const T = makeTable('t.old', [{ name: 'd', type: 'date', values: [500101, 19991231, 20240229] }])

describe('quoted dates in years 1–99', () => {
  it('reads them as dates, as uploads and the lexer do', () => {
    expect(parseDateText('0050-01-01')).to.equal(500101)
    expect(parseDateText('00500101')).to.equal(500101)
    expect(parseDateText('0050/1/1')).to.equal(500101)
    expect(parseDateText('1/1/0050')).to.equal(500101)
    const r = runXml(`<base table="t.old"/><sel value="d='0050-01-01'"/>`, [T])
    expect(columnsOf(r).d).to.deep.equal([500101])
  })

  it('still refuses year 0 and impossible days', () => {
    expect(parseDateText('0000-01-01')).to.equal(null)
    expect(parseDateText('2023-02-30')).to.equal(null)
    expect(parseDateText('2/29/1900')).to.equal(null)
    expect(parseDateText('2/29/00')).to.equal(20000229)
    expect(() => runXml(`<base table="t.old"/><sel value="d='0000-01-01'"/>`, [T])).to.throw(/not a valid date/)
  })
})
