import { expect } from 'chai'
import { loggedIn } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'

const ITEMS10 = '<base table="pub.demo.retail.item"/><sel value="i_()&lt;=10"/><colord cols="trans,store"/>'

forEachStore('instances', (svc) => {
  const session = loggedIn(svc)
  const { post } = session

  it('gives increasing, distinct integer tags to new instances of every kind', async () => {
    const tags = []
    for (const path of ['/v1/api/new/sql:json', '/v1/api/new/run:json']) tags.push((await post(path, {})).body.tag)
    tags.push((await post('/v1/api/new:json', { xml: ITEMS10 })).body.tag)
    tags.forEach((t) => expect(t).to.be.a('number'))
    expect(new Set(tags).size).to.equal(3)
    expect(tags[1]).to.be.greaterThan(tags[0])
  })

  it('answers an unknown app with 404 naming the known apps', async () => {
    const res = await post('/v1/api/new/frob:json', {})
    expect(res.status).to.equal(404)
    expect(res.body.error).to.contain('sql').and.to.contain('run')
  })

  it('shows a link to the new instance in HTML, and a form for api/new without xml', async () => {
    const res = await post('/v1/api/new/sql', {})
    expect(res.type).to.equal('text/html')
    expect(res.text).to.match(/href="\/v1\/api\/\d+"/)
    const form = await session.get('/v1/api/new')
    expect(form.text).to.contain('<textarea').and.to.contain('Submit')
  })

  describe('an sql instance', () => {
    let tag: number
    before(async () => {
      tag = (await post('/v1/api/new/sql:json', {})).body.tag
    })
    it('runs sql and keeps the result for !cols, !rows and !data?range=&to=', async () => {
      const res = await post(`/v1/api/${tag}:json`, { sql: 'select trans from pub.demo.retail.item order by trans limit 5' })
      expect(res.status, res.text).to.equal(200)
      expect(res.body.trans).to.have.length(5)
      expect((await post(`/v1/api/${tag}/!rows:json`)).body).to.equal(5)
      expect((await post(`/v1/api/${tag}/!cols:json`)).body.name).to.deep.equal(['trans'])
      expect((await post(`/v1/api/${tag}/!data:json?range=1&to=3`)).body.trans).to.deep.equal(res.body.trans.slice(1, 3))
      expect((await post(`/v1/api/${tag}/:json`, { sql: 'select 1 as one' })).body).to.deep.equal({ one: [1] })
      expect((await post(`/v1/api/${tag}/!cols:json`)).body.name).to.deep.equal(['one'])
    })
    it("keeps its result apart from the session's api/sql", async () => {
      await post('/v1/api/sql:json', { sql: 'select 2 as two' })
      expect((await post(`/v1/api/${tag}/!data:json`)).body).to.deep.equal({ one: [1] })
    })
  })

  describe('a run instance', () => {
    it('runs xml and reads rows with range_ and to_', async () => {
      const tag = (await post('/v1/api/new/run:json', {})).body.tag
      const res = await post(`/v1/api/${tag}:json`, { xml: ITEMS10 })
      expect(res.body.trans).to.have.length(10)
      expect((await post(`/v1/api/${tag}/!data:json.rows?range_=2&to_=4`)).body.rows).to.deep.equal([
        [res.body.trans[2], res.body.store[2]],
        [res.body.trans[3], res.body.store[3]],
      ])
      expect((await post(`/v1/api/${tag}/!head:json`)).body.rows).to.equal(10)
    })
    it('answers !data before any query with 404 no_result', async () => {
      const tag = (await post('/v1/api/new/run:json', {})).body.tag
      const res = await post(`/v1/api/${tag}/!data:json`)
      expect(res.status).to.equal(404)
      expect(res.body.code).to.equal('no_result')
    })
  })

  describe('an instance of a fixed query', () => {
    it('answers its result at api/{tag} and its index widget methods in every path shape', async () => {
      const tag = (await post('/v1/api/new:json', { xml: ITEMS10 })).body.tag
      const full = await post(`/v1/api/${tag}:json`)
      expect(full.body.trans).to.have.length(10)
      expect((await post(`/v1/api/${tag}/:json`)).body).to.deep.equal(full.body)
      expect((await session.get(`/v1/api/${tag}/!cols:json`)).body.name).to.deep.equal(['trans', 'store'])
      expect((await post(`/v1/api/${tag}/@index/rows:json`)).body).to.equal(10)
      expect((await post(`/v1/api/${tag}/!data:json.keyed?range_=0&to_=2`)).body).to.have.length(2)
      expect((await post(`/v1/api/${tag}/!data:text?to_=1`)).text.split('\n')[0]).to.match(/trans\s+store/)
    })
    it('refuses a broken query at creation with its error', async () => {
      const res = await post('/v1/api/new:json', { xml: '<base table="pub.demo.retail.item"/><sel value="nope=1"/>' })
      expect(res.status).to.equal(400)
      expect(res.body.code).to.equal('check_error')
    })
  })

  it("answers another session's tag exactly like a missing one", async () => {
    const tag = (await post('/v1/api/new:json', { xml: ITEMS10 })).body.tag
    await svc().http.post('/v1/api/!login:json').send({ uid: 'admin', pw: 'admin-secret-1', kill: 'yes' })
    const other = await svc().login()
    const theirs = await post(`/v1/api/${tag}:json`, undefined, other)
    const missing = await post('/v1/api/999999999:json', undefined, other)
    expect(theirs.status).to.equal(404)
    expect(theirs.body.error.replace(String(tag), 'N')).to.equal(missing.body.error.replace('999999999', 'N'))
    session.cookie = other
  })

  it("drops a session's instances when it logs out", async () => {
    const tag = (await post('/v1/api/new:json', { xml: ITEMS10 })).body.tag
    await post('/v1/api/!logout:json')
    session.cookie = await svc().login()
    expect((await post(`/v1/api/${tag}:json`)).status).to.equal(404)
    expect(await svc().deps.store.get(`inst:${tag}`)).to.equal(null)
  })
})

