/**
 * Text building and conversion through api/run on a real gateway: splice, strpick, strextract,
 * width, int of text and todate in <willbe> and <sel>, the t_ functions, and the 400s of what is
 * refused.
 */
import { expect } from 'chai'
import { loggedIn, startTestService, type TestService } from '../helpers/service.js'

describe('api/run: text building and conversion', () => {
  let svc: TestService
  const run = (xml: string) => session.post('/v1/api/run:json').send({ xml })

  before(async () => {
    svc = await startTestService('memory')
  })
  const session = loggedIn(() => svc)
  after(() => svc.close())

  const STORES = '<base table="pub.demo.retail.stores"/>'
  // opened (yyyymmdd) written as MM/DD/YYYY text, the form the Cookbook's recipes start from.
  const AS_TEXT =
    `<willbe name="o" value="splice(opened;'')"/>` + `<willbe name="t" value="splice(strextract(o;5;2) strextract(o;7;2) strextract(o;1;4);'/')"/>`

  it("splice(city state;', ') joins each store's city and state", async () => {
    const res = await run(`${STORES}<willbe name="place" value="splice(city state;', ')"/><colord cols="city,state,place"/>`)
    expect(res.status, res.text).to.equal(200)
    expect(res.body.place.length).to.be.greaterThan(0)
    res.body.place.forEach((p: string, i: number) => expect(p).to.equal(`${res.body.city[i]}, ${res.body.state[i]}`))
  })

  it('reads dates written as text back with the Cookbook recipe (strpick, int) and with todate', async () => {
    const back = "int(splice(strpick(t;'/';3) strpick(t;'/';1) strpick(t;'/';2);''))"
    const res = await run(`${STORES}${AS_TEXT}<willbe name="back" value="${back}"/><willbe name="d" value="todate(t)"/><colord cols="opened,t,back,d"/>`)
    expect(res.status, res.text).to.equal(200)
    expect(res.body.t[0]).to.match(/^\d\d\/\d\d\/\d{4}$/)
    expect(res.body.back).to.deep.equal(res.body.opened)
    expect(res.body.d).to.deep.equal(res.body.opened)
  })

  it('selects with the text functions and todate in <sel>', async () => {
    const all = await run(`${STORES}<colord cols="state,opened"/>`)
    const expected = all.body.opened.filter((d: number, i: number) => all.body.state[i].startsWith('N') && d >= 20100101).length
    expect(expected).to.be.greaterThan(0)
    const res = await run(
      `${STORES}${AS_TEXT}<sel value="strextract(splice(state city;'|');1;1)='N' &amp; todate(t)>=20100101 &amp; width(strpick(t;'/';3))=4"/><colord cols="state"/>`,
    )
    expect(res.status, res.text).to.equal(200)
    expect(res.body.state.length).to.equal(expected)
  })

  it('t_cumsum and t_rank are g_cumsum and g_rank over the whole table, in <willbe> and <sel>', async () => {
    const items = '<base table="pub.demo.retail.item"/><sel value="i_()&lt;=50"/>'
    const res = await run(
      `${items}<willbe name="a" value="t_cumsum(qty)"/><willbe name="b" value="g_cumsum(;;;qty)"/><willbe name="r" value="t_rank(sales)"/><willbe name="s" value="g_rank(;;;sales)"/><colord cols="a,b,r,s"/>`,
    )
    expect(res.status, res.text).to.equal(200)
    expect(res.body.a).to.deep.equal(res.body.b)
    expect(res.body.r).to.deep.equal(res.body.s)
    const top = await run(`${items}<sel value="t_rank(sales)&lt;=3"/><colord cols="sales"/>`)
    expect(top.body.sales).to.have.length(3)
  })

  it("r_mapstring joins each store's text columns, kept by rct_ and transformed by X", async () => {
    const res = await run(`${STORES}<willbe name="m" value="r_mapstring(city state region;rct_='a';strupcase(rcv_);'/')"/><colord cols="city,state,region,m"/>`)
    expect(res.status, res.text).to.equal(200)
    res.body.m.forEach((m: string, i: number) => expect(m).to.equal([res.body.city[i], res.body.state[i], res.body.region[i]].join('/').toUpperCase()))
    const all = await run(`${STORES}<colord cols="store,sqft"/>`)
    const big = all.body.store.filter((_: number, i: number) => all.body.sqft[i] > 20000)
    expect(big.length).to.be.greaterThan(0).and.lessThan(all.body.store.length)
    const sel = await run(`${STORES}<sel value="r_mapstring(sqft store;rcv_>20000;;',')&lt;&gt;''"/><colord cols="store"/>`)
    expect(sel.body.store).to.deep.equal(big)
  })

  it('strfollow gives the first differing position, in <willbe> and <sel>', async () => {
    const res = await run(`${STORES}<willbe name="f" value="strfollow(state;'NY';1)"/><colord cols="state,f"/>`)
    expect(res.status, res.text).to.equal(200)
    res.body.f.forEach((f: number, i: number) => expect(f).to.equal(res.body.state[i] === 'NY' ? 0 : res.body.state[i][0] === 'N' ? 2 : 1))
    const ny = await run(`${STORES}<sel value="strfollow(state;'ny';0)=0"/><colord cols="state"/>`)
    expect(ny.body.state).to.deep.equal(res.body.state.filter((s: string) => s === 'NY'))
  })

  it('splice and strpick work in block-level {…} expressions', async () => {
    const res = await run(`${STORES}<willbe name="y" value="{splice(strpick('01/04/2015';'/';3) '0104';'')}"/><colord cols="y"/>`)
    expect(res.status, res.text).to.equal(200)
    expect(res.body.y[0]).to.equal(20150104)
  })

  const refused: [string, string, RegExp][] = [
    ['r_mappkg', '<willbe name="p" value="r_mappkg(;;)"/>', /packages are not supported/],
    ['expressions side by side outside splice', '<willbe name="p" value="abs(sqft+1 sqft)"/>', /Only constants can stand side by side/],
    ['todate with invaliderr on a value that is no date', `<willbe name="d" value="todate(city;'invaliderr')"/>`, /todate\(\): '.+' is not a date/],
    ['a t_ function with too many arguments', '<willbe name="r" value="t_rank(sqft;1)"/>', /t_rank\(\) takes the arguments t_rank\(X\)/],
  ]
  for (const [what, op, message] of refused) {
    it(`answers ${what} with 400 check_error`, async () => {
      const res = await run(`${STORES}${op}`)
      expect(res.status, res.text).to.equal(400)
      expect(res.body.code).to.equal('check_error')
      expect(res.body.error).to.match(message)
    })
  }
})
