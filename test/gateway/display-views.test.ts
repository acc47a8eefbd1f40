import { expect } from 'chai'
import { loggedIn, startTestService, type TestService } from '../helpers/service.js'

/**
 * Display formats through a real gateway: the :text and :html views show values through their
 * column formats, JSON stays raw, and `values_=formatted` gives JSON the views' text.
 */
const FORMATTED = `<table cols="d,t,amt,ratio,name">20031115,224556,-1234.5,0.1234,Tabulate;,,,,</table>
<col name="d" format="type:date4y"/>
<col name="t" format="type:hms12"/>
<col name="amt" format="type:currency"/>
<col name="ratio" format="type:pct;dec:1"/>
<col name="name" format="type:char;width:5"/>`

describe('display formats in the views (through a gateway)', () => {
  let svc: TestService
  const post = (path: string, body: object) => session.post(path).send(body)
  const get = (path: string) => session.get(path)

  before(async () => {
    svc = await startTestService('memory')
  })
  const session = loggedIn(() => svc)
  after(async () => {
    await svc.close()
  })

  it('shows :text through the column formats: date4y, hms12, currency, pct and a cut at width:5', async () => {
    const res = await post('/v1/api/run:text', { xml: FORMATTED })
    expect(res.status, res.text).to.equal(200)
    expect(res.text).to.equal(
      '         d          t         amt  ratio  name\n' +
        '----------  ---------  ----------  -----  -----\n' +
        '11/15/2003  10:45:56p  -$1,234.50  12.3%  Tab >\n' +
        '\n',
    )
  })

  it('shows :html through the same formats, escaped', async () => {
    const res = await post('/v1/api/run', { xml: FORMATTED })
    expect(res.status, res.text).to.equal(200)
    expect(res.text).to.include(
      '<tr><td class="n">11/15/2003</td><td class="n">10:45:56p</td><td class="n">-$1,234.50</td><td class="n">12.3%</td><td>Tab &gt;</td></tr>',
    )
    expect(res.text).to.include('<tr><td class="n"></td><td class="n"></td><td class="n"></td><td class="n"></td><td></td></tr>')
  })

  it('keeps JSON raw by default', async () => {
    const res = await post('/v1/api/run:json', { xml: FORMATTED })
    expect(res.status, res.text).to.equal(200)
    expect(res.body).to.deep.equal({ d: [20031115, null], t: [224556, null], amt: [-1234.5, null], ratio: [0.1234, null], name: ['Tabulate', ''] })
  })

  it('gives JSON the views’ text with values_=formatted, in every JSON shape', async () => {
    const res = await post('/v1/api/run:json', { xml: FORMATTED, values_: 'formatted' })
    expect(res.status, res.text).to.equal(200)
    expect(res.body).to.deep.equal({ d: ['11/15/2003', ''], t: ['10:45:56p', ''], amt: ['-$1,234.50', ''], ratio: ['12.3%', ''], name: ['Tab >', ''] })
    const rows = await post('/v1/api/run:json.rows?values_=formatted', { xml: FORMATTED })
    expect(rows.body.rows[0]).to.deep.equal(['11/15/2003', '10:45:56p', '-$1,234.50', '12.3%', 'Tab >'])
    const keyed = await post('/v1/api/run:json.keyed', { xml: FORMATTED, values_: 'raw' })
    expect(keyed.body[0]).to.deep.equal({ d: 20031115, t: 224556, amt: -1234.5, ratio: 0.1234, name: 'Tabulate' })
  })

  it('gives !data and !head formatted values on request, raw otherwise', async () => {
    expect((await post('/v1/api/run:json', { xml: FORMATTED })).status).to.equal(200)
    const data = await get('/v1/api/run/!data:json.rows?range_=0&to_=1&values_=formatted')
    expect(data.status, data.text).to.equal(200)
    expect(data.body.rows).to.deep.equal([['11/15/2003', '10:45:56p', '-$1,234.50', '12.3%', 'Tab >']])
    const raw = await get('/v1/api/run/!data:json.rows?range_=0&to_=1')
    expect(raw.body.rows).to.deep.equal([[20031115, 224556, -1234.5, 0.1234, 'Tabulate']])
    const head = await get('/v1/api/run/!head:json?values_=formatted')
    expect(head.body.data.amt).to.deep.equal(['-$1,234.50', ''])
  })

  it('refuses an unknown values_ with a 400 naming the parameter and its choices', async () => {
    const res = await post('/v1/api/run:json', { xml: FORMATTED, values_: 'pretty' })
    expect(res.status).to.equal(400)
    expect(res.body.error).to.include('values_').and.include('formatted')
    const data = await get('/v1/api/run/!data:json?values_=pretty')
    expect(data.status).to.equal(400)
  })

  it('shows the demo table’s type:date column as mm/dd/yy in :text and formatted JSON of a stored table', async () => {
    const text = await get('/v1/api/pub.demo.retail.stores:text?range_=0&to_=1')
    expect(text.status, text.text).to.equal(200)
    const json = await get('/v1/api/pub.demo.retail.stores:json?range_=0&to_=1')
    const formatted = await get('/v1/api/pub.demo.retail.stores:json?range_=0&to_=1&values_=formatted')
    const opened: number = json.body.opened[0]
    const mmddyy = `${String(opened).slice(4, 6)}/${String(opened).slice(6, 8)}/${String(opened).slice(2, 4)}`
    expect(formatted.body.opened).to.deep.equal([mmddyy])
    expect(text.text).to.include(mmddyy)
  })

  it('keeps a stated width cutting and a default one not, once the result is saved as a table', async () => {
    const long = 'a value longer than sixteen characters'
    const xml = `<table cols="s,t">${long},${long}</table><col name="t" format="type:char;width:5"/>`
    const saved = await post('/v1/api/run:json', { xml, savetable: 'uploads.admin.display_kept', replace: '1' })
    expect(saved.status, saved.text).to.equal(200)
    const text = await get('/v1/api/uploads.admin.display_kept:text')
    expect(text.status, text.text).to.equal(200)
    expect(text.text.split('\n')[2]).to.equal(`${long}  a v >`)
  })

  it('does not cut a value at a width the column only has by default', async () => {
    const long = 'a value longer than sixteen characters'
    const res = await post('/v1/api/run:text', { xml: `<table cols="s">${long}</table>` })
    expect(res.status, res.text).to.equal(200)
    expect(res.text).to.include(long)
  })
})
