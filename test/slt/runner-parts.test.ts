/** The sqllogictest runner's parts, on their own: reading scripts, printing values, names, statements, uploads. */
import { expect } from 'chai'
import { answerValues, fixed3, formatCell, mismatch, sqliteNumberText } from './answers.js'
import { SltDatabase } from './database.js'
import type { DbmReply, Gateway, SqlAnswer } from './gateway.js'
import { jsonWithBigInts } from './gateway.js'
import { rewriteNames } from './names.js'
import { parseScript } from './records.js'
import { readStatement } from './statements.js'

describe('sqllogictest runner: reading a script', () => {
  it('keeps the records for sqlite and leaves out the others', () => {
    const records = parseScript(
      [
        'hash-threshold 8',
        '',
        'statement ok',
        'CREATE TABLE t1(a INTEGER)',
        '',
        'skipif sqlite # not here',
        'query I nosort',
        'SELECT 1',
        '----',
        '1',
        '',
        'onlyif mysql',
        'statement ok',
        'SELECT 2',
        '',
        'onlyif sqlite',
        'query IT rowsort label-1\r',
        'SELECT a,',
        '  b FROM t1\r',
        '----',
        '30 values hashing to 0123456789abcdef0123456789abcdef',
        '',
        'query I valuesort',
        'SELECT 3',
        '',
        'halt',
      ].join('\n'),
    )
    expect(records.map((r) => r.kind)).to.deep.equal(['hash-threshold', 'statement', 'query', 'query', 'halt'])
    expect(records[2]).to.include({ types: 'IT', sort: 'rowsort', label: 'label-1', sql: 'SELECT a,\n  b FROM t1' })
    expect(records[2]).to.have.deep.property('expected', { kind: 'hash', count: 30, md5: '0123456789abcdef0123456789abcdef' })
    expect(records[3]).to.have.deep.property('expected', { kind: 'values', lines: [] })
  })

  it('names the line of a record it cannot read', () => {
    expect(() => parseScript('statement maybe\nSELECT 1\n', 'x.test')).to.throw(/x\.test:1: statement maybe/)
  })
})

describe('sqllogictest runner: printing values', () => {
  it("prints by the declared type, NULL and the empty text (tabula's N/A) as NULL", () => {
    expect([formatCell(null, 'I'), formatCell('', 'T'), formatCell(2.7, 'I'), formatCell(-2.7, 'I'), formatCell('12abc', 'I')]).to.deep.equal([
      'NULL',
      'NULL',
      '2',
      '-2',
      '12',
    ])
    expect([formatCell(1, 'R'), formatCell(-1.5, 'R'), formatCell('abc', 'R')]).to.deep.equal(['1.000', '-1.500', '0.000'])
    expect([formatCell('a\tb', 'T'), formatCell(7, 'T'), formatCell(2.5, 'T')]).to.deep.equal(['a@b', '7', '2.5'])
  })

  it('rounds %.3f as C does: the exact binary value, a tie to even', () => {
    expect([fixed3(0.0625), fixed3(0.1875), fixed3(2.0005), fixed3(-0.0625), fixed3(1234.5678)]).to.deep.equal([
      '0.062',
      '0.188',
      '2.001',
      '-0.062',
      '1234.568',
    ])
  })

  it("prints a real as SQLite's text (%!.15g)", () => {
    expect([0.1, 1 / 3, 1e20, 2.5e-7, -12.75, 123456789012345.6].map(sqliteNumberText)).to.deep.equal([
      '0.1',
      '0.333333333333333',
      '1.0e+20',
      '2.5e-07',
      '-12.75',
      '123456789012346.0',
    ])
  })

  it('sorts rows or values as printed, and compares with a row a line too', () => {
    const rows = [
      [10, 'b'],
      [9, 'a'],
    ]
    expect(answerValues(rows, 'IT', 'nosort')).to.deep.equal(['10', 'b', '9', 'a'])
    expect(answerValues(rows, 'IT', 'rowsort')).to.deep.equal(['10', 'b', '9', 'a'])
    expect(answerValues(rows, 'IT', 'valuesort')).to.deep.equal(['10', '9', 'a', 'b'])
    expect(mismatch(['1', 'x', '2', 'y'], 2, { kind: 'values', lines: ['1 x', '2 y'] })).to.equal(undefined)
    expect(mismatch(['1'], 1, { kind: 'values', lines: ['2'] })).to.match(/got \[1\], expected \[2\]/)
    expect(mismatch(['1'], 1, { kind: 'hash', count: 2, md5: '0'.repeat(32) })).to.match(/1 values where 2/)
  })
})

