import { expect } from 'chai'
import { forEachStore } from '../helpers/suites.js'

const ITEMS10 = '<base table="pub.demo.retail.item"/><sel value="i_()&lt;=10"/><colord cols="trans,store"/>'

forEachStore('instances', (svc) => {
  let cookie: string
  const post = (path: string, body?: object, as = cookie) => {
    const req = svc().http.post(path).set('Cookie', as)
    return body === undefined ? req : req.send(body)
  }
  before(async () => {
    cookie = await svc().login()
  })

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
    const form = await svc().http.get('/v1/api/new').set('Cookie', cookie)
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
      expect((await post(`/v1/api/${tag}/!data:json.rows?range_=2&to_=4`)).body.rows).to.deep.equal([[res.body.trans[2], res.body.store[2]], [res.body.trans[3], res.body.store[3]]])
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
      expect((await svc().http.get(`/v1/api/${tag}/!cols:json`).set('Cookie', cookie)).body.name).to.deep.equal(['trans', 'store'])
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
    cookie = other
  })

  it("drops a session's instances when it logs out", async () => {
    const tag = (await post('/v1/api/new:json', { xml: ITEMS10 })).body.tag
    await post('/v1/api/!logout:json')
    cookie = await svc().login()
    expect((await post(`/v1/api/${tag}:json`)).status).to.equal(404)
    expect(await svc().deps.store.get(`inst:${tag}`)).to.equal(null)
  })
})

forEachStore('instance limit', (svc) => {
  it('answers 429 beyond MAX_INSTANCES_PER_SESSION', async () => {
    const cookie = await svc().login()
    for (let i = 0; i < 3; i++) expect((await svc().http.post('/v1/api/new/sql:json').set('Cookie', cookie).send({})).status).to.equal(200)
    const res = await svc().http.post('/v1/api/new/sql:json').set('Cookie', cookie).send({})
    expect(res.status).to.equal(429)
    expect(res.body.error).to.contain('MAX_INSTANCES_PER_SESSION')
  })
}, { MAX_INSTANCES_PER_SESSION: '3' })
