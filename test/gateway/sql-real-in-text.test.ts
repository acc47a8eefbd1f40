/**
 * A REAL in a result column that also holds text (issue 38 part 3): SQLite writes 2.0 as "2.0",
 * and api/sql must answer that text in JSON and in the text table, where it once answered "2".
 * The CASE mixes text and numbers, so sql.js answers it (engine/sql/result-builder.ts keeps the
 * REAL's type, sqlite-values.ts writes it as SQLite does); the answer is checked as the client
 * receives it.
 */
import { expect } from 'chai'
import { memoryServiceLoggedIn } from '../helpers/service.js'

const SQL =
  "select store, case when store = (select min(store) from pub.demo.retail.stores) then 2.0 when store < 0 then 0.5 else 'x' end as v " +
  'from pub.demo.retail.stores order by store limit 3'

describe('api/sql: a REAL among text is written as SQLite writes it (issue 38)', function () {
  this.timeout(60_000)
  const { session } = memoryServiceLoggedIn()
  const post = (format: string, sql: string) => session.post(`/v1/api/sql:${format}`, { sql })

  it('answers "2.0" in JSON, the column being text', async () => {
    const res = await post('json', SQL)
    expect(res.status, res.text.slice(0, 300)).to.equal(200)
    expect(res.headers['x-tabula-engine']).to.equal('sqlite')
    expect(res.body.v).to.deep.equal(['2.0', 'x', 'x'])
  })

  it('answers "2.0" in the text table', async () => {
    const res = await post('text', SQL)
    expect(res.status, res.text.slice(0, 300)).to.equal(200)
    const cells = res.text
      .trimEnd()
      .split('\n')
      .slice(2)
      .map((line) => line.trim().split(/\s+/).pop())
    expect(cells).to.deep.equal(['2.0', 'x', 'x'])
  })

  it("answers the issue's own query, case when a > 2 then 'x' else 2.0 end, with SQLite's text", async () => {
    const sql =
      "select case when store > (select min(store) from pub.demo.retail.stores) then 'x' else 2.0 end as v from pub.demo.retail.stores order by store limit 2"
    expect((await post('json', sql)).body.v).to.deep.equal(['2.0', 'x'])
    expect(
      (await post('text', sql)).text
        .trimEnd()
        .split('\n')
        .slice(2)
        .map((l) => l.trim()),
    ).to.deep.equal(['2.0', 'x'])
  })
})
