/**
 * `api/sql` over many tables (issue 38): sql.js attaches at most ten databases, and a query over
 * more answered 500 with no engine header; now joins of up to SQLite's 64 tables answer SQLite's
 * answer (engine/sql/many-tables.ts), and a query over more is a 400 naming the limit
 * (shared/sql-table-limit.ts), refused before any of its tables is loaded.
 */
import { expect } from 'chai'
import { hasSqliteImage, writeTableVersion } from '../../engine/storage/index.js'
import { commitTable, ensureDir } from '../../gateway/catalog/tables.js'
import { forEachStore } from '../helpers/suites.js'
import type { TestService } from '../helpers/service.js'

const MOST = 64

/** Tables t0…t{n-1} in a new folder, each k = 1, 2, 3 and v = i, 10 i, 100 i: the folder and their versions. */
async function makeTables(svc: TestService, n: number): Promise<{ folder: string; versions: string[] }> {
  const { store, config } = svc.deps
  const folder = `manyt${Date.now() % 100_000}${Math.floor(Math.random() * 1000)}`
  await ensureDir(store, { path: folder, owner: 'admin', users: [], inherit: false })
  const versions: string[] = []
  for (let i = 0; i < n; i++) {
    const meta = await writeTableVersion(config.dataDir, {
      columns: [
        { name: 'k', type: 'int' },
        { name: 'v', type: 'int' },
      ],
      data: [Int32Array.from([1, 2, 3]), Int32Array.from([i, 10 * i, 100 * i])],
    })
    await commitTable(store, { path: `${folder}.t${i}`, owner: 'admin' }, meta)
    versions.push(meta.version)
  }
  return { folder, versions }
}

/** A join of the first n tables on k, summing every v, with a group_concat of the last (which keeps it on sql.js). */
function joinQuery(folder: string, n: number): string {
  const from = Array.from({ length: n }, (_, i) => `${folder}.t${i} a${i}`).join(', ')
  const on = Array.from({ length: n - 1 }, (_, i) => `a${i}.k = a${i + 1}.k`).join(' and ')
  const sum = Array.from({ length: n }, (_, i) => `a${i}.v`).join(' + ')
  return `select a0.k, ${sum} as total, group_concat(a${n - 1}.v) as g from ${from} where ${on} group by a0.k order by a0.k`
}

/** SQLite's answer to joinQuery over n tables. */
function joinAnswer(n: number) {
  const total = (n * (n - 1)) / 2
  return { k: [1, 2, 3], total: [total, 10 * total, 100 * total], g: [String(n - 1), String(10 * (n - 1)), String(100 * (n - 1))] }
}

forEachStore('api/sql over more tables than sql.js attaches', (svc) => {
  let folder: string
  let versions: string[]
  before(async function () {
    this.timeout(60_000)
    ;({ folder, versions } = await makeTables(svc(), MOST + 1))
  })
  const sql = async (text: string) =>
    svc()
      .http.post('/v1/api/sql:json')
      .set('Cookie', await svc().login())
      .send({ sql: text })

  for (const n of [12, MOST])
    it(`joins ${n} tables on the SQLite path and answers 200 with the engine header`, async function () {
      this.timeout(30_000)
      const res = await sql(joinQuery(folder, n))
      expect(res.status, res.text).to.equal(200)
      expect(res.headers['x-tabula-engine']).to.be.oneOf(['sqlite', 'columnar'])
      expect(res.body).to.deep.equal(joinAnswer(n))
    })

  it(`refuses a join of ${MOST + 1} tables, and ${MOST + 1} tables in UNION arms, with a 400 naming the limit`, async () => {
    const union = Array.from({ length: MOST + 1 }, (_, i) => `select k from ${folder}.t${i}`).join(' union all ')
    for (const text of [joinQuery(folder, MOST + 1), union]) {
      const res = await sql(text)
      expect(res.status, res.text).to.equal(400)
      expect(res.body.code).to.equal('sql_error')
      expect(res.body.error).to.include(`at most ${MOST} tables in a query: this one reads ${MOST + 1}`)
    }
    // Refused before its tables were loaded: the one table no other test reads never got its SQLite image.
    expect(await hasSqliteImage(svc().deps.config.dataDir, versions[MOST])).to.equal(false)
  })
})
