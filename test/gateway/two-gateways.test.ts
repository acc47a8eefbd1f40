/**
 * Two gateways on one Store and one data folder, in one process: each with its own worker pool
 * and its own memo, as separate processes would have. An instance made on one is read, changed
 * and stopped through the other, and reading a kept result never runs the query again.
 */
import { expect } from 'chai'
import { loggedIn } from '../helpers/service.js'
import type { TestDeps } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'
import { startSecondGateway } from '../helpers/second-gateway.js'

const secondGateway = (first: TestDeps) => startSecondGateway(first)

const BIG = '<base table="pub.demo.retail.item"/><willbe name="margin" value="sales-cost"/>'
const FOREVER = 'with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) n from c'
const DYNAMIC = '<dynamic n="1" m="2"><do on_="change(n)"><set m="@n*2"/></do><widget name="index"><table cols="n,m">{@n},{@m}</table></widget></dynamic>'

forEachStore(
  'two gateways on one store',
  (svc) => {
    let b: Awaited<ReturnType<typeof secondGateway>>
    before(async () => {
      b = await secondGateway(svc().deps)
    })
    const session = loggedIn(svc)
    after(() => b.close())

    it('accepts a session made on the first gateway', async () => {
      const res = await b.http.post('/v1/api/sql:json').set('Cookie', session.cookie).send({ sql: 'select 1 as one' })
      expect(res.body).to.deep.equal({ one: [1] })
    })

    it('reads any range of an instance result kept by the other gateway without running the query', async () => {
      const tag = (await session.post('/v1/api/new/run:json').send({})).body.tag
      const full = await session.post(`/v1/api/${tag}:json`).send({ xml: BIG })
      expect(full.body.margin).to.have.length.greaterThan(1000)
      await new Promise((r) => setTimeout(r, 300)) // the copy in the Store is written after the answer
      const before = b.runs()
      const page = await b.http.post(`/v1/api/${tag}/!data:json?range_=1000&to_=1100`).set('Cookie', session.cookie)
      expect(page.body.trans).to.deep.equal(full.body.trans.slice(1000, 1100))
      expect(page.body.margin).to.deep.equal(full.body.margin.slice(1000, 1100))
      expect((await b.http.post(`/v1/api/${tag}/!rows:json`).set('Cookie', session.cookie)).body).to.equal(full.body.trans.length)
      expect((await b.http.post(`/v1/api/${tag}/!head:json`).set('Cookie', session.cookie)).body.data.trans).to.have.length(500)
      expect(b.runs() - before, 'queries run by the second gateway').to.equal(0)
    })

    it('changes a dynamic instance made on the first gateway through the second', async () => {
      const tag = (await session.post('/v1/api/new:json').send({ xml: DYNAMIC })).body.tag
      const res = await b.http.post(`/v1/api/${tag}:json?n=21`).set('Cookie', session.cookie)
      expect(res.body).to.deep.equal({ n: [21], m: [42] })
      expect((await session.post(`/v1/api/${tag}:json`)).body).to.deep.equal({ n: [21], m: [42] })
    })

    it('stops through one gateway a query running on the other', async () => {
      const tag = (await session.post('/v1/api/new/sql:json').send({})).body.tag
      const running = session
        .post(`/v1/api/${tag}:json`)
        .send({ sql: FOREVER })
        .then((r) => r)
      await new Promise((r) => setTimeout(r, 400))
      expect((await b.http.post(`/v1/api/${tag}/!stop:json`).set('Cookie', session.cookie)).body).to.deep.equal({ stopped: true })
      const res = await running
      expect(res.status).to.equal(409)
      expect(res.body.code).to.equal('stopped')
    })
  },
  { QUERY_TIMEOUT_MS: '60000' },
  { skip: ['cluster'] },
) // the cluster runs are processes already
