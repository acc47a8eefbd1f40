/**
 * Joins written as `FROM a, b, … WHERE` equalities (issue 38 part 3; sqllogictest's select5 has
 * 732 of them, none compiled): each item after the first is joined by WHERE's equalities between
 * one of its columns and a value of the items joined before it, as `JOIN … ON` would join it, in
 * FROM order where that connects, else as soon as an equality does (engine/sql/compile/comma-joins.ts).
 * Each query is answered both ways, must agree, and must have run on the engine; the shapes a link
 * cannot make (a cross join, a join on anything but an equality, a key that repeats) must not.
 */
import { expect } from 'chai'
import { compileSql } from '../../engine/sql/compile/index.js'
import { bothTablesBefore, compiledAnswer, itCompilesAsSqlite, sqliteResult } from '../helpers/sql-answers.js'

const QUERIES = [
  // FROM order joins: t2 on its unique a.
  'select t1.a, t1.x, t2.x from pub.c.t1, pub.c.t2 where t1.b = t2.a order by 1',
  'select t1.a, t2.x from pub.c.t1, pub.c.t2 where t2.a = t1.b order by 1',
  // The equality that joins, and conditions on either item, in any order.
  "select t1.a, t2.x from pub.c.t1, pub.c.t2 where t1.f > 1 and t2.a = t1.b and (t2.x <> 'q' or t1.x = 'p') order by 1",
  'select t1.a, t2.x from pub.c.t1, pub.c.t2 where t1.b = t2.a and t1.a = 4 order by 1',
  // * lists the items' columns in FROM order, whatever the order they are joined in.
  'select * from pub.c.t1, pub.c.t2 where t1.b = t2.a order by t1.a',
  'select * from pub.c.t2, pub.c.t3, pub.c.t1 where t3.a = t1.c and t1.b = t2.a order by t1.a',
  // t3 does not connect to t2: t1 is joined first.
  'select t1.a, t2.x, t3.y from pub.c.t2, pub.c.t3, pub.c.t1 where t3.a = t1.c and t1.b = t2.a order by 1',
  // Aliases, and bare names that only one item has.
  'select p.a, q.x, y from pub.c.t1 p, pub.c.t2 q, pub.c.t3 where p.b = q.a and c = t3.a order by 1',
  // A computed key (a willbe before the link), and a key of two equalities.
  'select t1.a, t2.x from pub.c.t1, pub.c.t2 where t2.a = t1.b + 1 order by 1',
  'select t1.a, t2.x from pub.c.t1, pub.c.t2 where t2.a = t1.b and t2.x = t1.x order by 1',
  // A number joined to a real (1 = 1.0 in SQLite), NULL keys matching nothing.
  'select t1.a, t3.y from pub.c.t1, pub.c.t3 where t3.r = t1.a order by 1',
  'select t3.y, t1.a from pub.c.t3, pub.c.t1 where t1.a = t3.r order by 1',
  // Text keys.
  'select t2.a, t3.y from pub.c.t2, pub.c.t3 where t3.y = t2.x order by 1',
  // Grouped and aggregated over the join.
  'select t2.x, count(*) as n, sum(t1.f) as s from pub.c.t1, pub.c.t2 where t1.b = t2.a group by t2.x',
  'select count(*) as n from pub.c.t1, pub.c.t2, pub.c.t3 where t1.b = t2.a and t1.c = t3.a',
  // A subquery as an item.
  'select s.a, t2.x from (select a, b from pub.c.t1 where a > 1) as s, pub.c.t2 where s.b = t2.a order by 1',
  'select t1.a, s.x from pub.c.t1, (select a, x from pub.c.t2) s where s.a = t1.b order by 1',
]

