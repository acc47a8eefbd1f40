/**
 * The SQL kernels of SQLite's text functions and conversions (engine/functions/sql/text.ts,
 * sqlite-values.ts), each against sql.js itself on its edge cases: NULL, empty results, zero and
 * negative positions, characters beyond U+FFFF (one character to SQLite, two UTF-16 units to
 * JavaScript), numbers as text, halfway rounding; and what they decline rather than answer.
 */
import { expect } from 'chai'
import type { Database } from 'sql.js'
import { columnFromValues, columnValues, type Value } from '../../engine/columns/index.js'
import { FUNCTIONS } from '../../engine/functions/index.js'
import { fallbackOf } from '../../engine/task/outcome.js'
import { realText, sqliteRound, textToInteger, textToNumeric, textToReal } from '../../engine/functions/sql/sqlite-values.js'
import { sqlJs } from '../../engine/storage/sqljs.js'

type V = number | bigint | string | null

const text = (values: readonly (string | null)[]): Value => columnFromValues('text', values)
const nums = (values: readonly (number | null)[]): Value => columnFromValues('float', values)
const int = (value: number): Value => ({ kind: 'scalar', type: 'int', value })
const str = (value: string): Value => ({ kind: 'scalar', type: 'text', value })

function call(name: string, args: readonly Value[], rows: number): V[] {
  return columnValues(
    FUNCTIONS[name].kernel(
      args.map((value) => ({ kind: 'value' as const, value })),
      { rows },
    ),
  )
}

function declines(f: () => unknown): boolean {
  try {
    f()
    return false
  } catch (e) {
    if (fallbackOf(e)?.kind === 'sqlite') return true
    throw e
  }
}

