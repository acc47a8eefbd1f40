/**
 * Issue 36.3: a 413 `sql_out_of_memory` answer carried no X-Tabula-Engine header, although every
 * successful api/sql answer says which engine computed it. Only sql.js runs out of memory this
 * way, so the refusal says `sqlite`.
 */
import { expect } from 'chai'
import { startTestService, type TestService } from '../helpers/service.js'

/** About 60 MB of text concatenated: far past a 32 MB cap, and only sql.js runs recursive CTEs. */
const BLOW_UP = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 600000) SELECT length(group_concat(printf('%0100d', x))) AS n FROM c"

describe('sql_out_of_memory names its engine', function () {
  this.timeout(60_000)
  let svc: TestService
  let cookie: string
  before(async () => {
    svc = await startTestService('memory', { SQL_MEMORY_MB: '32', WORKERS: '1' })
    cookie = await svc.login()
  })
  after(() => svc?.close())

  it('answers 413 with X-Tabula-Engine: sqlite', async () => {
    const res = await svc.http.post('/v1/api/sql:json').set('Cookie', cookie).send({ sql: BLOW_UP })
    expect(res.status, res.text).to.equal(413)
    expect(res.body.code).to.equal('sql_out_of_memory')
    expect(res.headers['x-tabula-engine']).to.equal('sqlite')
  })

  it('the next query still answers, with its engine', async () => {
    const res = await svc.http.post('/v1/api/sql:json').set('Cookie', cookie).send({ sql: 'select count(*) as n from pub.demo.retail.stores' })
    expect(res.status, res.text).to.equal(200)
    expect(res.headers['x-tabula-engine']).to.be.oneOf(['columnar', 'sqlite'])
  })
})