const TABLES = {
  'pub.c.t1': [
    { name: 'a', type: 'int', values: [1, 2, 3, 4, 5, 6] },
    { name: 'b', type: 'int', values: [20, 10, null, 50, 40, 30] },
    { name: 'c', type: 'int', values: [3, 1, 2, 4, null, 2] },
    { name: 'x', type: 'text', values: ['p', 'q', 'r', 'p', null, 's'] },
    { name: 'f', type: 'float', values: [1, 2.5, null, 4, 5, 0.5] },
  ],
  'pub.c.t2': [
    { name: 'a', type: 'int', values: [10, 20, 30, 40, null] },
    { name: 'x', type: 'text', values: ['p', 'q', 'z', null, 'p'] },
  ],
  'pub.c.t3': [
    { name: 'a', type: 'int', values: [1, 2, 3, 4] },
    { name: 'y', type: 'text', values: ['p', 'z', 'w', null] },
    { name: 'r', type: 'float', values: [1, 2.5, 3, null] },
  ],
} as const

describe('SQL: comma joins with WHERE equalities (issue 38)', () => {
  const tables = bothTablesBefore(TABLES)
  itCompilesAsSqlite(QUERIES, tables)

  const declined: Record<string, string> = {
    'a cross join': 'select t1.a, t2.a from pub.c.t1, pub.c.t2',
    'an item joined by a comparison other than =': 'select t1.a from pub.c.t1, pub.c.t2 where t1.b < t2.a',
    'an item joined by a constant only': 'select t1.a from pub.c.t1, pub.c.t2 where t2.a = 10',
    'equalities under OR': 'select t1.a from pub.c.t1, pub.c.t2 where t1.b = t2.a or t1.a = t2.a',
    'a comma join beside a JOIN': 'select t1.a from pub.c.t1, pub.c.t2 join pub.c.t3 on t3.a = t1.c where t1.b = t2.a',
    'text equal to a number': 'select t1.a from pub.c.t1, pub.c.t2 where t2.x = t1.a',
  }
  for (const [what, sql] of Object.entries(declined))
    it(`declines ${what}, which sql.js answers`, async () => {
      const c = await compileSql(
        sql,
        tables().map((t, i) => ({ path: t.input.path, alias: `t${i}`, columns: t.input.columns.map((col) => col.spec) })),
      )
      expect(c).to.have.property('reason')
      sqliteResult(sql, tables())
    })

  it('declines while running when the joined key repeats (t1.c), as JOIN … ON does', async () => {
    const sql = 'select t3.a, t1.a from pub.c.t3, pub.c.t1 where t1.c = t3.a order by 1, 2'
    expect(sqliteResult(sql, tables()).rowCount).to.equal(5)
    expect(await compiledAnswer(sql, tables())).to.equal(null)
  })
})

describe('SQL: a comma join of more tables than sql.js attaches (issue 38)', () => {
  // Twelve tables, as select5 joins up to 64: sql.js answers through one database of copies (many-tables.ts).
  const paths = Array.from({ length: 12 }, (_, i) => `pub.m.t${i}`)
  const tables = bothTablesBefore(
    Object.fromEntries(
      paths.map((p, i) => [
        p,
        [
          { name: `a${i}`, type: 'int', values: [1, 2, 3, 4, 5] },
          { name: `b${i}`, type: 'int', values: [(i % 5) + 1, ((i + 2) % 5) + 1, null, ((i + 3) % 5) + 1, ((i + 4) % 5) + 1] },
          { name: `x${i}`, type: 'text', values: ['p', 'q', `r${i}`, null, 's'] },
        ],
      ]),
    ),
  )
  const chain = paths.slice(1).map((_, i) => `a${i + 1} = b${i}`)
  itCompilesAsSqlite(
    [
      `select x0, x5, x11 from ${paths.join(', ')} where ${chain.join(' and ')} order by 1, 2, 3`,
      `select x0, x11 from ${[...paths].reverse().join(', ')} where ${[...chain].reverse().join(' and ')} and a3 > 1 order by 1, 2`,
    ],
    tables,
  )
})
