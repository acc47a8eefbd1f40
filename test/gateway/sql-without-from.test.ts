/**
 * api/sql runs a SELECT without FROM on the columnar engine (issue 38 part 3): the plan reads a
 * table of one row that no catalog path names, which the gateway adds to the task
 * (gateway/query/sql.ts); the answer is SQLite's, and SELECT * without FROM is SQLite's error.
 */
import { expect } from 'chai'
import { memoryServiceLoggedIn } from '../helpers/service.js'

describe('api/sql: SELECT without FROM on the columnar engine (issue 38)', function () {
  this.timeout(60_000)
  const { session } = memoryServiceLoggedIn()
  const post = (sql: string) => session.post('/v1/api/sql:json', { sql })

  it('answers constants, an aggregate of the one row and a join of it to a table', async () => {
    const res = await post('select 1 + 2 as x, abs(-3) as y, 7 / 2 as z, count(*) as n')
    expect(res.status, res.text.slice(0, 300)).to.equal(200)
    expect(res.headers['x-tabula-engine']).to.equal('columnar')
    expect(res.body).to.deep.equal({ x: [3], y: [3], z: [3], n: [1] })
    // The one row joined to a table: a link to it, through a subquery.
    const joined = await post('select c.k, count(*) as n from pub.demo.retail.stores s join (select 1 as k) c on c.k = s.store / s.store group by c.k')
    expect(joined.status, joined.text.slice(0, 300)).to.equal(200)
    expect(joined.headers['x-tabula-engine']).to.equal('columnar')
    expect(joined.body).to.deep.equal({ k: [1], n: [100] })
  })

  it('answers SELECT * without FROM with SQLite’s error', async () => {
    const res = await post('select *')
    expect(res.status).to.equal(400)
    expect(res.body.error).to.contain('no tables specified')
  })
})
