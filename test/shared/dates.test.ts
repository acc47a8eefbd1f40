/**
 * shared/ymd.ts, the one calendar of dates: every reader of dates (uploads, storage, the lexer,
 * quoted dates, todate) takes its rules from here, so these are the rules for all of them.
 */
import { expect } from 'chai'
import { daysInMonth, dashedYmd, isCalendarDate, isYmd, plainYmd, twoDigitYear, ymdOf, ymdParts } from '../../shared/ymd.js'

describe('shared/ymd: the calendar of dates', () => {
  it('takes real days of years 1–9999 only', () => {
    expect(isCalendarDate(2024, 2, 29)).to.equal(true)
    expect(isCalendarDate(2000, 2, 29)).to.equal(true)
    expect(isCalendarDate(1900, 2, 29)).to.equal(false)
    expect(isCalendarDate(2023, 2, 30)).to.equal(false)
    expect(isCalendarDate(2023, 4, 31)).to.equal(false)
    expect(isCalendarDate(2023, 13, 1)).to.equal(false)
    expect(isCalendarDate(2023, 1, 0)).to.equal(false)
    expect(isCalendarDate(0, 1, 1)).to.equal(false)
    expect(isCalendarDate(1, 1, 1)).to.equal(true)
    expect(isCalendarDate(9999, 12, 31)).to.equal(true)
    expect(isCalendarDate(10000, 1, 1)).to.equal(false)
    expect(isCalendarDate(2023, 1, 1.5)).to.equal(false)
    expect(daysInMonth(2023, 2)).to.equal(28)
    expect(daysInMonth(2023, 9)).to.equal(30)
  })

  it('turns y/m/d into yyyymmdd and back', () => {
    expect(ymdOf(2023, 3, 15)).to.equal(20230315)
    expect(ymdOf(50, 1, 1)).to.equal(500101)
    expect(ymdOf(2023, 2, 30)).to.equal(null)
    expect(ymdParts(20230315)).to.deep.equal({ year: 2023, month: 3, day: 15 })
    expect(isYmd(20230315)).to.equal(true)
    expect(isYmd(10101)).to.equal(true)
    expect(isYmd(101)).to.equal(false)
    expect(isYmd(20230230)).to.equal(false)
    expect(isYmd(-20230101)).to.equal(false)
    expect(isYmd(20230101.5)).to.equal(false)
  })

  it('reads YYYY-MM-DD and yyyymmdd exactly', () => {
    expect(dashedYmd('2023-03-15')).to.equal(20230315)
    expect(dashedYmd('0050-01-01')).to.equal(500101)
    expect(dashedYmd('2023-02-30')).to.equal(null)
    expect(dashedYmd('0000-01-01')).to.equal(null)
    expect(dashedYmd('2023-3-15')).to.equal(null)
    expect(dashedYmd('2023/03/15')).to.equal(null)
    expect(plainYmd('20230315')).to.equal(20230315)
    expect(plainYmd('20230230')).to.equal(null)
    expect(plainYmd('2023031')).to.equal(null)
    expect(plainYmd('2023-315')).to.equal(null)
  })

  it('pivots two-digit years at 50', () => {
    expect(twoDigitYear(0)).to.equal(2000)
    expect(twoDigitYear(49)).to.equal(2049)
    expect(twoDigitYear(50)).to.equal(1950)
    expect(twoDigitYear(99)).to.equal(1999)
  })
})
