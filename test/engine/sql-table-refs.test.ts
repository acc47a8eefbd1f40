import { expect } from 'chai'
import initSqlJs from 'sql.js'
import type { Database } from 'sql.js'
import { AppError } from '../../shared/errors.js'
import { checkReadOnlySql, findTableRefs, quoteIdent, rewriteTableRefs, tokenize } from '../../engine/sql/index.js'

const FIND: readonly { name: string; sql: string; refs: readonly (readonly [path: string, text: string])[] }[] = [
  { name: 'a bare four-part path', sql: 'select * from pub.demo.retail.item', refs: [['pub.demo.retail.item', 'pub.demo.retail.item']] },
  { name: 'a bare path lower-cased', sql: 'SELECT * FROM Pub.Demo.Retail.Item', refs: [['pub.demo.retail.item', 'Pub.Demo.Retail.Item']] },
  { name: 'a double-quoted path', sql: 'select * from "pub.demo.retail.item"', refs: [['pub.demo.retail.item', '"pub.demo.retail.item"']] },
  { name: 'a quoted path with its case kept', sql: 'select * from "Pub.Demo.Item"', refs: [['Pub.Demo.Item', '"Pub.Demo.Item"']] },
  { name: 'a backtick path', sql: 'select * from `pub.demo.item`', refs: [['pub.demo.item', '`pub.demo.item`']] },
  { name: 'a bracketed path', sql: 'select * from [pub.demo.item]', refs: [['pub.demo.item', '[pub.demo.item]']] },
  { name: 'a quoted path with a doubled quote', sql: 'select * from "pub.demo.it""em"', refs: [['pub.demo.it"em', '"pub.demo.it""em"']] },
  {
    name: 'two-part names such as alias.column',
    sql: 'select i.store from pub.demo.retail.item i',
    refs: [
      ['i.store', 'i.store'],
      ['pub.demo.retail.item', 'pub.demo.retail.item'],
    ],
  },
  { name: 'a three-part schema.table.column name', sql: 'select t0.data.x from t', refs: [['t0.data.x', 't0.data.x']] },
  {
    name: 'refs in subqueries',
    sql: 'select * from (select store from pub.demo.retail.item where x in (select y from pub.demo.other.t))',
    refs: [
      ['pub.demo.retail.item', 'pub.demo.retail.item'],
      ['pub.demo.other.t', 'pub.demo.other.t'],
    ],
  },
  {
    name: 'both sides of a join',
    sql: 'select * from pub.a.b x join pub.a.c y on x.k = y.k',
    refs: [
      ['pub.a.b', 'pub.a.b'],
      ['pub.a.c', 'pub.a.c'],
      ['x.k', 'x.k'],
      ['y.k', 'y.k'],
    ],
  },
  {
    name: 'the same table twice',
    sql: 'select 1 from pub.a.b x, pub.a.b y',
    refs: [
      ['pub.a.b', 'pub.a.b'],
      ['pub.a.b', 'pub.a.b'],
    ],
  },
  { name: 'no single names', sql: 'select a from t', refs: [] },
  { name: 'no quoted names without a dot', sql: 'select "item" from t', refs: [] },
  { name: 'no names split by whitespace', sql: 'select pub . demo from t', refs: [] },
  { name: 'no names split by a comment', sql: 'select pub/**/.demo from t', refs: [] },
  { name: 'no names inside strings or comments', sql: "select 'pub.demo.item' /* pub.demo.item */ -- pub.demo.item\nfrom t", refs: [] },
  { name: 'no star qualifiers', sql: 'select item.* from pub.demo.item', refs: [['pub.demo.item', 'pub.demo.item']] },
  { name: 'no names mixing quoted and bare parts', sql: 'select "pub".demo.item, pub."demo" from t', refs: [] },
  { name: 'no numbers', sql: 'select 1.5, .5, 1e3 from t', refs: [] },
]

describe('findTableRefs()', () => {
  for (const c of FIND) {
    it(`finds ${c.name}`, () => {
      const refs = findTableRefs(c.sql)
      expect(refs.map((r) => [r.path, c.sql.slice(r.start, r.end)])).to.deep.equal(c.refs)
    })
  }

  it('gives offsets that slice the ref out of the text', () => {
    expect(findTableRefs('select * from pub.demo.item i')).to.deep.equal([{ path: 'pub.demo.item', start: 14, end: 27 }])
  })
})

const ALIASES: ReadonlyMap<string, string> = new Map([
  ['pub.demo.retail.item', 't0'],
  ['pub.demo.retail.store', 't1'],
  ['pub.demo.retail.codes', 't2'],
])

