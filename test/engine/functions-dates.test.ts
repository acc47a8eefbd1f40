/**
 * Month and year arithmetic, day numbers, day of year and month ends, times of day and date+time
 * values (issue 21, item 4), through whole queries: every function on a date column, on a plain
 * int date (computed or inline) and on constants, with N/A passing through.
 */
import { expect } from 'chai'
import { Rng, randomDateColumn, randomIntColumn } from '../../engine/columns/random.js'
import { columnsOf, makeTable, runXml, tableOfColumns } from '../helpers/engine.js'

const T = makeTable('t.dt', [
  { name: 'd', type: 'date', values: [20240131, 20240229, 20230115, 20241231, null] },
  { name: 'n', type: 'int', values: [1, -1, 13, 12, 1] },
  { name: 't', type: 'int', values: [90507, 235959, 0, 120000, null] },
])

const col = (expr: string, table = T): unknown[] => columnsOf(runXml(`<base table="${table.path}"/><willbe name="x" value="${expr}"/>`, [table])).x
const one = (expr: string): unknown => columnsOf(runXml(`<table cols="a">1</table><willbe name="x" value="${expr}"/>`)).x[0]

describe('date arithmetic by months and years', () => {
  it('adds months, keeping the day or clamping it to the end of a shorter month', () => {
    expect(col('addmonths(d;n)')).to.deep.equal([20240229, 20240129, 20240215, 20251231, null])
    expect(one('addmonths(20240131;1)')).to.equal(20240229)
    expect(one('addmonths(20230131;1)')).to.equal(20230228)
    expect(one('addmonths(20240331;-1)')).to.equal(20240229)
    expect(one('addmonths(20241130;-23)')).to.equal(20221230)
    expect(one('addmonths(20240115;0)')).to.equal(20240115)
  })

  it('adds years, February 29 becoming February 28 where there is none', () => {
    expect(one('addyears(20240229;1)')).to.equal(20250228)
    expect(one('addyears(20240229;4)')).to.equal(20280229)
    expect(one('addyears(20240229;-100)')).to.equal(19240229)
    expect(one('addyears(20000229;100)')).to.equal(21000228)
    expect(col('addyears(d;n)')).to.deep.equal([20250131, 20230228, 20360115, 20361231, null])
  })

  it('works on a computed int date and on an inline table, and types the result as a date', () => {
    const r = runXml('<table cols="day">20240131;20240430</table><willbe name="x" value="addmonths(day+0;1)"/>')
    expect(columnsOf(r).x).to.deep.equal([20240229, 20240530])
    expect(r.cols.find((c) => c.name === 'x')?.type).to.equal('i')
  })

  it('gives N/A past the int range and refuses a decimal count', () => {
    expect(one('addyears(20240101;300000)')).to.equal(null)
    expect(() => one('addmonths(20240101;1.5)')).to.throw(/addmonths.*int/)
    expect(() => one("addmonths('x';1)")).to.throw(/addmonths/)
  })
})

describe('day numbers, day of year and month ends', () => {
  it('counts days from 1/1/2035 and back', () => {
    expect(one('daynum(20350101)')).to.equal(0)
    expect(one('daynum(20350102)')).to.equal(1)
    expect(one('daynum(20341231)')).to.equal(-1)
    expect(one('daynum(20000101)')).to.equal(-12784)
    expect(one('numdate(-12784)')).to.equal(20000101)
    expect(one('numdate(daynum(20240301)-1)')).to.equal(20240229)
    expect(col('numdate(daynum(d)+n)')).to.deep.equal([20240201, 20240228, 20230128, 20250112, null])
  })

  it('numbers days of the year and finds the last day of the month', () => {
    expect(col('dayofyear(d)')).to.deep.equal([31, 60, 15, 366, null])
    expect(col('monthend(d)')).to.deep.equal([20240131, 20240229, 20230131, 20241231, null])
    expect(one('monthend(20230210)')).to.equal(20230228)
    expect(one('dayofyear(20231231)')).to.equal(365)
  })
})

describe('times of day and date+time values', () => {
  it('takes hours, minutes and seconds of hhmmss times, time literals included', () => {
    expect(col('hour(t)')).to.deep.equal([9, 23, 0, 12, null])
    expect(col('minute(t)')).to.deep.equal([5, 59, 0, 0, null])
    expect(col('second(t)')).to.deep.equal([7, 59, 0, 0, null])
    expect(one('minute(13:45)')).to.equal(45)
  })

  it('assembles a date+time as day number plus fraction of the day, and takes it apart', () => {
    expect(one('datetime(20350101;120000)')).to.equal(0.5)
    expect(one('datetime(20350102;060000)')).to.equal(1.25)
    const x = col('datetime(d;t)')
    expect(x[4]).to.equal(null)
    expect(col('dtdate(datetime(d;t))')).to.deep.equal([20240131, 20240229, 20230115, 20241231, null])
    expect(col('dttime(datetime(d;t))')).to.deep.equal([90507, 235959, 0, 120000, null])
    expect(col('hour(datetime(d;t))')).to.deep.equal([9, 23, 0, 12, null])
    expect(col('second(datetime(d;t))')).to.deep.equal([7, 59, 0, 0, null])
  })

  it('keeps a date+time whole across float noise and a day boundary', () => {
    // One second before midnight plus one second is the next day at 00:00:00.
    expect(one('dtdate(datetime(20241231;235959)+1/86400)')).to.equal(20250101)
    expect(one('dttime(datetime(20241231;235959)+1/86400)')).to.equal(0)
    expect(one('dttime(datetime(20240101;120000)+0.1-0.1)')).to.equal(120000)
  })

  it('refuses a date where a time belongs and text anywhere', () => {
    expect(() => col('hour(d)')).to.throw(/hour needs a time/)
    expect(() => col('dtdate(d)')).to.throw(/dtdate needs a date\+time/)
    expect(() => one("datetime(20240101;'12:00')")).to.throw(/datetime/)
  })
})

