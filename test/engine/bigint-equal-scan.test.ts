/**
 * `x = k` on a big-integer (j) column runs as a scan of the values' two 32-bit words
 * (interpret/select.ts bigintEqualRows): the rows it keeps are exactly those whose value is k,
 * over the whole 64-bit range and its word boundaries, never N/A, before and after another
 * selection, in the macro language and in SQL (against sql.js).
 */
import { expect } from 'chai'
import { columnsOf, makeTable, runXml } from '../helpers/engine.js'
import { bothTablesBefore, itCompilesAsSqlite } from '../helpers/sql-answers.js'

const EDGES = [
  0n,
  1n,
  -1n,
  2n ** 31n - 1n,
  -(2n ** 31n),
  2n ** 32n - 1n,
  2n ** 32n,
  -(2n ** 32n),
  2n ** 53n + 1n,
  -(2n ** 53n) - 1n,
  2n ** 63n - 1n,
  -(2n ** 63n) + 1n,
  435090932899640449n,
  (1n << 32n) | 5n,
  5n,
]
const ROWS = 200
const values = Array.from({ length: ROWS }, (_, i) => (i % 17 === 3 ? null : EDGES[(i * 7) % EDGES.length]!))
const n = values.map((_, i) => i)
const table = () =>
  makeTable('t.big', [
    { name: 'x', type: 'bigint', values },
    { name: 'n', type: 'int', values: n },
  ])

describe('a big-integer column equal to a constant', () => {
  for (const k of [...EDGES, 2n ** 40n, -7n]) {
    it(`keeps exactly the rows holding ${k}`, () => {
      const got = columnsOf(runXml(`<base table="t.big"/><sel value="x=${k}"/>`, [table()]))
      expect(got.n).to.deep.equal(n.filter((i) => values[i] === k))
      const flipped = columnsOf(runXml(`<base table="t.big"/><sel value="n&gt;50"/><sel value="${k}=x"/>`, [table()]))
      expect(flipped.n).to.deep.equal(n.filter((i) => i > 50 && values[i] === k))
    })
  }

  describe('in SQL, as SQLite answers', () => {
    const tables = bothTablesBefore({
      'pub.big.t': [
        { name: 'x', type: 'bigint', values },
        { name: 'n', type: 'int', values: n },
      ],
    })
    itCompilesAsSqlite(
      [...EDGES.slice(0, 8), 2n ** 63n - 1n, 435090932899640449n, 2n ** 40n].flatMap((k) => [
        `select n from pub.big.t where x = ${k}`,
        `select count(*) as c from pub.big.t where ${k} = x and n < 150`,
      ]),
      tables,
    )
  })
})
