/**
 * Comparisons with the empty text, IIF and `ELSE ''` on the compiled engine (issue 38: 15 of
 * ClickBench's 43 queries fell back to sql.js for `SearchPhrase <> ''` alone). Text the engine
 * computes is never the empty text (its '' is N/A, which a stored table's SQLite image holds as
 * NULL), so `x op ''` is the same on every row where x is not NULL, and NULL elsewhere; and a
 * result column shows NULL and '' alike, so `ELSE ''` may give N/A there. Each query is answered
 * both ways and must agree, and must have run on the engine, not fallen back.
 */
import { expect } from 'chai'
import { bothTablesBefore, compiledAnswer, difference, itCompilesAsSqlite, sqliteResult } from '../helpers/sql-answers.js'

const OPS = ['=', '<>', '!=', '<', '<=', '>', '>=']

const COMPILED = [
  ...OPS.map((op) => `select a, s ${op} '' as x, '' ${op} s as y from pub.e.t`),
  ...OPS.map((op) => `select a from pub.e.t where s ${op} ''`),
  ...OPS.map((op) => `select a from pub.e.t where not (s ${op} '')`),
  ...OPS.map((op) => `select q.a from (select upper(s) as s, a from pub.e.t) q where '' ${op} q.s`),
  "select count(*) as n from pub.e.t where s <> ''",
  "select s, count(*) as n from pub.e.t where s <> '' group by s order by n desc, s limit 10",
  "select a, case when s = '' then 1 when s <> '' then 2 else 3 end as x from pub.e.t",
  "select a, case when a > 2 then s else '' end as x from pub.e.t",
  "select a, iif(a > 2, 'big', 'small') as x from pub.e.t",
  "select a, iif(s <> '', s, 'none') as x from pub.e.t",
  'select sum(iif(a > 2, 1, 0)) as n from pub.e.t',
  "select a from pub.e.t where s <> '' and a > 1 or s = ''",
  // IS NULL and IS NOT NULL as one scan against N/A (interpret/select.ts nullTestRows).
  'select a, s from pub.e.t where s is null',
  'select a, s from pub.e.t where s is not null and a is not null',
  'select s from pub.e.t where a is null or not (s is not null)',
]

/** Forms still left to sql.js: their answer must be SQLite's all the same. */
const FALLBACK = [
  // In an ordered result, N/A and '' would sort alike: the empty text stays SQLite's.
  "select a, case when a > 2 then s else '' end as x from pub.e.t order by x, a",
  'select a, s > 1 as x from pub.e.t',
  "select a from pub.e.t where a <> ''",
  "select a, '' = '' as x from pub.e.t",
  // A group of '' and a group of NULL are two groups in SQLite.
  "select case when a > 2 then s else '' end as x, count(*) as n from pub.e.t group by x",
  "select distinct case when a > 2 then s else '' end as x from pub.e.t",
  "select x from (select a, case when a > 2 then s else '' end as x from pub.e.t) where x is null",
  "select coalesce(s, '') as x from pub.e.t",
  // A function's value may be the empty text (substr past the end): left to sql.js.
  "select a from pub.e.t where '' = substr(s, 2, 0)",
  "select a from pub.e.t where substr(s, 2) = ''",
  "select a from pub.e.t where not ('' < substr(s, 2))",
  "select a from pub.e.t where rtrim(s, ' a') > ''",
]

describe("SQL: comparisons with '', IIF and ELSE '' compile (issue 38)", () => {
  const tables = bothTablesBefore({
    'pub.e.t': [
      { name: 'a', type: 'int', values: [1, null, 3, 4, 5] },
      { name: 's', type: 'text', values: ['x', 'y', null, 'z', 'a a'] },
    ],
  })

  itCompilesAsSqlite(COMPILED, tables)

  for (const sql of FALLBACK)
    it(`${sql} (not compiled, or the same answer)`, async () => {
      const want = sqliteResult(sql, tables())
      const got = await compiledAnswer(sql, tables())
      if (got !== null) expect(difference(got, want)).to.equal('')
    })
})