forEachStore(
  'instance limit',
  (svc) => {
    it('answers 429 beyond MAX_INSTANCES_PER_SESSION', async () => {
      const cookie = await svc().login()
      for (let i = 0; i < 3; i++) expect((await svc().http.post('/v1/api/new/sql:json').set('Cookie', cookie).send({})).status).to.equal(200)
      const res = await svc().http.post('/v1/api/new/sql:json').set('Cookie', cookie).send({})
      expect(res.status).to.equal(429)
      expect(res.body.error).to.contain('MAX_INSTANCES_PER_SESSION')
    })
  },
  { MAX_INSTANCES_PER_SESSION: '3' },
)

const DYNAMIC = `<macro>
  <dynamic x="1" y="0" region="South">
    <do on_="init"><set y="100"/></do>
    <do on_="change(x)"><set y="@x*10"/></do>
    <widget name="index" class_="grid">
      <base table="pub.demo.retail.stores"/>
      <willbe name="x" value="{@x}"/>
      <willbe name="y" value="{@y}"/>
      <sel value="region='{@region}'"/>
      <colord cols="store,region,x,y"/>
    </widget>
    <widget name="title" class_="text" text_="Region {@region}"/>
  </dynamic>
</macro>`

const NO_INDEX = `<dynamic state="NY" n="1">
  <do on_="change(state)"><set n="@n+1"/></do>
  <widget name="grid1"><table cols="s">{@state}</table></widget>
</dynamic>`

