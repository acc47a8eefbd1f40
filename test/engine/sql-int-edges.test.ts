/**
 * What fuzz:sql found once its tables held 64-bit columns and its queries big literals (issue
 * 38), each reduced to its smallest form and answered both ways:
 * - an int (or date) column's NULL shares its bits with −2^31, and was equal to the literal
 *   −2147483648 (a decimal to the engine), `<>` it, and `>=` it;
 * - an `IN` list holding −2147483648 took it for N/A, so NULL rows were members;
 * - an `IN` list mixing an integer past 2^53 with a real, or with an integer past 32 bits, read
 *   every member as a double and missed the big integer.
 */
import { expect } from 'chai'
import { bothTablesBefore, itCompilesAsSqlite } from '../helpers/sql-answers.js'
import { columnsOf, makeTable, runXml } from '../helpers/engine.js'

const BIG = 1234567890123456789n
const PAST_60 = 2n ** 60n + 3n

describe('SQL: integer edges fuzz:sql found (issue 38)', () => {
  const tables = bothTablesBefore({
    'pub.e.t': [
      { name: 'i', type: 'int', values: [1, null, -2147483647, 7] },
      { name: 'd', type: 'date', values: [20240101, null, 20240102, null] },
      { name: 'jv', type: 'bigint', values: [-2147483648, null, BIG, PAST_60] },
      { name: 'k', type: 'bigint', values: [3000000000, 5, null, 1] },
    ],
  })

  itCompilesAsSqlite(
    [
      'select count(*) as n from pub.e.t where i = -2147483648',
      'select count(*) as n from pub.e.t where i <> -2147483648',
      'select count(*) as n from pub.e.t where i >= -2147483648',
      'select count(*) as n from pub.e.t where i > -2147483648',
      'select count(*) as n from pub.e.t where i < -2147483648',
      'select count(*) as n from pub.e.t where i > -3000000000',
      'select count(*) as n from pub.e.t where i > -3000000000.0',
      'select count(*) as n from pub.e.t where i in (-2147483648)',
      'select count(*) as n from pub.e.t where i in (-2147483648, 7)',
      'select count(*) as n from pub.e.t where i not in (-2147483648, 7)',
      'select count(*) as n from pub.e.t where d between -2147483648 and 20240101',
      'select count(*) as n from pub.e.t where d not between -2147483648 and 20240101',
      'select max(d) > -2147483649 as x from pub.e.t where d is null',
      'select jv from pub.e.t where jv in (-2147483648, 5) order by jv',
      'select count(*) as n from pub.e.t where jv not in (-2147483648, 5)',
      'select count(*) as n from pub.e.t where jv in (1234567890123456789, 0.5)',
      'select count(*) as n from pub.e.t where jv in (1234567890123456789, -2147483648)',
      'select jv from pub.e.t where jv in (1152921504606846979, 3000000000) order by jv',
      'select jv from pub.e.t where jv not in (1152921504606846979, 0.5) order by jv',
      'select k from pub.e.t where k in (3000000000, 1.0, 2.5) order by k',
      'select count(*) as n from pub.e.t where i in (1.0, 9007199254740993)',
    ],
    tables,
  )
})

describe('the macro language: −2^31 written as a number is not the int N/A (issue 38)', () => {
  const table = makeTable('pub.e.m', [{ name: 'i', type: 'int', values: [1, null, -2147483647] }])
  const count = (cond: string): unknown =>
    columnsOf(runXml(`<base table="pub.e.m"/><sel value="${cond}"/><tabu><tcol fun="cnt" name="n"/></tabu>`, [table])).n[0]
  const cases: [string, number][] = [
    ['i=-2147483648', 0],
    ['i=-2147483648.0', 0],
    ['i<>-2147483648.0', 3],
    ['i>=-2147483648.0', 2],
    ['i>-3000000000', 2],
    ['i<-2147483648.0', 0],
    ['i=-2147483648.0 1', 1],
    ['(i=-2147483648.0)+0=1', 0],
    ['i=-2147483647', 1],
  ]
  for (const [cond, n] of cases) it(`${cond} holds on ${n} rows`, () => expect(count(cond)).to.equal(n))
})
