import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import type { ColumnSpec } from '../../shared/table.js'
import { checkMacro, guardSql, parseMacro } from '../../engine/compile.js'

const codeOf = (f: () => unknown): string => {
  try {
    f()
  } catch (e) {
    if (e instanceof AppError) return e.code
    throw e
  }
  throw new Error('expected an AppError')
}

const SCHEMAS = new Map<string, readonly ColumnSpec[]>([
  [
    'pub.a',
    [
      { name: 'id', type: 'int' },
      { name: 'name', type: 'text' },
    ],
  ],
  ['pub.b', [{ name: 'id', type: 'int' }]],
])

describe('engine/compile.ts: compiling a query on the gateway thread', () => {
  describe('parseMacro()', () => {
    it('gives the operations and the tables they read, in order, once each', () => {
      const parsed = parseMacro('<base table="pub.a"/><link table2="pub.b" col="id" col2="id"/><link table2="pub.a" col="id" col2="id"/>', {})
      expect(parsed.tables).to.deep.equal(['pub.a', 'pub.b'])
      expect(parsed.ops.length).to.be.at.least(3)
    })

    it('substitutes the variables it is given', () => {
      expect(parseMacro('<base table="{@t}"/>', { t: 'pub.b' }).tables).to.deep.equal(['pub.b'])
    })

    it('refuses a query that is not well-formed with PARSE_ERROR', () => {
      expect(codeOf(() => parseMacro('<base table="pub.a"', {}))).to.equal('PARSE_ERROR')
    })
  })

  describe('checkMacro()', () => {
    it('passes operations over known columns, and refuses an unknown column', () => {
      const ok = parseMacro('<base table="pub.a"/><sel value="id>1"/>', {})
      expect(checkMacro(ok.ops, SCHEMAS).length).to.be.above(0)
      const bad = parseMacro('<base table="pub.a"/><sel value="nope>1"/>', {})
      expect(['CHECK_ERROR', 'EXPR_ERROR']).to.include(codeOf(() => checkMacro(bad.ops, SCHEMAS)))
    })
  })

  describe('guardSql()', () => {
    it('gives the distinct tables a read-only statement reads', () => {
      expect(guardSql('select id from "pub.a" where id in (select id from "pub.b") or id in (select id from "pub.a")')).to.deep.equal(['pub.a', 'pub.b'])
    })

    it('refuses anything but one read-only statement', () => {
      expect(() => guardSql('delete from "pub.a"')).to.throw(AppError)
      expect(() => guardSql('select 1; select 2')).to.throw(AppError)
    })
  })
})
