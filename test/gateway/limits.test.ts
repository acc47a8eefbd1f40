/**
 * The size and time limits of a query request, through the API on every kind of service:
 * QUERY_TIMEOUT_MS and the request's own timeout_ (504 naming the limit that applied),
 * MAX_RESULT_ROWS and MAX_RESULT_BYTES (413, or with truncate_=1 the first rows with the cut
 * stated in every format), MAX_BODY_BYTES, and MAX_QUERY_BYTES on every endpoint that takes a
 * query text (counted in UTF-8 bytes, refused before parsing).
 */
import { expect } from 'chai'
import { loggedIn } from '../helpers/service.js'
import { dbm } from '../helpers/dbm.js'
import { forEachStore } from '../helpers/suites.js'

const RUNAWAY = 'with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) from c'

/** Sorts of two million generated rows: about a second of work for every few sorts. */
function slowMacro(sorts: number): string {
  const steps = Array.from({ length: sorts }, (_, i) => `<sort col="r" dir="${i % 2 ? 'up' : 'down'}"/>`).join('')
  return `<table depth="2000000"/><willbe name="r" value="mod(i_()*7919.0;1000003)"/>${steps}`
}

/** 400 rows of a number (8 bytes) and a 50-character text: 23,200 bytes as MAX_RESULT_BYTES counts them. */
const WIDE = "with recursive c(x) as (select 1 union all select x + 1 from c where x < 400) select x, printf('%050d', x) as s from c"
const WIDE_ROW_BYTES = 8 + 50

/** A query text whose euros make it longer in UTF-8 bytes (3 each) than in characters. */
const euros = (n: number) => '€'.repeat(n)

