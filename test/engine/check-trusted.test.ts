/**
 * What the interpreter no longer checks because the checker does (engine/check/checked.ts): each
 * query is refused by checkQuery alone, before anything runs, with the message the API answers.
 * And what the interpreter still checks, because only the data can tell: the columns past a
 * cross-tabulation.
 */
import { expect } from 'chai'
import { checkQuery } from '../../engine/check/index.js'
import { parseQuery } from '../../engine/parse/index.js'
import { AppError } from '../../shared/errors.js'
import type { ColumnSpec } from '../../shared/table.js'
import { makeTable, runXml } from '../helpers/engine.js'

const SCHEMAS = new Map<string, readonly ColumnSpec[]>([
  [
    't.kgv',
    [
      { name: 'k', type: 'int' },
      { name: 'g', type: 'text' },
      { name: 'v', type: 'float' },
    ],
  ],
])

function checkError(xml: string): AppError {
  const ops = parseQuery(xml, {})
  try {
    checkQuery(ops, SCHEMAS)
  } catch (err) {
    expect(err).to.be.instanceOf(AppError)
    return err as AppError
  }
  return expect.fail(`checkQuery passed ${xml}`)
}

const BASE = '<base table="t.kgv"/>'

/** [what the interpreter used to refuse, the query, the message the checker gives]. */
const REFUSED: [string, string, string | RegExp][] = [
  ['an unknown function', `${BASE}<willbe name="x" value="frob(k)"/>`, /Unknown function "frob"/],
  ['an unknown operator function inside a call', `${BASE}<willbe name="x" value="abs(frob(k))"/>`, /Unknown function "frob"/],
  ['an unknown summary', `${BASE}<tabu breaks="g"><tcol source="v" fun="frob"/></tabu>`, /Unknown summary fun="frob"/],
  ['too few arguments', `${BASE}<willbe name="x" value="g_sum(g)"/>`, /g_sum\(\) takes/],
  ['too many arguments', `${BASE}<willbe name="x" value="abs(k;v)"/>`, /abs\(\) takes/],
  ['a column list as a value argument', `${BASE}<willbe name="x" value="max(k v)"/>`, /A list of columns \(k v\) is only allowed as a G or O argument/],
  ['a list of values as a willbe', `${BASE}<willbe name="x" value="1 2"/>`, /A list of values cannot be a column; <willbe name="x">/],
  ['a list of values as a selection', `${BASE}<sel value="1 2"/>`, /A selection must be a 0\/1 expression/],
  // These two reached the interpreter before the checker looked at them: the message is the one it gave.
  ['a list of values as a tcol source', `${BASE}<tabu breaks="g"><tcol source="1 2" fun="sum"/></tabu>`, 'A list of values cannot be a column.'],
  ['a list of values as a tcol weight', `${BASE}<tabu breaks="g"><tcol source="v" weight="1 2" fun="wavg"/></tabu>`, 'A list of values cannot be a column.'],
]

describe('checkQuery() refuses what the interpreter trusts it to', () => {
  for (const [what, xml, message] of REFUSED) {
    it(`refuses ${what}`, () => {
      const err = checkError(xml)
      expect(err.code).to.equal('CHECK_ERROR')
      if (typeof message === 'string') expect(err.message).to.equal(message)
      else expect(err.message).to.match(message)
    })
  }

  it('still names a text list as a tcol source by its type first, as before', () => {
    const err = checkError(`${BASE}<tabu breaks="g"><tcol source="'a' 'b'" fun="sum"/></tabu>`)
    expect(err.message).to.match(/needs a numeric source, got text/)
  })

  it('refuses a list of values as a tcol source in the checker, not later', () => {
    const ops = parseQuery(`${BASE}<tabu breaks="g"><tcol source="'a' 'b'" fun="cnt"/></tabu>`, {})
    expect(() => checkQuery(ops, SCHEMAS)).to.throw(AppError, 'A list of values cannot be a column.')
  })
})

describe('the interpreter still checks the columns a cross-tabulation makes', () => {
  const T = makeTable('t.x', [
    { name: 'a', type: 'text', values: ['p', 'q', 'p'] },
    { name: 'b', type: 'int', values: [1, 2, 3] },
  ])
  const CROSS = '<base table="t.x"/><tabu cbreaks="a"><tcol source="b" fun="sum"/></tabu>'

  it('tells an unknown column the checker could not know of', () => {
    expect(() => runXml(`${CROSS}<willbe name="z" value="nope+1"/>`, [T])).to.throw(AppError, 'Unknown column "nope".')
  })

  it('tells a new name that one of the data-made columns already has', () => {
    expect(() => runXml(`${CROSS}<willbe name="m0" value="1"/>`, [T])).to.throw(AppError, /A column named "m0" already exists/)
  })

  it('tells text where a number belongs, which the checker took for a number', () => {
    const first = '<base table="t.x"/><tabu cbreaks="b"><tcol source="a" fun="first"/></tabu>'
    expect(() => runXml(`${first}<willbe name="z" value="m0+1"/>`, [T])).to.throw(AppError, '+ needs numbers, got text.')
  })

  it('refuses a data-made text column as a selection instead of selecting nothing', () => {
    const first = '<base table="t.x"/><tabu cbreaks="b"><tcol source="a" fun="first"/></tabu>'
    expect(() => runXml(`${first}<sel value="m0"/>`, [T])).to.throw(
      AppError,
      'A selection must be a 0/1 expression, such as a comparison; this one gives text.',
    )
  })

  it('runs a data-made column the checker let through', () => {
    const r = runXml(`${CROSS}<willbe name="z" value="m0+m1"/>`, [T])
    expect(r.cols.map((c) => c.name)).to.include('z')
  })
})