describe('sqllogictest runner: names', () => {
  const scope = {
    tablePath: (n: string) => (n === 't1' || n === 'tab0' ? `slt.s1.${n}` : undefined),
    viewSelect: (n: string) => (n === 'v1' ? 'SELECT a FROM t1 WHERE a > 1' : undefined),
  }
  it('gives tables their paths and leaves qualifiers, aliases, columns and strings alone', () => {
    const r = rewriteNames("SELECT t1.a, 't1' FROM t1, tab0 AS cor0 WHERE cor0.t1 = 1 AND EXISTS (SELECT 1 FROM T1)", scope)
    expect(r.sql).to.equal("SELECT t1.a, 't1' FROM slt.s1.t1, slt.s1.tab0 AS cor0 WHERE cor0.t1 = 1 AND EXISTS (SELECT 1 FROM slt.s1.t1)")
    expect([...r.tables].sort()).to.deep.equal(['t1', 'tab0'])
  })
  it('reads a view as its SELECT, named as the view unless it has an alias', () => {
    expect(rewriteNames('SELECT * FROM v1 WHERE v1.a < 5', scope).sql).to.equal('SELECT * FROM (SELECT a FROM slt.s1.t1 WHERE a > 1) AS v1 WHERE v1.a < 5')
    expect(rewriteNames('SELECT * FROM v1 x', scope).sql).to.equal('SELECT * FROM (SELECT a FROM slt.s1.t1 WHERE a > 1) x')
    expect([...rewriteNames('SELECT * FROM v1', scope).tables]).to.deep.equal(['t1'])
  })
})

describe('sqllogictest runner: statements', () => {
  it("reads CREATE TABLE with each column's affinity, skipping constraints", () => {
    expect(readStatement('CREATE TABLE t1(pk INTEGER PRIMARY KEY, x VARCHAR(8) NOT NULL, y FLOAT, z, w DECIMAL(4,2), PRIMARY KEY(pk))')).to.deep.equal({
      kind: 'create-table',
      name: 't1',
      ifNotExists: false,
      columns: [
        { name: 'pk', affinity: 'integer' },
        { name: 'x', affinity: 'text' },
        { name: 'y', affinity: 'real' },
        { name: 'z', affinity: 'none' },
        { name: 'w', affinity: 'numeric' },
      ],
    })
  })
  it('reads INSERT values: signed numbers, quoted text, NULL, expressions, integers past 2^53', () => {
    const st = readStatement("INSERT INTO t1(b,a) VALUES(-5, 'it''s'), (1.50, NULL), (1+2, 9223372036854775807)")
    expect(st).to.deep.equal({
      kind: 'insert-values',
      table: 't1',
      columns: ['b', 'a'],
      rows: [
        [
          { kind: 'value', value: -5, real: false },
          { kind: 'value', value: "it's" },
        ],
        [
          { kind: 'value', value: 1.5, real: true },
          { kind: 'value', value: null },
        ],
        [
          { kind: 'expr', text: '1+2' },
          { kind: 'value', value: 9223372036854775807n, real: false },
        ],
      ],
    })
  })
  it('knows what it cannot express, and the table it would change', () => {
    expect(readStatement('UPDATE t1 SET x = 1')).to.deep.equal({ kind: 'unsupported', reason: 'UPDATE', table: 't1' })
    expect(readStatement('CREATE TRIGGER r AFTER INSERT ON t2 BEGIN SELECT 1; END')).to.include({ kind: 'unsupported', table: 't2' })
    expect(readStatement('DELETE FROM t1 WHERE a > 3')).to.deep.equal({ kind: 'delete', table: 't1', where: 'a > 3' })
    expect(readStatement('CREATE UNIQUE INDEX i ON t1(a)')).to.deep.equal({ kind: 'no-op', what: 'CREATE INDEX' })
  })
})

