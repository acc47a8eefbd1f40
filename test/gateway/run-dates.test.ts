/**
 * Dates and times through api/run (issue 21, item 4): quoted dates against computed and inline
 * int dates, yyyy/mm/dd literals, month arithmetic, day numbers, times of day, date+time values
 * and g_tshift, answered as JSON by a real gateway; bad input is a 400 naming what to fix.
 */
import { expect } from 'chai'
import { loggedIn, startTestService, type TestService } from '../helpers/service.js'

describe('api/run: dates and times', () => {
  let svc: TestService
  before(async () => {
    svc = await startTestService('memory')
  })
  const session = loggedIn(() => svc)
  after(() => svc.close())

  const run = (xml: string) => session.post('/v1/api/run:json').send({ xml })

  it("selects an inline table's int dates with quoted dates and yyyy/mm/dd", async () => {
    const xml = `<table cols="day,v">20131231,1;20140115,2;20140601,3;20150101,4</table>
      <sel value="between(day;'1/1/2014';'12/31/2014') &amp; day&lt;&gt;2014/06/01"/>`
    const res = await run(xml)
    expect(res.status, res.text).to.equal(200)
    expect(res.body).to.deep.equal({ day: [20140115], v: [2] })
  })

  it('compares a computed date with a quoted date', async () => {
    const res = await run(`<table cols="day">20140115;20150310</table><willbe name="jan1" value="year(day)*10000+101"/><sel value="jan1='1/1/2015'"/>`)
    expect(res.status, res.text).to.equal(200)
    expect(res.body.day).to.deep.equal([20150310])
  })

  it('does month and year arithmetic, day numbers and month ends', async () => {
    const xml = `<table cols="day">20240131;20240229</table>
      <willbe name="next" value="addmonths(day;1)"/><willbe name="later" value="addyears(day;1)"/>
      <willbe name="dn" value="daynum(day)"/><willbe name="back" value="numdate(dn-1)"/>
      <willbe name="doy" value="dayofyear(day)"/><willbe name="last" value="monthend(day)"/>`
    const res = await run(xml)
    expect(res.status, res.text).to.equal(200)
    expect(res.body.next).to.deep.equal([20240229, 20240329])
    expect(res.body.later).to.deep.equal([20250131, 20250228])
    expect(res.body.dn).to.deep.equal([-3988, -3959])
    expect(res.body.back).to.deep.equal([20240130, 20240228])
    expect(res.body.doy).to.deep.equal([31, 60])
    expect(res.body.last).to.deep.equal([20240131, 20240229])
  })

  it('takes times apart and builds date+time values', async () => {
    const xml = `<table cols="day,t">20350101,90507;20350102,180000</table>
      <willbe name="h" value="hour(t)"/><willbe name="m" value="minute(t)"/><willbe name="s" value="second(t)"/>
      <willbe name="dt" value="datetime(day;t)"/><willbe name="d2" value="dtdate(dt+0.25)"/><willbe name="t2" value="dttime(dt+0.25)"/>`
    const res = await run(xml)
    expect(res.status, res.text).to.equal(200)
    expect(res.body.h).to.deep.equal([9, 18])
    expect(res.body.m).to.deep.equal([5, 0])
    expect(res.body.s).to.deep.equal([7, 0])
    expect(res.body.dt[1]).to.equal(1.75)
    expect(res.body.d2).to.deep.equal([20350101, 20350103])
    expect(res.body.t2).to.deep.equal([150507, 0])
  })

  it('shifts by calendar periods with g_tshift, N/A across a gap', async () => {
    const xml = `<table cols="store,ym,sales">a,202401,10;a,202402,20;a,202404,40;b,202312,5;b,202401,6</table>
      <willbe name="prev" value="g_tshift(store;;ym;'M';sales;-1)"/>`
    const res = await run(xml)
    expect(res.status, res.text).to.equal(200)
    expect(res.body.prev).to.deep.equal([null, 10, null, null, 5])
  })

  for (const [what, xml, message] of [
    ['an impossible yyyy/mm/dd', '<table cols="day">20240101</table><sel value="day=2024/02/30"/>', /Invalid date '2024\/02\/30'.*day 30/],
    ['an unknown kind of time', '<table cols="ym,v">202401,1</table><willbe name="p" value="g_tshift(;;ym;\'W\';v;1)"/>', /TS 'W' is not a kind of time/],
    ['a date given to hour()', '<table cols="day">20240101</table><willbe name="h" value="hour(monthend(day))"/>', /hour needs a time/],
  ] as const) {
    it(`answers ${what} with a 400 naming it`, async () => {
      const res = await run(xml)
      expect(res.status, res.text).to.be.within(400, 499)
      expect(res.body.error).to.match(message)
    })
  }
})