forEachStore('dynamic instances', (svc) => {
  const session = loggedIn(svc)
  const { post } = session
  let tag: number
  before(async () => {
    const res = await post('/v1/api/new:json', { xml: DYNAMIC })
    expect(res.status, res.text).to.equal(200)
    tag = res.body.tag
  })

  it('runs init once at creation and answers the index widget', async () => {
    const res = await post(`/v1/api/${tag}:json`)
    expect(res.status, res.text).to.equal(200)
    expect(res.body.y[0]).to.equal(100)
    expect(res.body.x[0]).to.equal(1)
    expect(new Set(res.body.region)).to.deep.equal(new Set(['South']))
    const again = await post(`/v1/api/${tag}:json`)
    expect(again.body.y[0], 'init does not run again').to.equal(100)
  })

  it('adds instid_ with the tag to a query that ends with its dynamic element', async () => {
    const record = JSON.parse((await svc().deps.store.get(`inst:${tag}`))!)
    expect(record.kind).to.equal('dynamic')
    expect(record.xml).to.contain(`instid_="${tag}"`)
  })

  it('sets x from the query string, fires change(x) which sets y, and shows the new y', async () => {
    const res = await post(`/v1/api/${tag}:json?x=3`)
    expect(res.body.x[0]).to.equal(3)
    expect(res.body.y[0]).to.equal(30)
  })

  it('takes variables as JSON members and form fields, and ignores unknown ones', async () => {
    const json = await post(`/v1/api/${tag}:json`, { region: 'West', nosuch: 1, fmt_: 'html' })
    expect(new Set(json.body.region)).to.deep.equal(new Set(['West']))
    const form = await session.post(`/v1/api/${tag}:json`).type('form').send({ x: '5' })
    expect(form.body.y[0]).to.equal(50)
  })

  it('reads the index widget result through !rows, !cols and !data with range_ and to_', async () => {
    const rows = (await post(`/v1/api/${tag}/!rows:json`)).body
    expect(rows).to.be.greaterThan(2)
    expect((await post(`/v1/api/${tag}/!cols:json`)).body.name).to.deep.equal(['store', 'region', 'x', 'y'])
    expect((await post(`/v1/api/${tag}/!data:json?range_=1&to_=3`)).body.store).to.have.length(2)
  })

  it('serves named widgets and their methods', async () => {
    expect((await post(`/v1/api/${tag}/title:json`)).body).to.equal('Region West')
    expect((await post(`/v1/api/${tag}/index/!rows:json`)).status).to.equal(200)
    expect((await post(`/v1/api/${tag}/nosuch:json`)).status).to.equal(404)
  })

  it('copies cells of a recompute query into variables when its onchange_ variable changes', async () => {
    const xml = `<dynamic st="1" city="" n="0">
      <do onchange_="@st" value1_="city" col1_="2" value2_="n" col2_="1">
        <base table="pub.demo.retail.stores"/><sel value="store={@st}"/><colord cols="store,city"/>
      </do>
      <widget name="index"><table cols="c,n">'{@city}',{@n}</table></widget>
    </dynamic>`
    const t = (await post('/v1/api/new:json', { xml })).body.tag
    const res = await post(`/v1/api/${t}:json?st=7`)
    expect(res.status, res.text).to.equal(200)
    const sql = await post('/v1/api/sql:json', { sql: 'select city from pub.demo.retail.stores where store = 7' })
    expect(res.body).to.deep.equal({ c: [sql.body.city[0]], n: [7] })
  })

  it('sets the variable a widget is bound to from the value sent to that widget', async () => {
    const xml =
      '<dynamic pick="a"><widget name="chooser" class_="dropdown" value_="@pick"><table cols="v">a;b</table></widget><widget name="index"><table cols="p">{@pick}</table></widget></dynamic>'
    const t = (await post('/v1/api/new:json', { xml })).body.tag
    await post(`/v1/api/${t}/chooser:json`, { value: 'b' })
    expect((await post(`/v1/api/${t}:json`)).body).to.deep.equal({ p: ['b'] })
  })

  it('applies concurrent variable changes to one instance one at a time', async () => {
    const xml = '<dynamic a="0" b="0"><do on_="change(a)"><set b="@b+1"/></do><widget name="index"><table cols="b">{@b}</table></widget></dynamic>'
    const t = (await post('/v1/api/new:json', { xml })).body.tag
    await Promise.all(Array.from({ length: 8 }, (_, i) => post(`/v1/api/${t}:json?a=${i + 1}`)))
    expect((await post(`/v1/api/${t}:json`)).body).to.deep.equal({ b: [8] })
  })

  it('answers the status table and the changes when there is no index widget', async () => {
    const t = (await post('/v1/api/new:json', { xml: NO_INDEX })).body.tag
    const res = await post(`/v1/api/${t}:json`, { state: 'CA' })
    expect(res.status, res.text).to.equal(200)
    expect(res.body.changes).to.deep.equal({ state: 'CA', n: '2' })
    expect(res.body.widgets.name).to.deep.equal(['grid1'])
    expect(res.body.widgets.changed).to.deep.equal([1])
    const quiet = await post(`/v1/api/${t}:json`)
    expect(quiet.body.changes).to.deep.equal({})
    expect((await post(`/v1/api/${t}/grid1:json`)).body).to.deep.equal({ s: ['CA'] })
  })
})

const FOREVER = 'with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) n from c'
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms))

forEachStore(
  '!stop',
  (svc) => {
    const session = loggedIn(svc)

    it('stops a running instance query: the query answers 409 stopped and !stop answers stopped', async () => {
      const tag = (await session.post('/v1/api/new/sql:json').send({})).body.tag
      const running = session
        .post(`/v1/api/${tag}:json`)
        .send({ sql: FOREVER })
        .then((r) => r)
      await delay(400)
      const started = Date.now()
      const stop = await session.post(`/v1/api/${tag}/!stop:json?force_=1`)
      expect(stop.status).to.equal(200)
      expect(stop.body).to.deep.equal({ stopped: true })
      const res = await running
      expect(res.status).to.equal(409)
      expect(res.body.code).to.equal('stopped')
      expect(Date.now() - started).to.be.below(5000)
      expect((await session.post(`/v1/api/${tag}/!stop:json`)).body).to.deep.equal({ stopped: false })
      const after = await session.post(`/v1/api/${tag}:json`).send({ sql: 'select 7 as n' })
      expect(after.body).to.deep.equal({ n: [7] })
    })

    it("stops the session's api/sql query through api/sql/!stop without disturbing other queries", async () => {
      const running = session
        .post('/v1/api/sql:json')
        .send({ sql: FOREVER })
        .then((r) => r)
      await delay(400)
      const other = session.post('/v1/api/run:json').send({ xml: '<table cols="a">1;2</table>' })
      expect((await session.post('/v1/api/sql/!stop:json')).body).to.deep.equal({ stopped: true })
      expect((await running).status).to.equal(409)
      expect((await other).body).to.deep.equal({ a: [1, 2] })
    })

    it('answers stopped:false for api/run/!stop when nothing runs', async () => {
      const res = await session.post('/v1/api/run/!stop:json')
      expect(res.body).to.deep.equal({ stopped: false })
    })
  },
  { QUERY_TIMEOUT_MS: '60000' },
)