describe('SQL text kernels agree with sql.js', () => {
  let db: Database
  before(async () => {
    db = new (await sqlJs()).Database()
  })
  after(() => db.close())

  /** sql.js's answer to one expression over bound values. */
  const sqlite = (expr: string, params: readonly (number | string | null)[] = []): V => {
    const stmt = db.prepare(`SELECT ${expr}`)
    try {
      stmt.bind(params as (number | string | null)[])
      stmt.step()
      return stmt.get()[0] as V
    } finally {
      stmt.free()
    }
  }

  const WORDS = ['hello', 'a😀b', '😀', 'x😀y😀z', 'é', 'ab']

  it('substr: 1-based, 0 and negative starts, negative lengths, characters beyond U+FFFF', () => {
    const starts = [-10, -3, -1, 0, 1, 2, 4, 9]
    const lengths = [null, -4, -1, 0, 1, 2, 10]
    for (const w of WORDS)
      for (const s of starts)
        for (const l of lengths) {
          const want = l === null ? sqlite('substr(?, ?)', [w, s]) : sqlite('substr(?, ?, ?)', [w, s, l])
          const args = [text([w, null]), int(1), nums([s, s]), ...(l === null ? [] : [nums([l, l])])]
          const got = call('$substr', args, 2)
          // '' is the engine's N/A: allowed here by E = 1.
          expect(got[0] ?? '', `substr(${w}, ${s}, ${l})`).to.equal(want)
          expect(got[1]).to.equal(null)
        }
    expect(call('$substr', [text(['abc']), int(1), nums([-2000000000])], 1)).to.deep.equal([sqlite("substr('abc', -2000000000)")])
    expect(call('$substr', [text(['abc']), int(1), nums([2.9]), nums([1.9])], 1)).to.deep.equal([sqlite("substr('abc', 2.9, 1.9)")])
    // SQLite's 64-bit arithmetic overflows here (substr('abc', -9223372036854775808) is 'ab'): declined.
    expect(declines(() => call('$substr', [text(['abc']), int(1), nums([-1e30])], 1))).to.equal(true)
  })

  it('substr declines an empty result unless told it may stand for NULL, and NULL arguments give NULL', () => {
    expect(declines(() => call('$substr', [text(['ab']), int(0), nums([5])], 1))).to.equal(true)
    expect(call('$substr', [text(['ab']), int(0), nums([null]), nums([1])], 1)).to.deep.equal([null])
    expect(call('$substr', [text(['ab']), int(0), nums([1]), nums([null])], 1)).to.deep.equal([null])
  })

  it('trim, ltrim, rtrim: spaces only by default, any characters of a set, sets beyond U+FFFF', () => {
    const values = ['  ab  ', '\tab ', 'xxaxx', '😀a😀', 'aaa', 'b😀']
    for (const fn of ['trim', 'ltrim', 'rtrim'])
      for (const v of values)
        for (const set of [null, 'x', 'a', '😀', 'xa😀']) {
          const want = set === null ? sqlite(`${fn}(?)`, [v]) : sqlite(`${fn}(?, ?)`, [v, set])
          const got = call(`$${fn}`, [text([v]), int(1), ...(set === null ? [] : [str(set)])], 1)
          expect(got[0] ?? '', `${fn}(${v}, ${set})`).to.equal(want)
        }
    expect(declines(() => call('$trim', [text(['aaa']), int(0), str('a')], 1))).to.equal(true)
  })

  it('replace and instr on characters; NULL in any argument gives NULL', () => {
    for (const [x, f, t] of [
      ['abcabc', 'b', 'XY'],
      ['aaa', 'aa', 'b'],
      ['a😀b😀', '😀', '-'],
      ['😀😀', '😀', 'é'],
    ]) {
      expect(call('$replace', [text([x]), str(f), str(t)], 1)[0]).to.equal(sqlite('replace(?, ?, ?)', [x, f, t]))
      expect(call('$instr', [text([x]), str(f)], 1)[0]).to.equal(sqlite('instr(?, ?)', [x, f]))
      expect(call('$instr', [text([x]), str(t)], 1)[0]).to.equal(sqlite('instr(?, ?)', [x, t]))
    }
    expect(call('$instr', [text(['x😀y😀z']), str('y')], 1)).to.deep.equal([sqlite("instr('x😀y😀z', 'y')")])
    expect(call('$replace', [text([null]), str('a'), str('b')], 1)).to.deep.equal([null])
    expect(call('$instr', [text(['ab', null]), text([null, 'a'])], 2)).to.deep.equal([null, null])
  })

  it('length counts characters: beyond U+FFFF once, and a lone surrogate once as the string iterator does', () => {
    const values = ['', 'abc', '😀', 'a😀b😀', 'é', '\u{10FFFF}x']
    const got = call('$length', [text(values)], values.length)
    expect(got).to.deep.equal(values.map((v) => (v === '' ? null : sqlite('length(?)', [v]))))
    // Not SQLite's to judge (sql.js would see U+FFFD): what the engine counted before, [...s].length.
    const lone = ['a\ud800b', '\udc00', '\ud800\ud800\udc00', 'x\ud800']
    expect(call('$length', [text(lone)], lone.length)).to.deep.equal(lone.map((v) => [...v].length))
  })

  it('declines text with a lone surrogate or a NUL', () => {
    expect(declines(() => call('$instr', [text(['a\ud800b']), str('b')], 1))).to.equal(true)
    expect(declines(() => call('$substr', [text(['a\0b']), int(1), nums([2])], 1))).to.equal(true)
  })

  it('|| of two texts is NULL when either is', () => {
    expect(call('$concat', [text(['a', null, 'c']), text(['x', 'y', null])], 3)).to.deep.equal(['ax', null, null])
  })

  it('numbers as text: integers plainly, reals as %!.17g, what SQLite prints uncertainly declined', () => {
    expect(call('$itext', [columnFromValues('int', [5, -7, null, 0])], 4)).to.deep.equal(['5', '-7', null, '0'])
    const reals = [1, 0.5, -2.25, 1e20, 1e16, 1e17, 1e-5, 123456789012345.6, 1 / 3, 0.1 + 0.2, 2 ** 53, 1.5e-7, -0]
    for (const r of reals) {
      const want = sqlite('CAST(? + 0.0 AS TEXT)', [r])
      const got = realText(r)
      if (got !== undefined) expect(got, String(r)).to.equal(want)
    }
    expect(realText(1)).to.equal('1.0')
    expect(realText(1e20)).to.equal('1.0e+20')
    expect(realText(-0)).to.equal('0.0')
    // 0.1 + 0.2 prints as 17 digits whose shortening SQLite decides by an inexact reading: declined.
    expect(realText(0.1)).to.equal(undefined)
    expect(declines(() => call('$rtext', [nums([0.1])], 1))).to.equal(true)
  })

  it('round: half away from zero on the decimal digits SQLite reads, a real, NULL for NULL', () => {
    const cases: [number, number][] = [
      [2.5, 0],
      [-2.5, 0],
      [0.5, 0],
      [-0.4, 0],
      [0.15, 1],
      [0.25, 1],
      [0.35, 1],
      [1.005, 2],
      [2.675, 2],
      [8.345, 2],
      [-8.345, 2],
      [1.45, 1],
      [123.456, -1],
      [1.55, 1.9],
      [-0.001, 1],
      [1e17, 2],
    ]
    for (const [x, n] of cases) {
      const want = sqlite('round(?, ?)', [x, n])
      const got = call('$round', [nums([x]), nums([n])], 1)[0]
      expect(got, `round(${x}, ${n})`).to.equal(want)
    }
    expect(call('$round', [nums([2.5, null]), nums([null, 1])], 2)).to.deep.equal([null, null])
    expect(call('$round', [nums([-2.5])], 1)).to.deep.equal([-3])
    expect(sqliteRound(-0.4, 0)).to.satisfy((v: number) => Object.is(v, 0))
  })

  it('CAST of text to INTEGER, REAL and NUMERIC reads the leading number as SQLite does', () => {
    const texts = ['1e3', ' 3.9x', 'abc', '-7', '0x1A', '  +4 ', '.5', '1.', '3.0', '3e15', '3e14', ' 12x', '-0.0', '1e20', '-', 'é']
    for (const t of texts) {
      expect(textToInteger(t), `integer ${t}`).to.equal(sqlite('CAST(? AS INTEGER)', [t]))
      expect(textToReal(t), `real ${t}`).to.equal(sqlite('CAST(? AS REAL)', [t]))
      const n = textToNumeric(t)!
      expect(n.v, `numeric ${t}`).to.equal(sqlite('CAST(? AS NUMERIC)', [t]))
      expect(n.integer ? 'integer' : 'real', `numeric type ${t}`).to.equal(sqlite('typeof(CAST(? AS NUMERIC))', [t]))
    }
    // Beyond 2^53 (SQLite saturates at 64 bits) and beyond 15 digits: declined.
    expect(textToInteger('99999999999999999999')).to.equal(undefined)
    expect(textToReal('1.23456789012345678')).to.equal(undefined)
    expect(declines(() => call('$textinteger', [text(['99999999999999999999'])], 1))).to.equal(true)
    expect(call('$tointeger', [nums([-3.9, 3.9, null])], 3)).to.deep.equal([-3, 3, null])
    expect(declines(() => call('$tointeger', [nums([1e30])], 1))).to.equal(true)
  })
})
