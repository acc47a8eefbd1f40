/**
 * The names the workbench's editors complete (engine/vocabulary/functions.ts): every macro
 * function the registry or the checker knows and nothing else, and SQL functions that sql.js
 * (the SQLite that answers whatever the columnar engine does not compile) really has.
 */
import { expect } from 'chai'
import { createRequire } from 'node:module'
import { macroFunctionNames, SQL_FUNCTION_NAMES } from '../../engine/index.js'
import { FUNCTIONS } from '../../engine/functions/index.js'

describe('editor vocabulary', () => {
  it('lists the macro functions of the registry by their written names, with the rewritten ones', () => {
    const names = macroFunctionNames()
    expect(names).to.deep.equal([...names].sort())
    expect(new Set(names).size).to.equal(names.length)
    for (const name of names) expect(name, name).to.match(/^[a-z][a-z0-9_]*$/)
    expect(names).to.include.members(['strupcase', 'g_sum', 'g_tshift', 'if', 'dateadd', 'splice', 'r_mapstring', 't_sum', 't_cumsum'])
    expect(names).to.not.include('neg')
    // Every registry function written with letters is offered; operators and kernels are not.
    const written = Object.keys(FUNCTIONS).filter((n) => /^[a-z]/.test(n) && n !== 'neg')
    expect(names).to.include.members(written)
    for (const name of names.filter((n) => !Object.hasOwn(FUNCTIONS, n))) {
      expect(name === 'splice' || name === 'r_mapstring' || (name.startsWith('t_') && Object.hasOwn(FUNCTIONS, `g_${name.slice(2)}`)), name).to.equal(true)
    }
  })

  it("offers only SQL functions that sql.js's SQLite has", async () => {
    const initSqlJs = createRequire(import.meta.url)('sql.js') as () => Promise<{
      Database: new () => { exec(sql: string): { values: unknown[][] }[]; close(): void }
    }>
    const SQL = await initSqlJs()
    const db = new SQL.Database()
    const known = new Set(db.exec('select distinct name from pragma_function_list')[0].values.map((v) => String(v[0])))
    db.close()
    expect(SQL_FUNCTION_NAMES.filter((n) => !known.has(n))).to.deep.equal([])
    // The compiled subset of docs/sql.md is among them.
    expect(SQL_FUNCTION_NAMES).to.include.members([
      'count',
      'sum',
      'total',
      'avg',
      'min',
      'max',
      'group_concat',
      'coalesce',
      'ifnull',
      'nullif',
      'abs',
      'lower',
      'upper',
      'length',
      'round',
      'substr',
      'substring',
      'trim',
      'ltrim',
      'rtrim',
      'replace',
      'instr',
      'row_number',
      'rank',
      'lag',
      'lead',
    ])
  })
})
