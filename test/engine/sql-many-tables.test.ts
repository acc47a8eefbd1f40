/**
 * SQL over more tables than sql.js attaches (issue 38: sqllogictest's select5 joins 11 to 64
 * tables, and each was a 500, "too many attached databases - max 10"). Past ten tables the worker
 * copies the rest into one attached database (engine/sql/many-tables.ts); each answer here is
 * compared with sql.js over one database holding the same tables under plain names.
 */
import { expect } from 'chai'
import { sqlJs } from '../../engine/storage/sqljs.js'
import { NA_INT } from '../../shared/table.js'
import { pointAtCopies } from '../../engine/sql/many-tables.js'
import { sqliteAnswer, sqlTableOf, type BothTables } from '../helpers/sql-answers.js'
import { makeTable } from '../helpers/engine.js'
import { columnValues } from '../helpers/sql-queries.js'

/** Table i: k = 1..4 (one NULL in odd tables), v = k * 10 + i (a float in every third), s text. */
function defsOf(i: number) {
  const k = [1, 2, 3, i % 2 === 1 ? null : 4]
  return [
    { name: 'k', type: 'int' as const, values: k },
    { name: 'v', type: i % 3 === 0 ? ('float' as const) : ('int' as const), values: k.map((x) => (x === null ? null : x * 10 + i + (i % 3 === 0 ? 0.5 : 0))) },
    { name: 's', type: 'text' as const, values: k.map((x) => (x === null ? null : `r${x}-${i}`)) },
  ]
}

async function tablesOf(n: number): Promise<BothTables[]> {
  const out: BothTables[] = []
  for (let i = 0; i < n; i++) {
    const defs = defsOf(i)
    const input = makeTable(`pub.many.t${i}`, defs)
    out.push({ input, sql: await sqlTableOf(input, columnValues(defs)) })
  }
  return out
}

/** The same tables in one plain database, named m0, m1…: the oracle. */
async function oracle(n: number, sql: string): Promise<unknown[][]> {
  const db = new (await sqlJs()).Database()
  try {
    for (let i = 0; i < n; i++) {
      const defs = defsOf(i)
      db.run(`CREATE TABLE m${i} (k INTEGER, v ${defs[1].type === 'float' ? 'REAL' : 'INTEGER'}, s TEXT)`)
      for (let r = 0; r < 4; r++) db.run(`INSERT INTO m${i} VALUES (?, ?, ?)`, [defs[0].values[r], defs[1].values[r], defs[2].values[r]])
    }
    return db.exec(sql)[0]?.values ?? []
  } finally {
    db.close()
  }
}

function rowsOf(answer: ReturnType<typeof sqliteAnswer>): unknown[][] {
  if ('error' in answer) throw new Error(answer.error)
  const r = answer.result
  const cols = r.columns.map((c) =>
    c.kind === 'text' ? c.data : c.kind === 'coded' ? Array.from(c.codes, (x) => c.dict[x]) : Array.from(c.data as ArrayLike<unknown>),
  )
  // N/A as the result set holds it (the int sentinel, NaN, empty text) is SQL's NULL; no value here is empty text.
  const sqlValue = (v: unknown) => (v === NA_INT || Number.isNaN(v) || v === '' ? null : v)
  return Array.from({ length: r.rowCount }, (_, i) => cols.map((c) => sqlValue(c[i])))
}

/** A join of tables 0..n-1 on k, with sums and a text of the last table. */
function joinQuery(n: number, name: (i: number) => string): string {
  const from = Array.from({ length: n }, (_, i) => `${name(i)} a${i}`).join(', ')
  const on = Array.from({ length: n - 1 }, (_, i) => `a${i}.k = a${i + 1}.k`).join(' and ')
  const sum = Array.from({ length: n }, (_, i) => `a${i}.v`).join(' + ')
  return `select a0.k, ${sum} as total, a${n - 1}.s from ${from} where ${on} order by a0.k`
}

describe('SQL on sql.js over more tables than it attaches (issue 38)', function () {
  this.timeout(60_000)

  for (const n of [10, 11, 12, 33, 64]) {
    it(`joins ${n} tables as sql.js over one database does`, async () => {
      const tables = await tablesOf(n)
      const got = rowsOf(
        sqliteAnswer(
          joinQuery(n, (i) => `pub.many.t${i}`),
          tables,
        ),
      )
      const want = await oracle(
        n,
        joinQuery(n, (i) => `m${i}`),
      )
      expect(got).to.deep.equal(want)
      expect(got.length, 'the join matches rows').to.be.greaterThan(0)
    })
  }

  it('keeps the copied tables’ types, NULLs and row order (rowid), and names inside strings untouched', async () => {
    const tables = await tablesOf(12)
    const sql = `select rowid, k, v, typeof(v), s, '"t11"."data"' as lit from pub.many.t11 union all select rowid, k, v, typeof(v), s, 'x' from pub.many.t9`
    const got = rowsOf(sqliteAnswer(sql, tables))
    const want = await oracle(12, sql.replace('pub.many.t11', 'm11').replace('pub.many.t9', 'm9'))
    expect(got).to.deep.equal(want)
    expect(got[0][5]).to.equal('"t11"."data"')
  })

  it('rewrites only a name tN followed by . and the name data', () => {
    const copied = new Set(['t10', 't11'])
    expect(pointAtCopies('select * from "t10"."data" join t11 . data on 1', copied)).to.equal('select * from "copies"."t10" join "copies"."t11" on 1')
    expect(pointAtCopies(`select 't10."data"', "t10"."other", "t2"."data", t10 -- "t10"."data"`, copied)).to.equal(
      `select 't10."data"', "t10"."other", "t2"."data", t10 -- "t10"."data"`,
    )
  })
})
