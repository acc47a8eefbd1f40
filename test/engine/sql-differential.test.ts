/**
 * SQL compiled to the columnar engine against sql.js, the oracle: random queries from a grammar
 * of the compiled subset (test/helpers/sql-queries.ts) over random tables (NULL in every column,
 * ties, negative numbers, -0, text with case and LIKE's wildcards, text whose UTF-16 and UTF-8
 * orders differ, dates, big integers (j) past 2^31 and 2^53 up to ±(2^63 − 1), empty tables, a
 * second table to join whose key now and then repeats), each answered both ways and compared cell
 * for cell, column names, types and widths included. Every generated ORDER BY ends with every
 * result column, so answers compare in order; without ORDER BY in SQLite's own order (the
 * table's, the groups' keys, first appearance), except a join's rows, whose order SQL leaves
 * open. A positive control keeps the test honest: most queries must compile.
 */
import { expect } from 'chai'
import { bothTablesBefore, compareRandomQueries, difference, integersAlone, sqliteResult, sqlTableOf, sqliteAnswer } from '../helpers/sql-answers.js'
import { SQL_JOINED, SQL_TABLE, SqlQueries } from '../helpers/sql-queries.js'

const QUERIES = Number(process.env.SQL_DIFF_QUERIES ?? 2000)

describe('SQL on the columnar engine agrees with sql.js', function () {
  this.timeout(600_000)

  it(`on ${QUERIES} random queries over random tables (fixed seed)`, async () => {
    const run = await compareRandomQueries(20261127, QUERIES)
    expect(run.differences.slice(0, 3)).to.deep.equal([])
    expect(run.refusedAnswered.slice(0, 3), 'SQLite refused a value the engine answered').to.deep.equal([])
    // Most generated queries are inside the subset; a compiler that declined everything would pass otherwise.
    // (About 76% of those SQLite answers that leave the big-integer columns alone compile; the
    // bound leaves room for the random stream to shift when the grammar grows: 75% of all 2,000
    // failed at 1,489 when IN () was added.)
    const answered = QUERIES - run.sqliteErrors
    expect(run.compiled - run.bigCompiled).to.be.greaterThan((answered - run.bigQueries) * 0.7)
    // About a quarter of the queries read a j column (the generator's BIG_SHARE, less those that
    // drew no j column, only big literals).
    expect(run.bigQueries).to.be.greaterThan(answered * 0.2)
    // About 57% of those compile since the compiler reads j columns (82e5b19); the rest reach a
    // value past 2^53 in arithmetic, an aggregate or text, or join a j key with a computed one.
    expect(run.bigCompiled).to.be.greaterThan(run.bigQueries * 0.4)
    // Each scalar feature of the grammar really ran on the engine, in a fair number of queries:
    // one that fell back to sql.js silently would leave its count near 0.
    for (const [feature, n] of Object.entries(run.features)) expect(n, feature).to.be.greaterThan(QUERIES / 100)
  })
})

