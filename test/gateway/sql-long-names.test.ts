/**
 * SQL names an unaliased result column by its expression's text, with no limit of SQLite's own;
 * sql.js's answers with names over 128 characters were refused (issue 38: three sqllogictest
 * queries), while the same query compiled to the engine answered. Both paths now take names up to
 * a label's 1024 characters; the macro language's names keep 128 (limits-resources.test.ts).
 */
import { expect } from 'chai'
import { startTestService, type TestService } from '../helpers/service.js'

const sum = (n: number) => Array.from({ length: n }, (_, i) => String(i)).join(' + ')

describe('api/sql result columns named by long expressions (issue 38)', function () {
  this.timeout(60_000)
  let svc: TestService
  let cookie: string
  before(async () => {
    svc = await startTestService('memory')
    cookie = await svc.login()
  })
  after(() => svc?.close())
  const sql = (text: string) => svc.http.post('/v1/api/sql:json').set('Cookie', cookie).send({ sql: text })

  for (const [what, from] of [
    ['on sql.js (no table)', ''],
    ['on the engine', ' from pub.demo.retail.stores limit 1'],
  ] as const)
    for (const terms of [30, 150]) {
      it(`answers a column named by ${sum(terms).length} characters of expression ${what}`, async () => {
        const name = sum(terms)
        const res = await sql(`select ${name}${from}`)
        expect(res.status, res.text.slice(0, 300)).to.equal(200)
        expect(res.body).to.deep.equal({ [name]: [(terms * (terms - 1)) / 2] })
      })
    }

  it('refuses a name over 1024 characters, naming the limit', async () => {
    const res = await sql(`select ${sum(300)}`)
    expect(res.status).to.equal(400)
    expect(res.body.code).to.equal('invalid_parameter')
    expect(res.body.error).to.include('1024')
  })
})
