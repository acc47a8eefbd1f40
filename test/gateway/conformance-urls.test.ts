/**
 * Issue 17, the instance URL shapes of reference §1.1 that no client had used yet: `api/{tag}/@`,
 * a trailing segment that sets `path`, `!methods` in its three shapes, `api/index` and the status
 * table under `:json.rows`. One test per row of the issue, through HTTP, on every Store kind.
 */
import { expect } from 'chai'
import { loggedIn } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'

/** An index widget (a grid), a second grid and a text widget; no `path` variable. */
const WITH_INDEX = `<macro>
  <dynamic region="South" x="1">
    <widget name="index" class_="grid">
      <base table="pub.demo.retail.stores"/>
      <sel value="region='{@region}'"/>
      <colord cols="store,region"/>
    </widget>
    <widget name="cities" class_="grid">
      <base table="pub.demo.retail.stores"/>
      <sel value="region='{@region}'"/>
      <colord cols="store,city"/>
    </widget>
    <widget name="title" class_="text" text_="Region {@region}"/>
  </dynamic>
</macro>`

/** Like 1010data's `ls`: an index widget over the variable `path`, set by the trailing segment. */
const WITH_PATH = `<dynamic path="South" hits="0">
  <do on_="change(path)"><set hits="@hits+1"/></do>
  <widget name="index">
    <base table="pub.demo.retail.stores"/>
    <sel value="region='{@path}'"/>
    <willbe name="hits" value="{@hits}"/>
    <colord cols="store,region,hits"/>
  </widget>
  <widget name="title" class_="text" text_="Stores of {@path}"/>
</dynamic>`

/** No index widget: the instance answers its widget status table. */
const NO_INDEX = `<dynamic state="NY" n="1">
  <do on_="change(state)"><set n="@n+1"/></do>
  <widget name="grid1"><table cols="s">{@state}</table></widget>
  <widget name="note" class_="text" text_="State {@state}"/>
</dynamic>`

const RESULT_METHODS = ['cols', 'rows', 'data', 'head', 'stop', 'status', 'methods']
const CONTROL_METHODS = ['stop', 'status', 'methods']

