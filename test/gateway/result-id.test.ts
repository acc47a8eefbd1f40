/**
 * X-Result-Id: every answer about a kept sql or run result names it, so a reader paging through
 * it (the workbench) can tell when the result behind its pages was replaced.
 */
import { expect } from 'chai'
import { loggedIn } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'

const ITEMS = '<base table="pub.demo.retail.item"/><sel value="i_()&lt;=10"/><colord cols="trans,store"/>'
const STORES = '<base table="pub.demo.retail.stores"/><colord cols="store,city"/>'

forEachStore('X-Result-Id', (svc) => {
  const session = loggedIn(svc)
  const { post } = session

  for (const [where, newPath] of [
    ['the session’s api/run', null],
    ['a run instance', '/v1/api/new/run:json'],
  ] as const) {
    it(`names the result of ${where} in the query answer and in every read of it, and changes with the query`, async () => {
      const path = newPath === null ? '/v1/api/run' : `/v1/api/${(await post(newPath, {})).body.tag}`
      const ran = await post(`${path}:json`, { xml: ITEMS })
      expect(ran.status, ran.text).to.equal(200)
      const id = ran.headers['x-result-id']
      expect(id).to.match(/^[0-9a-f]{16}$/)
      for (const method of ['rows', 'cols', 'data', 'head']) {
        expect((await post(`${path}/!${method}:json`)).headers['x-result-id'], method).to.equal(id)
      }
      // The same query again is the same result; another query another one.
      expect((await post(`${path}:json`, { xml: ITEMS })).headers['x-result-id']).to.equal(id)
      const other = (await post(`${path}:json`, { xml: STORES })).headers['x-result-id']
      expect(other)
        .to.match(/^[0-9a-f]{16}$/)
        .and.not.equal(id)
      expect((await post(`${path}/!data:json?range_=0&to_=2`)).headers['x-result-id']).to.equal(other)
    })
  }

  it('names an sql result the same way', async () => {
    const ran = await post('/v1/api/sql:json', { sql: 'select store from pub.demo.retail.stores' })
    expect(ran.headers['x-result-id']).to.match(/^[0-9a-f]{16}$/)
    expect((await post('/v1/api/sql/!data:json?range=0&to=3')).headers['x-result-id']).to.equal(ran.headers['x-result-id'])
  })
})