describe('SQL differential test: its big integers (j columns)', () => {
  it('the random tables hold j values past 2^31 and 2^53, ±(2^63 − 1) and NULL, which SQLite reads to the last digit', async () => {
    const gen = new SqlQueries(20261127)
    const seen = new Set<string>()
    for (let n = 0; n < 40; n++) {
      const made = gen.tables()
      const tables = await Promise.all(made.map(async ({ input, data }) => ({ input, sql: await sqlTableOf(input, data) })))
      for (const [t, column] of [
        [0, 'jv'],
        [1, 'jk'],
      ] as const) {
        const values = made[t].data[made[t].input.columns.findIndex((c) => c.spec.name === column)] as BigInt64Array
        const path = t === 0 ? SQL_TABLE : SQL_JOINED
        const got = sqliteResult(`SELECT CAST(${column} AS TEXT) FROM ${path}`, tables)
        const text = got.columns[0].kind === 'text' ? got.columns[0].data : []
        expect(text).to.deep.equal(Array.from(values, (v) => (v === -(2n ** 63n) ? '' : String(v))))
        for (const v of values) {
          const big = v > 2n ** 53n || v < -(2n ** 53n) ? 'past 2^53' : v > 2n ** 31n || v < -(2n ** 31n) ? 'past 2^31' : String(v)
          seen.add(v === -(2n ** 63n) ? 'NULL' : v === 2n ** 63n - 1n ? '2^63 - 1' : v === 1n - 2n ** 63n ? '-(2^63 - 1)' : big)
        }
      }
    }
    for (const v of ['NULL', 'past 2^53', 'past 2^31', '2^63 - 1', '-(2^63 - 1)', '0', '-5', '5']) expect(seen, v).to.include(v)
  })

  it('the queries read j columns as SQL reads an int: compared, joined, grouped, ordered, summed, cast, beside literals past 2^53', () => {
    const gen = new SqlQueries(20261127)
    gen.tables()
    const queries = Array.from({ length: 2000 }, () => gen.query())
    const forms: Record<string, RegExp> = {
      'j = j join': /\bjv = [uy]\.jk\b|\b[uy]\.jk = (abs\()?[tx]\.jv\b/,
      'j = i join': /\b[uy]\.jk = [tx]\.[ij]\b|\b[tx]\.[ij] = [uy]\.jk\b|\b[tx]\.jv = [uy]\.k\b|\b[uy]\.k = [tx]\.jv\b/,
      'GROUP BY': /GROUP BY [^)]*\bjv\b/,
      'ORDER BY': /(ORDER BY|OVER \(ORDER BY) jv\b/,
      DISTINCT: /SELECT DISTINCT [^,]*\bjv\b/,
      'sum/avg/total/min/max/count': /\b(sum|avg|total|min|max|count)\(jv\)/,
      'IN list': /\bjv (NOT )?IN \(/,
      CASE: /CASE jv WHEN/,
      coalesce: /coalesce\(jv, /,
      'CAST AS TEXT': /CAST\(jv AS TEXT\)/,
      arithmetic: /\bjv [-+*/%] /,
      comparison: /\bjv (=|<>|<|<=|>|>=) /,
      'literal past 2^53': /\b(9007199254740993|1152921504606846979|9223372036854775807)\b/,
    }
    for (const [form, re] of Object.entries(forms)) expect(queries.filter((q) => re.test(q)).length, form).to.be.greaterThan(5)
  })

  describe('answers compare exactly past 2^53', () => {
    bothTablesBefore({ 'pub.e.x': [{ name: 'a', type: 'int', values: [1] }] })
    const answer = (sql: string) => {
      const got = sqliteAnswer(sql, [])
      if ('error' in got) throw new Error(got.error)
      return got.result
    }

    it('a big integer one off (2^53 + 1 and 2^53) differs, as a double would not tell', () => {
      const want = answer('SELECT 9007199254740993 AS x')
      expect(want.columns[0].kind).to.equal('bigint')
      expect(difference(answer('SELECT 9007199254740992 AS x'), want)).to.match(/^column x row 0/)
      expect(difference(answer('SELECT 9007199254740993 AS x'), want)).to.equal('')
    })

    it('rows whose order SQL leaves open compare as sets, distinct values alike to 12 digits included', () => {
      const rows = (x: string, y: string) => answer(`SELECT ${x} AS x, 'a' AS s UNION ALL SELECT ${y}, 'a'`)
      const want = rows('1099511627776.0', '1099511627780.5')
      expect(difference(rows('1099511627780.5', '1099511627776.0'), want, true)).to.equal('')
      expect(difference(rows('1099511627780.5', '1099511627776.0'), want, false)).to.match(/^column x row 0/)
      expect(difference(rows('1099511627780.5', '1099511627780.5'), want, true)).to.match(/^column x row /)
    })

    it('a real one rounding off (2^60 and the next double) differs in a query of integers alone, not among reals', () => {
      const want = answer('SELECT CAST(1152921504606846979 AS REAL) AS x')
      const next = answer('SELECT 1152921504606847232.0 AS x')
      expect(difference(next, want, false, true)).to.match(/^column x row 0/)
      expect(difference(next, want, false, false)).to.equal('')
      expect(integersAlone("SELECT avg(jv), total(jv) FROM t WHERE s = '1.5' AND jv > 9007199254740993")).to.equal(true)
      for (const sql of [
        'SELECT avg(jv + f) FROM t',
        'SELECT jv + 0.5 FROM t',
        'SELECT CAST(jv AS REAL) FROM t',
        'SELECT sum(w) FROM u',
        'SELECT 1e3 FROM t',
        'SELECT * FROM t',
      ])
        expect(integersAlone(sql), sql).to.equal(false)
    })
  })
})
