/**
 * What sql.js's errors become (engine/sql/sqlite-errors.ts, issue 38): an error the query caused
 * is a 400 with SQLite's own message; a condition of the service (a damaged image, the attach
 * limit of the build) stays a 500 INTERNAL, since no change to the query would help. And a query
 * over more than 64 tables is refused with a message naming the limit (shared/sql-table-limit.ts).
 */
import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import { checkTableCount, MAX_QUERY_TABLES } from '../../shared/sql-table-limit.js'
import { compileSql } from '../../engine/sql/compile/index.js'
import { SqlExecutor } from '../../engine/sql/execute.js'
import { sqlJs } from '../../engine/storage/sqljs.js'
import { isServiceCondition, sqlError } from '../../engine/sql/sqlite-errors.js'
import { sqliteAnswer, sqlTableOf, type BothTables } from '../helpers/sql-answers.js'
import { makeTable } from '../helpers/engine.js'
import { columnValues } from '../helpers/sql-queries.js'

async function tableOf(path: string): Promise<BothTables> {
  const defs = [{ name: 'k', type: 'int' as const, values: [1, 2, 3] }]
  const input = makeTable(path, defs)
  return { input, sql: await sqlTableOf(input, columnValues(defs)) }
}

function thrown(f: () => unknown): AppError {
  try {
    f()
  } catch (e) {
    if (e instanceof AppError) return e
    throw e
  }
  throw new Error('did not throw')
}

describe('SQL errors from sql.js: the query’s are 400s, the service’s 500s (issue 38)', function () {
  this.timeout(30_000)

  it('keeps SQLite’s message for errors the query caused', () => {
    for (const message of ['near "form": syntax error', 'no such column: x', 'integer overflow', 'string or blob too big', 'at most 64 tables in a join']) {
      const e = sqlError(new Error(message))
      expect(e.code, message).to.equal('SQL_ERROR')
      expect(e.message).to.equal(`SQL error: ${message}.`)
    }
    expect(sqlError(new Error('no such table: x.y')).code).to.equal('UNKNOWN_TABLE')
  })

  it('makes the service’s conditions INTERNAL: a damaged image, an unreadable file, the attach limit', () => {
    for (const message of [
      'database disk image is malformed',
      'file is not a database',
      'disk I/O error',
      'unable to open database file',
      'database is locked',
      'too many attached databases - max 10',
    ]) {
      expect(isServiceCondition(message), message).to.equal(true)
      expect(sqlError(new Error(message)).code, message).to.equal('INTERNAL')
    }
  })

  it('answers INTERNAL, not a 400 about the query, when a table’s image is damaged', async () => {
    const good = await tableOf('pub.err.t')
    const bytes = new Uint8Array(good.sql.image)
    const damaged = new SharedArrayBuffer(bytes.length)
    const view = new Uint8Array(damaged)
    view.set(bytes)
    // Page 2 holds the table's rows: its b-tree page header (type byte, cell count, offsets) becomes nonsense.
    const pageSize = (view[16] << 8) | view[17] || 65536
    view.fill(0xff, pageSize, pageSize + 12)
    const executor = new SqlExecutor(await sqlJs())
    const run = (image: SharedArrayBuffer, version: string) => () =>
      executor.run({ kind: 'sql', sql: 'select k from "t0"."data"', tables: [{ alias: 't0', version, image }], maxRows: 100 })
    expect(run(good.sql.image, 'sound-image')().rowCount).to.equal(3)
    const e = thrown(run(damaged, 'damaged-image'))
    expect(e.code, e.message).to.equal('INTERNAL')
    expect(e.detail.sqlite).to.equal('database disk image is malformed')
  })

  it(`refuses more than ${MAX_QUERY_TABLES} tables with a 400 that names the limit, on sql.js and before compiling`, async () => {
    expect(() => checkTableCount(MAX_QUERY_TABLES)).to.not.throw()
    const e = thrown(() => checkTableCount(MAX_QUERY_TABLES + 1))
    expect(e.code).to.equal('SQL_ERROR')
    expect(e.message)
      .to.include(`at most ${MAX_QUERY_TABLES} tables`)
      .and.include(`reads ${MAX_QUERY_TABLES + 1}`)

    const tables = await Promise.all(Array.from({ length: MAX_QUERY_TABLES + 1 }, (_, i) => tableOf(`pub.err.u${i}`)))
    const sql = tables.map((_, i) => `select k from pub.err.u${i}`).join(' union all ')
    const answer = sqliteAnswer(sql, tables)
    expect(answer).to.have.property('error').that.includes(`at most ${MAX_QUERY_TABLES} tables in a query`)
    const compiled = await compileSql(
      sql,
      tables.map((t, i) => ({ path: t.input.path, alias: `t${i}`, columns: t.input.columns.map((c) => c.spec) })),
    )
    expect(compiled).to.deep.equal({ reason: `more than ${MAX_QUERY_TABLES} tables` })
  })
})
