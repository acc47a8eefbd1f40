/**
 * api/sql through the gateway on both engines: a query of the compiled subset runs on the
 * columnar engine and says so (X-Tabula-Engine: columnar, and the access log), one outside it on
 * sql.js (sqlite), with the same answer for the same question; a compiled query whose data it
 * cannot answer exactly (an integer beyond 2^53) runs on sql.js instead of answering wrong.
 */
import { expect } from 'chai'
import { forEachStore } from '../helpers/suites.js'
import { commitTable, ensureDir } from '../../gateway/catalog/tables.js'
import { writeTableVersion } from '../../engine/storage/index.js'

const ITEM = 'pub.demo.retail.item'

forEachStore('api/sql on the columnar engine', (svc, kind) => {
  let cookie: string
  const sql = (text: string, format = 'json') => svc().http.post(`/v1/api/sql:${format}`).set('Cookie', cookie).send({ sql: text })

  before(async () => {
    cookie = await svc().login()
  })

  const compiledQueries: readonly string[] = [
    `select store, count(*) n, sum(sales) s, avg(sales) a from ${ITEM} group by store`,
    `select trans, store, sales * 2 AS twice from ${ITEM} where store in (1, 2) and sales > 10 order by sales desc, trans limit 7`,
    `select count(distinct store), min(sales), max(sales), total(sales) from ${ITEM} where sales between 5 and 50`,
    // SQLite's scalar functions and group_concat (in row order) compile too.
    `select store, round(sum(sales), 1) r, group_concat(trans, ';') g, count(*) n from ${ITEM} where trans <= 30 group by store`,
    `select trans, upper(substr(payment, 2, 3)) p3, ltrim(payment, 'C') t, replace(payment, 'a', '@') r, instr(payment, 'a') i, payment || '/' || store ps, cast(sales as integer) si, cast(qty as real) q, cast(payment as numeric) pn from ${ITEM} where trans <= 40`,
    // Joins to tables whose keys are unique: links.
    `select s.region, p.brand, count(*) n, sum(i.sales) total from ${ITEM} i join pub.demo.retail.stores s on i.store = s.store left join pub.demo.retail.products p on p.sku = i.sku group by 1, 2 order by 4 desc, 1, 2 limit 20`,
    // A subquery in FROM, WITH, UNION ALL and window functions.
    `select store, n from (select store, count(*) n from ${ITEM} group by store) where n > 2 order by n desc, store`,
    `with big as (select store, sku, sales from ${ITEM} where sales > 20) select b.store, count(*) n from big b join pub.demo.retail.stores s on b.store = s.store group by 1 order by 1`,
    `select store, sales from ${ITEM} where sales > 60 union all select store, -sales from ${ITEM} where sales < 2 order by 1, 2`,
    `select trans, store, sales, sum(sales) over (partition by store order by trans) run, rank() over (order by store) r from ${ITEM} order by trans limit 30`,
  ]
  // The same question through a form outside the subset (a subquery in WHERE): sql.js answers it.
  const pairs = compiledQueries.map((q) => [q, `select * from (${q}) where (select 1)`] as const)

  for (const [compiled, fallback] of pairs) {
    it(`answers ${compiled.slice(0, 60)}… on the columnar engine as sql.js does`, async () => {
      const a = await sql(compiled)
      const b = await sql(fallback)
      expect(a.status, JSON.stringify(a.body)).to.equal(200)
      expect(a.headers['x-tabula-engine']).to.equal('columnar')
      expect(b.headers['x-tabula-engine']).to.equal('sqlite')
      expect(Object.keys(a.body)).to.deep.equal(Object.keys(b.body))
      for (const name of Object.keys(a.body)) {
        const x = a.body[name] as unknown[]
        const y = b.body[name] as unknown[]
        expect(x.length, name).to.equal(y.length)
        x.forEach((v, i) =>
          typeof v === 'number'
            ? expect(v, `${name}[${i}]`).to.be.closeTo(y[i] as number, 1e-9 * Math.max(1, Math.abs(v)))
            : expect(v, `${name}[${i}]`).to.equal(y[i]),
        )
      }
      // The access log says which engine answered (the in-process services collect their log lines).
      if (kind !== 'cluster') {
        const lines = svc().logs.filter(
          (l) => l.msg === 'request' && l.route !== undefined && typeof l.path === 'string' && (l.path as string).startsWith('/v1/api/sql'),
        )
        expect(lines.map((l) => l.engine)).to.include.members(['columnar', 'sqlite'])
      }
      // The index widget reads the compiled result like any other.
      const cols = await svc().http.post('/v1/api/sql/!cols:json').set('Cookie', cookie).send({})
      expect(cols.status).to.equal(200)
    })
  }

  it('runs on sql.js a compiled query whose integers leave the exact range, with sql.js’s answer', async () => {
    const { store, config } = svc().deps
    await ensureDir(store, { path: 'big', owner: 'admin', users: [], inherit: false })
    const meta = await writeTableVersion(config.dataDir, { columns: [{ name: 'x', type: 'int' }], data: [Int32Array.from([2_000_000_000, 3, -7])] })
    await commitTable(store, { path: 'big.ints', owner: 'admin' }, meta)
    const small = await sql('select x * 2 as y from big.ints where x < 10')
    expect(small.headers['x-tabula-engine']).to.equal('columnar')
    expect(small.body).to.deep.equal({ y: [6, -14] })
    const cube = await sql('select x * x * x as c from big.ints')
    expect(cube.status).to.equal(200)
    expect(cube.headers['x-tabula-engine']).to.equal('sqlite')
    expect(cube.body.c[1]).to.equal(27)
    expect(cube.body.c[0]).to.equal(8e27)
  })

  it('answers a query outside the subset on sql.js, and an error as sql.js words it', async () => {
    // A join whose key repeats in the joined table gives several rows a row: sql.js answers it.
    const join = await sql(`select count(*) n from ${ITEM} a join ${ITEM} b on a.store = b.store where a.trans < 3`)
    expect(join.status).to.equal(200)
    expect(join.headers['x-tabula-engine']).to.equal('sqlite')
    const bad = await sql(`select nosuch from ${ITEM}`)
    expect(bad.status).to.equal(400)
    expect(bad.body.code).to.equal('sql_error')
  })
})
