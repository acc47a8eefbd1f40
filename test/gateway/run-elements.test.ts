/**
 * The macro-language elements of issue 21 item 5 through api/run on a real gateway: block loops,
 * <quote>, and the elements refused with a reason.
 */
import { expect } from 'chai'
import { loggedIn, startTestService, type TestService } from '../helpers/service.js'

describe('api/run: block loops and other elements', function () {
  this.timeout(30_000)
  let svc: TestService
  const run = (xml: string) => session.post('/v1/api/run:json').send({ xml })

  before(async () => {
    svc = await startTestService('memory')
  })
  const session = loggedIn(() => svc)
  after(() => svc.close())

  it('<foreach> and <for> add one column per iteration', async () => {
    const xml = `<table cols="a">1;2</table>
      <foreach c="x,y" tally_="k"><willbe name="{@c}" value="a*{@k}"/></foreach>
      <for i="1" to_="2"><willbe name="p{@i}" value="a+{@i}"/></for>`
    const res = await run(xml)
    expect(res.status, res.text).to.equal(200)
    expect(res.body).to.deep.equal({ a: [1, 2], x: [1, 2], y: [2, 4], p1: [2, 3], p2: [3, 4] })
  })

  it('<quote> pastes a variable holding table rows into an inline table', async () => {
    const res = await run('<let rows="1,2;3,4"><quote t="{@rows}"><table cols="a,b">{@t}</table></quote></let>')
    expect(res.status, res.text).to.equal(200)
    expect(res.body).to.deep.equal({ a: [1, 3], b: [2, 4] })
  })

  it('a <for> that would run too long is a 400 naming the limit', async () => {
    const res = await run('<table cols="a">1</table><for i="1" to_="1e9"><willbe name="c{@i}" value="1"/></for>')
    expect(res.status).to.equal(400)
    expect(res.body.error).to.include('a loop may run at most')
  })

  it('<cols> relabels and moves columns from an inline table', async () => {
    const xml = `<table cols="a,b,c">1,2,3</table><cols><table cols="name,ord,label">c,1,Sea;a,,Ay</table></cols>`
    const res = await session.post('/v1/api/run:json.rows').send({ xml })
    expect(res.status, res.text).to.equal(200)
    expect(res.body.cols).to.deep.equal(['c', 'a', 'b'])
    expect(res.body.rows).to.deep.equal([[3, 1, 2]])
    const cols = await session.post('/v1/api/run/!cols:json')
    expect(cols.body.label).to.deep.equal(['Sea', 'Ay', 'b'])
  })

  it('<link type="expand"> repeats each row once per matching product; a row with no match stays once', async () => {
    const xml = `<table cols="dept">1;99</table>
      <link table2="pub.demo.retail.products" col="dept" col2="dept" cols="sku" type="expand"/>
      <tabu breaks="dept"><break col="dept" sort="up"/><tcol fun="cnt" name="n"/></tabu>`
    const res = await run(xml)
    expect(res.status, res.text).to.equal(200)
    const sql = await session.post('/v1/api/sql:json').send({ sql: 'select count(*) n from pub.demo.retail.products where dept = 1' })
    expect(sql.body.n[0]).to.be.greaterThan(1)
    expect(res.body).to.deep.equal({ dept: [1, 99], n: [sql.body.n[0], 1] })
  })

  it('<link type="side"> and <link shift> other than 0 are 400s that say what is missing', async () => {
    const side = await run('<table cols="dept">1</table><link table2="pub.demo.retail.products" col="dept" type="side"/>')
    expect(side.status).to.equal(400)
    expect(side.body.error).to.include('without saying how rows are paired')
    const shift = await run('<table cols="dept">1</table><link table2="pub.demo.retail.products" col="dept" shift="1"/>')
    expect(shift.status).to.equal(400)
    expect(shift.body.error).to.include('only shift="0"')
  })

  it('<table format="xml"> reads a Table Tree with its declared types and headings', async () => {
    const xml = `<table format="xml"><cols><th name="zip" type="a">Zip code</th><th name="n" type="i">N</th></cols>
      <data><tr><td>01234</td><td>5</td></tr></data></table>`
    const res = await run(xml)
    expect(res.status, res.text).to.equal(200)
    expect(res.body).to.deep.equal({ zip: ['01234'], n: [5] })
    const cols = await session.post('/v1/api/run/!cols:json')
    expect(cols.body.label).to.deep.equal(['Zip code', 'N'])
    expect(cols.body.type).to.deep.equal(['a', 'i'])
  })

  it('<import>, <loop> and <directory> are 400s that say why', async () => {
    const imp = await run('<import path="pub.lib"/><table cols="a">1</table>')
    expect(imp.status).to.equal(400)
    expect(imp.body.error).to.include('library store')
    const loop = await run('<loop with_="x"/>')
    expect(loop.status).to.equal(400)
    expect(loop.body.error).to.include('platform actions')
    const dir = await run('<directory folder="pub.demo"/>')
    expect(dir.status).to.equal(400)
    expect(dir.body.error).to.include('get_names_in_dir')
  })
})