describe('sqllogictest runner: uploads', () => {
  function fakeGateway(): { gateway: Gateway; uploads: Record<string, unknown>[]; queries: string[] } {
    const uploads: Record<string, unknown>[] = []
    const queries: string[] = []
    const gateway: Gateway = {
      async sql(sql): Promise<SqlAnswer> {
        queries.push(sql)
        return { status: 200, engine: 'columnar', rows: [[1, 'a']], message: undefined }
      },
      async dbm(_name, params): Promise<DbmReply> {
        uploads.push(params)
        return { rc: 0 }
      },
    }
    return { gateway, uploads, queries }
  }

  it('turns a run of INSERTs into one upload before the query that reads the table, again after a change', async () => {
    const { gateway, uploads } = fakeGateway()
    const db = new SltDatabase(gateway, 'slt.s1')
    await db.apply(readStatement('CREATE TABLE t1(a INTEGER, b TEXT, c REAL)'))
    for (const v of ['1, 2, 3', "2147483648, 'x', 0.5", 'NULL, NULL, NULL']) await db.apply(readStatement(`INSERT INTO t1 VALUES(${v})`))
    expect(await db.prepareQuery('SELECT * FROM t1')).to.deep.equal({ kind: 'ready', sql: 'SELECT * FROM slt.s1.t1' })
    await db.prepareQuery('SELECT a FROM t1')
    expect(uploads).to.have.length(1)
    expect(uploads[0]).to.deep.equal({
      path: 'slt.s1.t1',
      mode: 'replace',
      cols: [
        { name: 'a', type: 'j' },
        { name: 'b', type: 'text' },
        { name: 'c', type: 'float' },
      ],
      data: [
        [1, '2', 3],
        [2147483648, 'x', 0.5],
        [null, null, null],
      ],
    })
    await db.apply(readStatement('INSERT INTO t1 VALUES(4, 5, 6)'))
    await db.prepareQuery('SELECT a FROM t1')
    expect(uploads).to.have.length(2)
  })

  it('computes DELETE … WHERE with tabula and keeps the rows it answers', async () => {
    const { gateway, uploads, queries } = fakeGateway()
    const db = new SltDatabase(gateway, 'slt.s1')
    await db.apply(readStatement('CREATE TABLE t1(a INTEGER, b TEXT)'))
    await db.apply(readStatement("INSERT INTO t1 VALUES(1, 'a'), (2, 'b')"))
    expect(await db.apply(readStatement('DELETE FROM t1 WHERE a > 1'))).to.deep.equal({ kind: 'applied' })
    expect(queries).to.deep.equal(['SELECT * FROM slt.s1.t1 WHERE CASE WHEN (a > 1) THEN 0 ELSE 1 END'])
    await db.prepareQuery('SELECT * FROM t1')
    expect(uploads[1]).to.have.deep.property('data', [[1, 'a']])
  })

  it('skips queries on a table changed by what it cannot express', async () => {
    const { gateway } = fakeGateway()
    const db = new SltDatabase(gateway, 'slt.s1')
    await db.apply(readStatement('CREATE TABLE t1(a INTEGER)'))
    expect(await db.apply(readStatement('UPDATE t1 SET a = 2'))).to.deep.equal({ kind: 'skipped', reason: 'UPDATE' })
    expect(await db.prepareQuery('SELECT a FROM t1')).to.have.property('kind', 'skipped')
  })

  it('writes integers past 2^53 as their digits in the upload', () => {
    expect(jsonWithBigInts({ data: [[9223372036854775807n, 'x']] })).to.equal('{"data":[[9223372036854775807,"x"]]}')
  })
})
