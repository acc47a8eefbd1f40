/**
 * `api/sql` over twelve tables (issue 38): sql.js attaches at most ten databases, and such a
 * query answered 500 with no engine header; now it answers SQLite's answer (engine/sql/many-tables.ts).
 */
import { expect } from 'chai'
import { writeTableVersion } from '../../engine/storage/index.js'
import { commitTable, ensureDir } from '../../gateway/catalog/tables.js'
import { forEachStore } from '../helpers/suites.js'

const N = 12

forEachStore('api/sql over more tables than sql.js attaches', (svc) => {
  it(`joins ${N} tables on the SQLite path and answers 200 with the engine header`, async () => {
    const { store, config } = svc().deps
    const folder = `manyt${Date.now() % 100_000}`
    await ensureDir(store, { path: folder, owner: 'admin', users: [], inherit: false })
    for (let i = 0; i < N; i++) {
      const meta = await writeTableVersion(config.dataDir, {
        columns: [
          { name: 'k', type: 'int' },
          { name: 'v', type: 'int' },
        ],
        data: [Int32Array.from([1, 2, 3]), Int32Array.from([i, 10 * i, 100 * i])],
      })
      await commitTable(store, { path: `${folder}.t${i}`, owner: 'admin' }, meta)
    }
    const from = Array.from({ length: N }, (_, i) => `${folder}.t${i} a${i}`).join(', ')
    const on = Array.from({ length: N - 1 }, (_, i) => `a${i}.k = a${i + 1}.k`).join(' and ')
    const sum = Array.from({ length: N }, (_, i) => `a${i}.v`).join(' + ')
    // group_concat over a join keeps the query on sql.js whatever the compiler takes.
    const sql = `select a0.k, ${sum} as total, group_concat(a${N - 1}.v) as g from ${from} where ${on} group by a0.k order by a0.k`
    const res = await svc()
      .http.post('/v1/api/sql:json')
      .set('Cookie', await svc().login())
      .send({ sql })
    expect(res.status, res.text).to.equal(200)
    expect(res.headers['x-tabula-engine']).to.be.oneOf(['sqlite', 'columnar'])
    const total = (N * (N - 1)) / 2
    expect(res.body).to.deep.equal({ k: [1, 2, 3], total: [total, 10 * total, 100 * total], g: [String(N - 1), String(10 * (N - 1)), String(100 * (N - 1))] })
  })
})