const REWRITE: readonly { name: string; sql: string; out: string }[] = [
  { name: 'a ref at the end of the text', sql: 'select * from pub.demo.retail.item', out: 'select * from "t0"."data" AS "item"' },
  {
    name: 'a ref before WHERE',
    sql: 'select item.store from pub.demo.retail.item where item.sales > 0',
    out: 'select item.store from "t0"."data" AS "item" where item.sales > 0',
  },
  {
    name: 'a ref before GROUP BY',
    sql: 'select store, count(*) from pub.demo.retail.item group by store',
    out: 'select store, count(*) from "t0"."data" AS "item" group by store',
  },
  { name: 'a ref before ORDER BY', sql: 'select * from pub.demo.retail.item ORDER BY 1', out: 'select * from "t0"."data" AS "item" ORDER BY 1' },
  { name: 'a ref before LIMIT', sql: 'select * from pub.demo.retail.item limit 5', out: 'select * from "t0"."data" AS "item" limit 5' },
  {
    name: 'refs before JOIN and ON',
    sql: 'select * from pub.demo.retail.item join pub.demo.retail.store on item.store = store.id',
    out: 'select * from "t0"."data" AS "item" join "t1"."data" AS "store" on item.store = store.id',
  },
  {
    name: 'a ref before LEFT OUTER JOIN and one with an alias',
    sql: 'select * from pub.demo.retail.item left outer join pub.demo.retail.store s on item.store = s.id',
    out: 'select * from "t0"."data" AS "item" left outer join "t1"."data" s on item.store = s.id',
  },
  {
    name: 'refs around NATURAL and CROSS joins and USING',
    sql: 'select * from pub.demo.retail.item natural join pub.demo.retail.store cross join pub.demo.retail.codes using (id)',
    out: 'select * from "t0"."data" AS "item" natural join "t1"."data" AS "store" cross join "t2"."data" AS "codes" using (id)',
  },
  {
    name: 'a ref with a bare alias, keeping the two-part i.store',
    sql: 'select i.store from pub.demo.retail.item i where i.store = 1',
    out: 'select i.store from "t0"."data" i where i.store = 1',
  },
  { name: 'a ref with AS alias', sql: 'select * from pub.demo.retail.item AS i', out: 'select * from "t0"."data" AS i' },
  { name: 'a ref with a quoted alias', sql: 'select * from pub.demo.retail.item "i"', out: 'select * from "t0"."data" "i"' },
  {
    name: 'a ref before a closing parenthesis',
    sql: 'select * from (select * from pub.demo.retail.item) x',
    out: 'select * from (select * from "t0"."data" AS "item") x',
  },
  {
    name: 'refs before a comma',
    sql: 'select * from pub.demo.retail.item, pub.demo.retail.store where item.store = store.id',
    out: 'select * from "t0"."data" AS "item", "t1"."data" AS "store" where item.store = store.id',
  },
  { name: 'a ref before a semicolon', sql: 'select * from pub.demo.retail.item;', out: 'select * from "t0"."data" AS "item";' },
  {
    name: 'a ref followed by a comment',
    sql: 'select * from pub.demo.retail.item /* c */ where 1',
    out: 'select * from "t0"."data" AS "item" /* c */ where 1',
  },
  {
    name: 'a self-join of the same table',
    sql: 'select a.store from pub.demo.retail.item a join pub.demo.retail.item b on a.store = b.store',
    out: 'select a.store from "t0"."data" a join "t0"."data" b on a.store = b.store',
  },
  { name: 'a double-quoted ref', sql: 'select * from "pub.demo.retail.item" where 1', out: 'select * from "t0"."data" AS "item" where 1' },
  { name: 'a backtick ref', sql: 'select * from `pub.demo.retail.item`', out: 'select * from "t0"."data" AS "item"' },
  { name: 'an upper-case bare ref', sql: 'SELECT * FROM PUB.DEMO.RETAIL.ITEM', out: 'SELECT * FROM "t0"."data" AS "item"' },
  { name: 'no quoted ref of another case', sql: 'SELECT * FROM "PUB.DEMO.RETAIL.ITEM"', out: 'SELECT * FROM "PUB.DEMO.RETAIL.ITEM"' },
  { name: 'no ref that is not in the map', sql: 'select * from pub.demo.other.t', out: 'select * from pub.demo.other.t' },
  {
    name: 'no name inside strings and comments',
    sql: "select 'pub.demo.retail.item' from pub.demo.retail.item -- pub.demo.retail.item",
    out: `select 'pub.demo.retail.item' from "t0"."data" AS "item" -- pub.demo.retail.item`,
  },
  {
    name: 'a ref in the IN-table form, which takes no alias',
    sql: 'select * from t where x in pub.demo.retail.codes',
    out: 'select * from t where x in "t2"."data"',
  },
  {
    name: 'refs on both sides of UNION',
    sql: 'select store from pub.demo.retail.item union select id from pub.demo.retail.store',
    out: 'select store from "t0"."data" AS "item" union select id from "t1"."data" AS "store"',
  },
  {
    name: 'a ref inside a common table expression',
    sql: 'with x as (select * from pub.demo.retail.item) select * from x',
    out: 'with x as (select * from "t0"."data" AS "item") select * from x',
  },
  {
    name: 'whitespace and line breaks',
    sql: 'select\n  *\nfrom\tpub.demo.retail.item\n',
    out: 'select\n  *\nfrom\t"t0"."data" AS "item"\n',
  },
  {
    name: 'a ref touching a quoted alias, which must not fuse with it',
    sql: 'select * from pub.demo.retail.item"i"',
    out: 'select * from "t0"."data" "i"',
  },
  {
    name: 'refs touching each other and a quoted name before them, without fusing',
    sql: 'select "x"pub.demo.retail.item"pub.demo.retail.store"`pub.demo.retail.codes`',
    out: 'select "x" "t0"."data" "t1"."data" "t2"."data" AS "codes"',
  },
]

