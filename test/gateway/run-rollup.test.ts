/**
 * `<tabu>` with `<rollup>` through api/run on a real gateway: subtotal rows with placeholders
 * from an inline table, a cube over the demo table agreeing with plain tabulations of each level,
 * and a refused rollup answered 400 check_error.
 */
import { expect } from 'chai'
import { loggedIn, startTestService, type TestService } from '../helpers/service.js'

const SALES = `<table cols="store,dept,amount">east,1,10;west,2,20;east,2,30;west,2,40;east,1,50</table>`

describe('api/run with <rollup>', () => {
  let svc: TestService
  const run = (xml: string) => session.post('/v1/api/run:json').send({ xml })
  before(async () => {
    svc = await startTestService('memory')
  })
  const session = loggedIn(() => svc)
  after(() => svc.close())

  it('answers subtotal rows with the placeholders in place of the rolled-up breaks', async () => {
    const res = await run(
      `${SALES}<tabu breaks="store,dept"><break col="store" sort="up" placeholder="'ALL'"/><break col="dept" sort="up"/><rollup ind="lvl"/><tcol source="amount" fun="sum" name="s"/><tcol source="amount" fun="avg" name="a"/></tabu>`,
    )
    expect(res.status, res.text).to.equal(200)
    expect(res.body).to.deep.equal({
      store: ['ALL', 'east', 'east', 'east', 'west', 'west'],
      dept: [null, null, 1, 2, null, 2],
      s: [150, 90, 60, 30, 60, 60],
      a: [30, 30, 30, 30, 30, 30],
      lvl: [3, 1, 0, 0, 1, 0],
    })
  })

  it('answers a cube over the demo table whose levels agree with plain tabulations', async () => {
    const base = '<base table="pub.demo.retail.item"/>'
    const tcols = '<tcol source="sales" fun="sum" name="s"/><tcol source="sku" fun="ucnt" name="u"/><tcol fun="cnt" name="n"/>'
    const cube = await run(
      `${base}<tabu breaks="store,payment"><break col="store" sort="up"/><break col="payment" sort="up"/><rollup type="cube" ind="lvl"/>${tcols}</tabu>`,
    )
    expect(cube.status, cube.text).to.equal(200)
    const byStore = await run(`${base}<tabu breaks="store"><break col="store" sort="up"/>${tcols}</tabu>`)
    const whole = await run(`${base}<tabu breaks="">${tcols}</tabu>`)
    const rowsAt = (bits: number) => cube.body.lvl.flatMap((l: number, i: number) => (l === bits ? [i] : []))
    const total = rowsAt(3)
    expect(total).to.deep.equal([0])
    expect(cube.body.n[0]).to.equal(whole.body.n[0])
    expect(cube.body.u[0]).to.equal(whole.body.u[0])
    expect(cube.body.s[0]).to.be.closeTo(whole.body.s[0], 1e-6)
    const stores = rowsAt(1)
    expect(stores.map((i: number) => cube.body.store[i])).to.deep.equal(byStore.body.store)
    expect(stores.map((i: number) => cube.body.u[i])).to.deep.equal(byStore.body.u)
    stores.forEach((i: number, k: number) => expect(cube.body.s[i]).to.be.closeTo(byStore.body.s[k], 1e-6))
  })

  it('answers a rollup it cannot do with 400 check_error naming what to change', async () => {
    const res = await run(`${SALES}<tabu breaks="store" cbreaks="dept"><rollup/><tcol source="amount" fun="sum"/></tabu>`)
    expect(res.status, res.text).to.equal(400)
    expect(res.body.code).to.equal('check_error')
    expect(res.body.error).to.match(/<rollup> in a cross-tabulation \(cbreaks\) is not supported/)
  })
})