forEachStore(
  'limits',
  (svc) => {
    const session = loggedIn(svc)
    const post = (body: object | string, path = 'sql:json') => session.post(`/v1/api/${path}`).set('Content-Type', 'application/json').send(body)

    describe('time', () => {
      it('stops a query that runs past QUERY_TIMEOUT_MS with 504, and the pool keeps serving', async function () {
        this.timeout(20_000)
        const res = await post({ sql: RUNAWAY })
        expect(res.status).to.equal(504)
        expect(res.body.code).to.equal('timeout')
        expect(res.body.error).to.contain('QUERY_TIMEOUT_MS')
        for (let i = 0; i < 3; i++) expect((await post({ sql: `select ${i} as i` })).body).to.deep.equal({ i: [i] })
      })

      it('lowers the time limit for one request with timeout_, and the 504 names timeout_', async function () {
        this.timeout(20_000)
        const sql = await post({ sql: RUNAWAY, timeout_: 200 })
        expect(sql.status).to.equal(504)
        expect(sql.body.error).to.contain('200 ms').and.to.contain('timeout_').and.not.to.contain('(QUERY_TIMEOUT_MS)')
        const run = await post({ xml: slowMacro(20), timeout_: '300' }, 'run:json')
        expect(run.status, run.text).to.equal(504)
        expect(run.body.error).to.contain('300 ms').and.to.contain('timeout_')
      })

      it('never raises the limit: a timeout_ above QUERY_TIMEOUT_MS is held to it, and the 504 names QUERY_TIMEOUT_MS', async function () {
        this.timeout(20_000)
        const res = await post({ sql: RUNAWAY, timeout_: 600_000 })
        expect(res.status).to.equal(504)
        expect(res.body.error).to.contain('1500 ms (QUERY_TIMEOUT_MS)')
      })

      it('refuses a timeout_ that is not a whole number of milliseconds of 1 or more with 400 naming it', async () => {
        for (const bad of ['abc', '0', '1.5', '-20', '10ms', 0]) {
          const res = await post({ sql: 'select 1 as one', timeout_: bad })
          expect(res.status, `timeout_=${bad}`).to.equal(400)
          expect(res.body.code).to.equal('invalid_parameter')
          expect(res.body.error).to.contain('timeout_')
        }
        expect((await post({ sql: 'select 1 as one', timeout_: '5000' })).body).to.deep.equal({ one: [1] })
      })
    })

    describe('result size', () => {
      it('refuses a result over MAX_RESULT_ROWS with 413, pointing at truncate_', async () => {
        const res = await post({ sql: 'select trans from pub.demo.retail.item' })
        expect(res.status).to.equal(413)
        expect(res.body.code).to.equal('result_too_large')
        expect(res.body.error).to.contain('500').and.to.contain('truncate_=1')
      })

      it('refuses a result over MAX_RESULT_BYTES with 413 naming the limit', async () => {
        const res = await post({ sql: WIDE })
        expect(res.status).to.equal(413)
        expect(res.body.code).to.equal('result_too_large')
        expect(res.body.error).to.contain('MAX_RESULT_BYTES').and.to.contain('20000').and.to.contain('truncate_=1')
      })

      it('with truncate_=1 answers the first MAX_RESULT_ROWS rows in a wrapper that states the cut, and X-Truncated: true', async () => {
        const res = await post({ sql: 'select trans from pub.demo.retail.item order by trans', truncate_: 1 })
        expect(res.status, res.text).to.equal(200)
        expect(res.headers['x-truncated']).to.equal('true')
        expect(Object.keys(res.body)).to.deep.equal(['truncated', 'total_rows', 'rows', 'result'])
        expect(res.body).to.include({ truncated: true, total_rows: 3000, rows: 500 })
        expect(res.body.result.trans).to.have.length(500)
        expect(res.body.result.trans[0]).to.equal(1)
      })

      it('with truncate_=1 cuts a result over MAX_RESULT_BYTES to the rows that fit', async () => {
        const res = await post({ sql: WIDE, truncate_: '1' }, 'sql:json.rows')
        expect(res.status, res.text).to.equal(200)
        const kept = Math.floor(20000 / WIDE_ROW_BYTES)
        expect(res.body).to.include({ truncated: true, total_rows: 400, rows: kept })
        expect(res.body.result.cols).to.deep.equal(['x', 's'])
        expect(res.body.result.rows).to.have.length(kept)
        expect(res.body.result.rows[kept - 1]).to.deep.equal([kept, String(kept).padStart(50, '0')])
      })

      it('with truncate_=1 answers the wrapper for a result that fits too, with truncated false', async () => {
        const res = await post({ sql: 'select 7 as seven', truncate_: 1 }, 'sql:json.keyed')
        expect(res.headers['x-truncated']).to.equal('false')
        expect(res.body).to.deep.equal({ truncated: false, total_rows: 1, rows: 1, result: [{ seven: 7 }] })
        const plain = await post({ sql: 'select 8 as eight' })
        expect(plain.headers['x-truncated']).to.equal('false')
        expect(plain.body).to.deep.equal({ eight: [8] })
      })

      it('states the cut in text (a closing line) and HTML (a notice), and for macro queries too', async () => {
        const xml = '<base table="pub.demo.retail.item"/><colord cols="trans"/>'
        const text = await post({ xml, truncate_: 1 }, 'run:text')
        expect(text.status, text.text).to.equal(200)
        expect(text.headers['x-truncated']).to.equal('true')
        const lines = text.text.trimEnd().split('\n')
        expect(lines[lines.length - 1]).to.equal('-- truncated: first 500 of 3000 rows')
        expect(lines).to.have.length(2 + 500 + 1)
        const html = await session.post('/v1/api/run').type('form').send({ xml, truncate_: '1' })
        expect(html.status).to.equal(200)
        expect(html.headers['x-truncated']).to.equal('true')
        expect(html.text).to.match(/<strong>Truncated:<\/strong> showing the first 500 of 3000 rows/)
        const keyed = await post({ xml, truncate_: 1 }, 'run:json.keyed')
        expect(keyed.body).to.include({ truncated: true, total_rows: 3000, rows: 500 })
        expect(keyed.body.result).to.have.length(500)
      })

      it('keeps a cut result apart from the whole one: the same query without truncate_ is still refused', async () => {
        const sql = 'select trans, store from pub.demo.retail.item'
        expect((await post({ sql, truncate_: 1 })).status).to.equal(200)
        expect((await session.get('/v1/api/sql/!rows:json')).body).to.equal(500)
        expect((await post({ sql })).status).to.equal(413)
      })

      it('refuses truncate_ together with savetable, and a truncate_ that is not 0 or 1', async () => {
        const both = await post({ xml: '<base table="pub.demo.retail.item"/>', savetable: 'uploads.admin.cut', truncate_: 1 }, 'run:json')
        expect(both.status).to.equal(400)
        expect(both.body.error).to.contain('savetable').and.to.contain('truncate_')
        const bad = await post({ sql: 'select 1', truncate_: 'maybe' })
        expect(bad.status).to.equal(400)
        expect(bad.body.error).to.contain('truncate_')
      })
    })

    describe('request and query size', () => {
      it('refuses a body over MAX_BODY_BYTES with 413', async () => {
        const res = await post(JSON.stringify({ sql: `select '${'x'.repeat(5000)}'` }))
        expect(res.status).to.equal(413)
        expect(res.body.code).to.equal('body_too_large')
      })

      it('refuses sql over MAX_QUERY_BYTES, counted in UTF-8 bytes, with 413 naming the parameter, its size and the limit', async () => {
        const sql = `select '${euros(340)}' as s`
        expect(sql.length).to.be.below(1000)
        const res = await post({ sql })
        expect(res.status).to.equal(413)
        expect(res.body.code).to.equal('query_too_large')
        expect(res.body.error)
          .to.contain('"sql"')
          .and.to.contain(`${Buffer.byteLength(sql)} bytes`)
          .and.to.contain('1000')
          .and.to.contain('MAX_QUERY_BYTES')
        expect((await post({ sql: `select '${euros(300)}' as s` })).status).to.equal(200)
      })

      it('refuses an over-long xml on api/run and api/new, and an over-long query of an instance', async () => {
        const xml = `<table cols="s">${euros(340)}</table>`
        for (const path of ['run:json', 'new:json']) {
          const res = await post({ xml }, path)
          expect(res.status, path).to.equal(413)
          expect(res.body.code).to.equal('query_too_large')
          expect(res.body.error).to.contain('"xml"')
        }
        const sqlTag = (await post({}, 'new/sql:json')).body.tag
        const sql = await post({ sql: `select '${euros(340)}'` }, `${sqlTag}:json`)
        expect(sql.status).to.equal(413)
        expect(sql.body.error).to.contain('"sql"')
        const runTag = (await post({}, 'new/run:json')).body.tag
        const run = await post({ xml }, `${runTag}:json`)
        expect(run.status).to.equal(413)
        expect(run.body.error).to.contain('"xml"')
      })

      it("refuses dbm save_table's query over MAX_QUERY_BYTES (rc 1, query_too_large)", async () => {
        const answer = await dbm(svc(), session.cookie, 'save_table', { path: 'too_long', xml: `<table cols="s">${euros(340)}</table>` })
        expect(answer.rc).to.equal(1)
        expect(answer.code).to.equal('query_too_large')
        expect(answer.msg).to.contain('"xml"').and.to.contain('MAX_QUERY_BYTES')
      })
    })
  },
  { QUERY_TIMEOUT_MS: '1500', MAX_RESULT_ROWS: '500', MAX_BODY_BYTES: '4096', MAX_QUERY_BYTES: '1000', MAX_RESULT_BYTES: '20000' },
)