describe('rewriteTableRefs()', () => {
  for (const c of REWRITE) it(`rewrites ${c.name}`, () => expect(rewriteTableRefs(c.sql, ALIASES)).to.equal(c.out))

  it('quotes an alias from the map, so it cannot end the name early', () => {
    const out = rewriteTableRefs('select * from pub.demo.retail.item', new Map([['pub.demo.retail.item', 't0"; DROP TABLE x; --']]))
    expect(out).to.equal('select * from "t0""; DROP TABLE x; --"."data" AS "item"')
    expect(() => checkReadOnlySql(out)).not.to.throw()
  })

  it('quotes the alias it adds, taken from a quoted path', () => {
    const sql = 'select * from "pub.x.it""em; drop table y"'
    const out = rewriteTableRefs(sql, new Map([['pub.x.it"em; drop table y', 't0']]))
    expect(out).to.equal('select * from "t0"."data" AS "it""em; drop table y"')
    expect(
      tokenize(out)
        .filter((t) => t.type === 'ident')
        .map((t) => t.text),
    ).to.deep.equal(['select', 'from', '"t0"', '"data"', 'AS', '"it""em; drop table y"'])
  })
})

describe('quoteIdent()', () => {
  it('wraps a name in double quotes', () => expect(quoteIdent('data')).to.equal('"data"'))
  it('doubles the double quotes inside a name', () => expect(quoteIdent('a"b""c')).to.equal('"a""b""""c"'))
  it('leaves other quote characters alone', () => expect(quoteIdent("a'`]")).to.equal('"a\'`]"'))
  it('refuses a NUL, where SQLite would stop reading', () => {
    expect(() => quoteIdent('a\0b'))
      .to.throw(AppError)
      .with.property('code', 'SQL_ERROR')
  })
})

describe('rewriteTableRefs() on SQLite', () => {
  let db: Database

  before(async () => {
    const SQL = await initSqlJs()
    db = new SQL.Database()
    // The worker's layout: one attached schema per table, each holding one table named data.
    for (const schema of ['t0', 't1', 't2']) db.run(`ATTACH ':memory:' AS ${schema}`)
    db.run('CREATE TABLE t0.data (store INTEGER, sales REAL)')
    db.run('INSERT INTO t0.data VALUES (1, 10), (1, 5), (2, 7)')
    db.run('CREATE TABLE t1.data (id INTEGER, name TEXT)')
    db.run("INSERT INTO t1.data VALUES (1, 'north'), (2, 'south')")
    db.run('CREATE TABLE t2.data (id INTEGER)')
    db.run('INSERT INTO t2.data VALUES (2)')
    db.run('PRAGMA query_only = 1')
  })

  after(() => db.close())

  const RUNS: readonly { name: string; sql: string; rows: unknown[][] }[] = [
    {
      name: 'a grouped query that qualifies columns by the last path segment',
      sql: 'select item.store, sum(item.sales) from pub.demo.retail.item group by item.store order by 1',
      rows: [
        [1, 15],
        [2, 7],
      ],
    },
    {
      name: 'a join of two paths',
      sql: 'select store.name, item.sales from pub.demo.retail.item join pub.demo.retail.store on item.store = store.id order by 2',
      rows: [
        ['north', 5],
        ['south', 7],
        ['north', 10],
      ],
    },
    {
      name: 'a self-join with aliases',
      sql: 'select a.sales, b.sales from pub.demo.retail.item a join pub.demo.retail.item b on a.store = b.store and a.sales < b.sales',
      rows: [[5, 10]],
    },
    { name: 'a double-quoted path', sql: 'select count(*) from "pub.demo.retail.item"', rows: [[3]] },
    { name: 'the IN-table form', sql: 'select name from pub.demo.retail.store where id in pub.demo.retail.codes', rows: [['south']] },
    {
      name: 'a path inside a common table expression',
      sql: 'with s as (select * from pub.demo.retail.store) select name from s where id = 1',
      rows: [['north']],
    },
  ]

  for (const c of RUNS) {
    it(`runs ${c.name}`, () => {
      checkReadOnlySql(c.sql)
      const result = db.exec(rewriteTableRefs(c.sql, ALIASES))
      expect(result[0]?.values ?? []).to.deep.equal(c.rows)
    })
  }
})