describe('date arithmetic against a JavaScript Date reference', () => {
  const ymd = (t: Date): number => t.getUTCFullYear() * 10000 + (t.getUTCMonth() + 1) * 100 + t.getUTCDate()
  const utc = (v: number): Date => new Date(Date.UTC(Math.floor(v / 10000), (Math.floor(v / 100) % 100) - 1, v % 100))
  /** The reference rule: same day in the target month, or that month's last day. */
  const addMonths = (v: number, k: number): number => {
    const d = utc(v)
    const first = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + k, 1))
    const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate()
    return ymd(new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d.getUTCDate(), last))))
  }

  it('agrees on thousands of random dates, month counts and N/A, row by row and through a value table', () => {
    const rng = new Rng(2114)
    const n = 3000
    const t = tableOfColumns('t.r', { d: randomDateColumn(rng, n, 1890, 2110, { na: 0.1 }), k: randomIntColumn(rng, n, -40, 40, { na: 0.1 }) })
    const r = columnsOf(
      runXml(
        '<base table="t.r"/><willbe name="m" value="addmonths(d;k)"/><willbe name="c" value="addmonths(d;-13)"/><willbe name="y" value="addyears(d;k)"/><willbe name="doy" value="dayofyear(d)"/><willbe name="me" value="monthend(d)"/><willbe name="back" value="numdate(daynum(d))"/>',
        [t],
      ),
    )
    const d = r.d as (number | null)[]
    const k = r.k as (number | null)[]
    expect(r.m).to.deep.equal(d.map((v, i) => (v === null || k[i] === null ? null : addMonths(v, k[i]!))))
    expect(r.c).to.deep.equal(d.map((v) => (v === null ? null : addMonths(v, -13))))
    expect(r.y).to.deep.equal(d.map((v, i) => (v === null || k[i] === null ? null : addMonths(v, 12 * k[i]!))))
    expect(r.doy).to.deep.equal(d.map((v) => (v === null ? null : Math.round((utc(v).getTime() - Date.UTC(Math.floor(v / 10000), 0, 1)) / 86400000) + 1)))
    expect(r.me).to.deep.equal(d.map((v) => (v === null ? null : ymd(new Date(Date.UTC(Math.floor(v / 10000), Math.floor(v / 100) % 100, 0))))))
    expect(r.back).to.deep.equal(d)
  })
})

// The example values of docs.1010data.com, Reference Manual, "Dates and time": the date 11/5/2017
// is 20171105, the month 11/2017 is 201711, the quarter 4Q2017 is 20174, the time 12:46:18 is 124618.
describe("the forms of the Reference Manual's 'Dates and time' page", () => {
  it('reads 11/5/2017 written as a literal, quoted, or year first with slashes, as 20171105', () => {
    const r = columnsOf(
      runXml(
        `<table cols="n">20171105;20171106</table><willbe name="a" value="n=11/5/2017"/><willbe name="b" value="n='11/5/2017'"/><willbe name="c" value="n=2017/11/05"/>`,
      ),
    )
    expect(r.a).to.deep.equal([1, 0])
    expect(r.b).to.deep.equal([1, 0])
    expect(r.c).to.deep.equal([1, 0])
  })

  it('takes 12:46:18 (124618) apart into 12, 46 and 18', () => {
    expect([one('hour(12:46:18)'), one('minute(12:46:18)'), one('second(12:46:18)')]).to.deep.equal([12, 46, 18])
    expect([one('hour(124618)'), one('minute(124618)'), one('second(124618)')]).to.deep.equal([12, 46, 18])
  })

  it('shifts the month 201711 and the quarter 20174 by one period into the next year', () => {
    const r = columnsOf(
      runXml(
        `<table cols="m,q,v">201711,20174,1;201712,20181,2;201801,20182,3</table><willbe name="pm" value="g_tshift(;;m;'M';v;-1)"/><willbe name="pq" value="g_tshift(;;q;'Q';v;-1)"/>`,
      ),
    )
    expect(r.pm).to.deep.equal([null, 1, 2])
    expect(r.pq).to.deep.equal([null, 1, 2])
  })
})
