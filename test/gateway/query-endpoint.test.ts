/**
 * What api/sql and api/run share (gateway/routes/query-endpoint.ts), checked on both: the query
 * parameter, the form page, the answer's headers, and the index widget reading the session's last
 * result. What each language computes is in sql*.test.ts and run*.test.ts.
 */
import { expect } from 'chai'
import { loggedIn } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'

const ENDPOINTS = [
  { app: 'sql', param: 'sql', query: 'select store, sales from "pub.demo.retail.item" order by trans limit 5' },
  { app: 'run', param: 'xml', query: '<base table="pub.demo.retail.item"/><sel value="trans<=5"/><colord cols="store,sales"/>' },
] as const

forEachStore(
  'the query endpoints',
  (svc) => {
    for (const ep of ENDPOINTS) {
      describe(`api/${ep.app}`, () => {
        // A session of its own, so that "no result yet" holds.
        const { get, post } = loggedIn(svc)

        it('refuses the read methods before a query ran, naming the session', async () => {
          const res = await get(`/v1/api/${ep.app}/!data:json`)
          expect(res.status, res.text).to.equal(404)
          expect(res.body.error).to.include(`no ${ep.app} result in this session`)
        })

        it(`refuses a missing or empty ${ep.param} with 400 naming it, but shows a browser the form`, async () => {
          for (const body of [{}, { [ep.param]: '  ' }]) {
            const res = await post(`/v1/api/${ep.app}:json`, body)
            expect(res.status).to.equal(400)
            expect(res.body.error).to.include(`"${ep.param}"`)
          }
          const page = await get(`/v1/api/${ep.app}`)
          expect(page.status).to.equal(200)
          expect(page.text).to.include(`name="${ep.param}"`)
        })

        it('answers the result with X-Truncated and X-Result-Id, and keeps the recipe for the read methods', async () => {
          const res = await post(`/v1/api/${ep.app}:json`, { [ep.param]: ep.query })
          expect(res.status, res.text).to.equal(200)
          expect(res.headers['x-truncated']).to.equal('false')
          const resultId = res.headers['x-result-id']
          expect(resultId).to.match(/^.{16}$/)
          expect(Object.keys(res.body)).to.deep.equal(['store', 'sales'])
          const count = (res.body.store as unknown[]).length
          expect(count).to.be.at.least(5)
          const rows = await get(`/v1/api/${ep.app}/!rows:json`)
          expect(rows.body).to.equal(count)
          expect(rows.headers['x-result-id']).to.equal(resultId)
          const [fromName, toName] = ep.app === 'sql' ? ['range', 'to'] : ['range_', 'to_']
          const part = await get(`/v1/api/${ep.app}/!data:json?${fromName}=1&${toName}=3`)
          expect(part.body.sales).to.deep.equal(res.body.sales.slice(1, 3))
        })

        it('answers !status and !stop of the session, and refuses an unknown method with 404 listing the others', async () => {
          expect((await get(`/v1/api/${ep.app}/!status:json`)).status).to.equal(200)
          expect((await post(`/v1/api/${ep.app}/!stop:json`)).status).to.equal(200)
          const res = await get(`/v1/api/${ep.app}/!nope:json`)
          expect(res.status).to.equal(404)
          expect(res.body.error).to.include('!cols, !rows, !data, !head, !stop, !status')
        })

        it(`refuses a ${ep.param} over MAX_QUERY_BYTES and a bad timeout_ before running anything`, async () => {
          const big = await post(`/v1/api/${ep.app}:json`, { [ep.param]: `${ep.query} `.padEnd(300_000, ' ') + 'x' })
          expect(big.status).to.equal(413)
          const timeout = await post(`/v1/api/${ep.app}:json`, { [ep.param]: ep.query, timeout_: 'soon' })
          expect(timeout.status).to.equal(400)
          expect(timeout.body.error).to.include('timeout_')
        })
      })
    }
  },
  { MAX_QUERY_BYTES: '200000' },
  { skip: ['redis-cluster', 'cluster'] },
)