forEachStore('conformance: instance URL shapes (issue 17)', (svc) => {
  const session = loggedIn(svc)
  const { post, get } = session
  const create = async (xml: string): Promise<number> => {
    const res = await post('/v1/api/new:json', { xml })
    expect(res.status, res.text).to.equal(200)
    return res.body.tag as number
  }
  const regionStores = async (region: string): Promise<number[]> =>
    (await post('/v1/api/sql:json', { sql: `select store from pub.demo.retail.stores where region = '${region}' order by store` })).body.store

  it('POST api/{tag}/@:json answers the widget status table, as api/{tag} does without an index widget', async () => {
    const tag = await create(WITH_INDEX)
    const res = await post(`/v1/api/${tag}/@:json`, { region: 'West' })
    expect(res.status, res.text).to.equal(200)
    expect(res.body).to.deep.equal({
      widgets: { name: ['index', 'cities', 'title'], class: ['grid', 'grid', 'text'], changed: [1, 1, 1] },
      changes: { region: 'West' },
    })
    // The variables it set are the instance's: its index widget now shows the West stores.
    expect((await post(`/v1/api/${tag}:json`)).body.store).to.deep.equal(await regionStores('West'))
    // A read changes nothing; GET and the `@/` spelling answer the same.
    expect((await get(`/v1/api/${tag}/@:json`)).body.changes).to.deep.equal({})
    expect((await post(`/v1/api/${tag}/@/:json`)).body.widgets.changed).to.deep.equal([0, 0, 0])
    // Without an index widget, `@` is what api/{tag} answers anyway.
    const plain = await create(NO_INDEX)
    const at = await post(`/v1/api/${plain}/@:json`, { state: 'CA' })
    expect(at.body).to.deep.equal({ widgets: { name: ['grid1', 'note'], class: ['grid', 'text'], changed: [1, 1] }, changes: { state: 'CA', n: '2' } })
    expect((await post(`/v1/api/${plain}:json`)).body).to.deep.equal({ ...at.body, widgets: { ...at.body.widgets, changed: [0, 0] }, changes: {} })
  })

  it('POST api/{tag}/{path}:json sets the declared variable path to the segment and answers the index widget', async () => {
    const tag = await create(WITH_PATH)
    const west = await post(`/v1/api/${tag}/West:json`)
    expect(west.status, west.text).to.equal(200)
    expect(west.body.store)
      .to.have.length.above(0)
      .and.to.deep.equal(await regionStores('West'))
    expect(new Set(west.body.region)).to.deep.equal(new Set(['West']))
    // It is a variable change like any other: the change(path) trigger ran, and the value stays.
    expect(new Set(west.body.hits)).to.deep.equal(new Set([1]))
    expect((await post(`/v1/api/${tag}:json`)).body.store).to.deep.equal(west.body.store)
    expect((await post(`/v1/api/${tag}/.title:json`)).body).to.equal('Stores of West')
    // The segment wins over a `path` parameter, and other parameters still set their variables.
    const midwest = await post(`/v1/api/${tag}/Midwest:json`, { path: 'Northeast', hits: 10 })
    expect(midwest.body.store)
      .to.have.length.above(0)
      .and.to.deep.equal(await regionStores('Midwest'))
    expect(new Set(midwest.body.hits)).to.deep.equal(new Set([11]))
    // With path declared, a bare segment is always a value (even a widget's name); `.w` is the widget.
    expect((await post(`/v1/api/${tag}/title:json`)).body.store).to.deep.equal([])
    expect((await post(`/v1/api/${tag}/.title:json`)).body).to.equal('Stores of title')
    // Percent-encoded segments arrive decoded.
    expect((await get(`/v1/api/${tag}/Mid%20West:text`)).status).to.equal(200)
    expect((await post(`/v1/api/${tag}/.title:json`)).body).to.equal('Stores of Mid West')
    // Without a declared path, a segment still names a widget, and an unknown one says why it is not a value.
    const other = await create(WITH_INDEX)
    expect((await post(`/v1/api/${other}/title:json`)).body).to.equal('Region South')
    const missing = await post(`/v1/api/${other}/somepath:json`)
    expect(missing.status).to.equal(404)
    expect(missing.body.error).to.contain('somepath').and.to.contain('declares path')
  })

  it('answers !methods as a JSON array of names at api/{tag}!methods, api/{tag}/!methods and api/{tag}/{widget}!methods', async () => {
    const tag = await create(WITH_INDEX)
    for (const path of [
      `${tag}!methods`,
      `${tag}/!methods`,
      `${tag}/@index/methods`,
      `${tag}/index!methods`,
      `${tag}/cities!methods`,
      `${tag}/cities/!methods`,
      `${tag}/.cities/!methods`,
    ]) {
      const res = await post(`/v1/api/${path}:json`)
      expect(res.status, `${path}: ${res.text}`).to.equal(200)
      expect(res.type).to.equal('application/json')
      expect(res.body, path).to.deep.equal(RESULT_METHODS)
    }
    expect((await get(`/v1/api/${tag}/title!methods:json`)).body).to.deep.equal(CONTROL_METHODS)
    // Every method listed answers at that path.
    for (const m of RESULT_METHODS) expect((await post(`/v1/api/${tag}/cities/!${m}:json`)).status, m).to.equal(200)
    for (const m of CONTROL_METHODS) expect((await post(`/v1/api/${tag}/title/!${m}:json`)).status, m).to.equal(200)
    const textCols = await post(`/v1/api/${tag}/title/!cols:json`)
    expect(textCols.status).to.equal(404)
    expect(textCols.body.error).to.contain('!stop, !status, !methods')
    expect((await post(`/v1/api/${tag}/nosuch!methods:json`)).status).to.equal(404)
    // Without an index widget the instance itself only stops and reports.
    expect((await post(`/v1/api/${await create(NO_INDEX)}!methods:json`)).body).to.deep.equal(CONTROL_METHODS)
    // An sql instance, a fixed query and the built-in endpoints have one widget: the result grid.
    const sql = (await post('/v1/api/new/sql:json', {})).body.tag
    expect((await post(`/v1/api/${sql}!methods:json`)).body).to.deep.equal(RESULT_METHODS)
    expect((await post(`/v1/api/${await create('<table cols="n">1</table>')}/!methods:json`)).body).to.deep.equal(RESULT_METHODS)
    expect((await post('/v1/api/sql/!methods:json')).body).to.deep.equal(RESULT_METHODS)
    expect((await post('/v1/api/run!methods:json')).body).to.deep.equal(RESULT_METHODS)
  })

  it('answers api/index:json with the endpoint list, the same as api:json', async () => {
    const list = await post('/v1/api:json')
    expect(list.status).to.equal(200)
    expect(list.body.name).to.include('dbm')
    for (const path of ['/v1/api/index:json', '/v1/api/@index:json', '/v1/api/index/:json']) {
      const res = await post(path)
      expect(res.status, `${path}: ${res.text}`).to.equal(200)
      expect(res.body, path).to.deep.equal(list.body)
    }
    expect((await get('/v1/api/index:json')).body).to.deep.equal(list.body)
    // Its index widget reads like any result.
    expect((await post('/v1/api/!rows:json')).body).to.equal(list.body.name.length)
    expect((await post('/v1/api/index/!data:json?range_=0&to_=1')).body.name).to.deep.equal([list.body.name[0]])
    expect((await post('/v1/api/!methods:json')).body).to.deep.equal(['cols', 'rows', 'data', 'head', 'methods'])
  })

  it('answers api/{tag}:json.rows without an index widget as the status table in {cols, rows}', async () => {
    const tag = await create(NO_INDEX)
    const rows = await post(`/v1/api/${tag}:json.rows`, { state: 'TX' })
    expect(rows.status, rows.text).to.equal(200)
    expect(rows.body).to.deep.equal({
      widgets: {
        cols: ['name', 'class', 'changed'],
        rows: [
          ['grid1', 'grid', 1],
          ['note', 'text', 1],
        ],
      },
      changes: { state: 'TX', n: '2' },
    })
    const keyed = await get(`/v1/api/${tag}:json.keyed`)
    expect(keyed.body).to.deep.equal({
      widgets: [
        { name: 'grid1', class: 'grid', changed: 0 },
        { name: 'note', class: 'text', changed: 0 },
      ],
      changes: {},
    })
    expect((await get(`/v1/api/${tag}/@:json.rows`)).body.widgets.cols).to.deep.equal(['name', 'class', 'changed'])
    const text = await get(`/v1/api/${tag}:text`)
    expect(text.text.split('\n')[0]).to.match(/^name\s+class\s+changed$/)
    expect(text.text).to.contain('changes: none')
  })
})
