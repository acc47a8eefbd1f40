import { expect } from 'chai'
import { forEachStore } from '../helpers/suites.js'

const RUNAWAY = 'with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) from c'

forEachStore('limits', (svc) => {
  let cookie: string
  before(async () => {
    cookie = await svc().login()
  })
  const post = (body: object | string) => svc().http.post('/v1/api/sql:json').set('Cookie', cookie).set('Content-Type', 'application/json').send(body)

  it('stops a query that runs past QUERY_TIMEOUT_MS with 504, and the pool keeps serving', async function () {
    this.timeout(20_000)
    const res = await post({ sql: RUNAWAY })
    expect(res.status).to.equal(504)
    expect(res.body.code).to.equal('timeout')
    expect(res.body.error).to.contain('QUERY_TIMEOUT_MS')
    for (let i = 0; i < 3; i++) expect((await post({ sql: `select ${i} as i` })).body).to.deep.equal({ i: [i] })
  })

  it('refuses a result over MAX_RESULT_ROWS with 413', async () => {
    const res = await post({ sql: 'select trans from pub.demo.retail.item' })
    expect(res.status).to.equal(413)
    expect(res.body.code).to.equal('result_too_large')
    expect(res.body.error).to.contain('500')
  })

  it('refuses a body over MAX_BODY_BYTES with 413', async () => {
    const res = await post(JSON.stringify({ sql: `select '${'x'.repeat(5000)}'` }))
    expect(res.status).to.equal(413)
    expect(res.body.code).to.equal('body_too_large')
  })
}, { QUERY_TIMEOUT_MS: '1500', MAX_RESULT_ROWS: '500', MAX_BODY_BYTES: '4096' })
