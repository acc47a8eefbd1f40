/**
 * SQL names an unaliased result column by its expression's text, with no limit of SQLite's own;
 * sql.js's answers with names over 128 characters were refused (issue 38: three sqllogictest
 * queries), and then those over 1024, while the same query compiled to the engine answered. Both
 * paths now take a name of any length, as SQLite does, and bound only all the names of a result
 * together (shared/name-limits.ts says why); the macro language's names keep 128
 * (limits-resources.test.ts).
 */
import { expect } from 'chai'
import { MAX_SQL_NAME_CHARS } from '../../shared/name-limits.js'
import { memoryServiceLoggedIn } from '../helpers/service.js'

const sum = (n: number) => Array.from({ length: n }, (_, i) => String(i)).join(' + ')

describe('api/sql result columns named by long expressions (issue 38)', function () {
  this.timeout(60_000)
  const { session } = memoryServiceLoggedIn()
  const sql = (text: string) => session.post('/v1/api/sql:json', { sql: text })

  for (const [what, from] of [
    ['on sql.js (no table)', ''],
    ['on the engine', ' from pub.demo.retail.stores limit 1'],
  ] as const)
    for (const terms of [30, 150, 300]) {
      it(`answers a column named by ${sum(terms).length} characters of expression ${what}`, async () => {
        const name = sum(terms)
        const res = await sql(`select ${name}${from}`)
        expect(res.status, res.text.slice(0, 300)).to.equal(200)
        expect(res.body).to.deep.equal({ [name]: [(terms * (terms - 1)) / 2] })
      })
    }

  it('answers a column named by 10,000 characters of text, as SQLite names it', async () => {
    const name = `length('${'x'.repeat(10_000)}')`
    const res = await sql(`select ${name} from pub.demo.retail.stores limit 1`)
    expect(res.status, res.text.slice(0, 300)).to.equal(200)
    expect(res.body).to.deep.equal({ [name]: [10_000] })
  })

  for (const [what, from] of [
    ['on sql.js (no table)', ''],
    ['where the engine could answer', ' from pub.demo.retail.stores limit 1'],
  ] as const)
    it(`refuses names longer than ${MAX_SQL_NAME_CHARS} characters together, naming the limit, ${what}`, async () => {
      // 800 columns named by the same 1,390 characters: 1.1 M characters of names from a query of 4 KB.
      const stars = Array.from({ length: 800 }, () => '*').join(', ')
      const res = await sql(`select ${stars} from (select ${sum(300)}${from})`)
      expect(res.status, res.text.slice(0, 300)).to.equal(400)
      expect(res.body.code).to.equal('invalid_parameter')
      expect(res.body.error).to.include(String(MAX_SQL_NAME_CHARS))
    })
})
