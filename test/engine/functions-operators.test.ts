import { expect } from 'chai'
import {
  columnFromValues,
  columnValues,
  gather,
  NA_BIGINT,
  NA_INT,
  type Column,
  type ColumnType,
  type Scalar,
  type ScalarList,
  type Value,
} from '../../engine/columns/index.js'
import { Rng } from '../../engine/columns/random.js'
import { FUNCTIONS } from '../../engine/functions/index.js'

// Plain values (null = N/A) and deliberately simple row-by-row references.
type V = number | bigint | string | null

const WORDS = ['NY', 'CA', 'TX', 'ny', 'N', 'NYC', 'ca ', 'Z']
const SIZES = [0, 1, 3, 50, 700]
const NUMERIC: ColumnType[] = ['int', 'float', 'date']

function randomValue(rng: Rng, type: ColumnType, na = 0.15): V {
  if (rng.next() < na) return null
  if (type === 'text') return rng.pick(WORDS)
  if (type === 'float') return rng.int(-40, 40) / 8
  if (rng.chance(0.03)) return rng.pick([2147483647, -2147483647, 1_500_000_000, -1_500_000_000])
  return rng.int(-20, 20)
}

const randomValues = (rng: Rng, type: ColumnType, n: number, na = 0.15): V[] => Array.from({ length: n }, () => randomValue(rng, type, na))

const column = (type: ColumnType, values: readonly V[]): Column => columnFromValues(type, values)

function scalar(type: ColumnType, v: V): Scalar {
  if (type === 'text') return { kind: 'scalar', type, value: (v as string | null) ?? '' }
  if (type === 'bigint') return { kind: 'scalar', type, value: v === null ? NA_BIGINT : BigInt(v) }
  return { kind: 'scalar', type, value: v === null ? (type === 'float' ? NaN : NA_INT) : (v as number) }
}

/** Calls a registry kernel with value arguments. */
function call(name: string, args: readonly Value[], rows: number): V[] {
  return columnValues(
    FUNCTIONS[name].kernel(
      args.map((value) => ({ kind: 'value' as const, value })),
      { rows },
    ),
  )
}

/** Equal values, floats within a relative 1e-12 (-0 and 0 alike). Asserts only on a mismatch (fast). */
function expectValues(actual: V[], expected: V[], what: string): void {
  expect(actual.length, what).to.equal(expected.length)
  actual.forEach((a, i) => {
    const e = expected[i]
    const same = typeof a === 'number' && typeof e === 'number' ? Math.abs(a - e) <= 1e-12 * Math.max(1, Math.abs(e)) : a === e
    if (!same) expect(a, `${what} row ${i}`).to.equal(e)
  })
}

/** Operand shapes: column op column, column op constant, constant op column, constant op constant. */
interface Shape {
  a: Value
  b: Value
  av: V[]
  bv: V[]
}

function shapes(rng: Rng, ta: ColumnType, tb: ColumnType, n: number): Shape[] {
  const av = randomValues(rng, ta, n)
  const bv = randomValues(rng, tb, n)
  const sa = randomValue(rng, ta, 0.2)
  const sb = randomValue(rng, tb, 0.2)
  const rep = (v: V): V[] => Array.from({ length: n }, () => v)
  return [
    { a: column(ta, av), b: column(tb, bv), av, bv },
    { a: column(ta, av), b: scalar(tb, sb), av, bv: rep(sb) },
    { a: scalar(ta, sa), b: column(tb, bv), av: rep(sa), bv },
    { a: scalar(ta, sa), b: scalar(tb, sb), av: rep(sa), bv: rep(sb) },
  ]
}

const inInt32 = (r: number): boolean => r >= -2147483647 && r <= 2147483647

/** What an int result past the 32-bit range is: an error for the whole call, not a value. */
const OVERFLOW = 'overflow'

function refArith(op: string, a: V, b: V, intResult: boolean): V | typeof OVERFLOW {
  if (a === null || b === null) return null
  const x = a as number
  const y = b as number
  let r: number
  if (op === '+') r = x + y
  else if (op === '-') r = x - y
  else if (op === '*') r = x * y
  else if (op === '/') return y === 0 ? null : x / y
  else {
    r = Math.pow(x, y)
    return Number.isFinite(r) ? r : null
  }
  return intResult && !inInt32(r) ? OVERFLOW : r
}

function refCompare(op: string, a: V, b: V): V {
  if (op === '=') return a === b ? 1 : 0
  if (op === '<>') return a === b ? 0 : 1
  if (a === null || b === null) return 0
  const c = a < b ? -1 : a > b ? 1 : 0
  return { '<': c < 0, '>': c > 0, '<=': c <= 0, '>=': c >= 0 }[op as '<'] ? 1 : 0
}

const truthy = (v: V): boolean => v !== null && v !== 0

describe('engine/functions: operators', () => {
  describe('+ - * / ^', () => {
    for (const op of ['+', '-', '*', '/', '^']) {
      it(`${op} agrees with a row-by-row reference for every numeric type pairing and operand shape`, () => {
        const rng = new Rng(op.charCodeAt(0))
        for (const ta of NUMERIC) {
          for (const tb of NUMERIC) {
            const intResult = op !== '/' && op !== '^' && ta !== 'float' && tb !== 'float'
            for (const n of SIZES) {
              for (const s of shapes(rng, ta, tb, n)) {
                const expected = s.av.map((a, i) => refArith(op, a, s.bv[i], intResult))
                const run = () =>
                  FUNCTIONS[op].kernel(
                    [
                      { kind: 'value', value: s.a },
                      { kind: 'value', value: s.b },
                    ],
                    { rows: n },
                  )
                if (expected.includes(OVERFLOW)) {
                  expect(run, `${ta} ${op} ${tb}`).to.throw(/Integer overflow: .* past the 32-bit integer range/)
                  continue
                }
                const out = run()
                expect(out.type).to.equal(intResult ? 'int' : 'float')
                expectValues(columnValues(out), expected as V[], `${ta} ${op} ${tb}`)
              }
            }
          }
        }
      })
    }

    it('keeps int + int as int, and refuses a result beyond the Int32 range rather than wrap it or give N/A', () => {
      expect(call('+', [column('int', [2147483646, 1, null]), scalar('int', 1)], 3)).to.deep.equal([2147483647, 2, null])
      expect(() => call('+', [column('int', [2147483647, 1, null]), scalar('int', 1)], 3)).to.throw(
        'Integer overflow: 2147483647 + 1 is 2147483648, past the 32-bit integer range (-2147483647 to 2147483647); write one side as a decimal (such as 1000.0) to compute in decimals.',
      )
      expect(() => call('*', [column('int', [65536, -3]), column('int', [65536, 4])], 2)).to.throw(/Integer overflow: 65536 \* 65536 is 4294967296/)
      // -2^31 is the int N/A: reaching it is past the range too, not a quiet N/A.
      expect(() => call('-', [column('int', [-2147483647]), scalar('int', 1)], 1)).to.throw(/Integer overflow: -2147483647 - 1 is -2147483648/)
    })

    it('divides to a decimal and gives N/A for division by zero', () => {
      expect(call('/', [column('int', [7, 1, 0]), column('int', [2, 0, 0])], 3)).to.deep.equal([3.5, null, null])
      expect(call('/', [column('float', [1.5]), scalar('int', 0)], 1)).to.deep.equal([null])
    })

    it('treats date ± int as a plain int', () => {
      const out = FUNCTIONS['+'].kernel(
        [
          { kind: 'value', value: column('date', [20240131]) },
          { kind: 'value', value: scalar('int', 1) },
        ],
        { rows: 1 },
      )
      expect(out.type).to.equal('int')
      expect(columnValues(out)).to.deep.equal([20240132])
    })

    it('gives N/A for powers that are not finite reals, including N/A^0', () => {
      expect(call('^', [column('float', [-8, 0, null, 2]), column('float', [0.5, -1, 0, 10])], 4)).to.deep.equal([null, null, null, 1024])
    })
  })

  describe('neg', () => {
    it('negates every numeric type, N/A staying N/A', () => {
      const rng = new Rng(20)
      for (const type of NUMERIC) {
        for (const n of SIZES) {
          const values = randomValues(rng, type, n)
          const out = FUNCTIONS.neg.kernel([{ kind: 'value', value: column(type, values) }], { rows: n })
          expect(out.type).to.equal(type === 'float' ? 'float' : 'int')
          expectValues(
            columnValues(out),
            values.map((v) => (v === null ? null : -(v as number))),
            type,
          )
        }
      }
      expect(call('neg', [scalar('int', 5)], 2)).to.deep.equal([-5, -5])
    })
  })

  describe('= <> < > <= >=', () => {
    const ops = ['=', '<>', '<', '>', '<=', '>=']

    for (const op of ops) {
      it(`${op} agrees with a row-by-row reference for numbers, text and every operand shape`, () => {
        const rng = new Rng(100 + op.length + op.charCodeAt(0))
        const pairs: [ColumnType, ColumnType][] = [...NUMERIC.flatMap((a) => NUMERIC.map((b): [ColumnType, ColumnType] => [a, b])), ['text', 'text']]
        for (const [ta, tb] of pairs) {
          for (const n of SIZES) {
            for (const s of shapes(rng, ta, tb, n)) {
              const expected = s.av.map((a, i) => refCompare(op, a, s.bv[i]))
              expectValues(call(op, [s.a, s.b], n), expected, `${ta} ${op} ${tb}`)
            }
          }
        }
      })
    }

    it('compares text columns that share a dictionary on codes', () => {
      const rng = new Rng(30)
      const values = randomValues(rng, 'text', 200)
      const a = column('text', values)
      const perm = Int32Array.from({ length: 200 }, (_, i) => (i * 37) % 200)
      const b = gather(a, perm)
      for (const op of ops)
        expectValues(
          call(op, [a, b], 200),
          values.map((v, i) => refCompare(op, v, values[perm[i]])),
          op,
        )
    })

    it('compares a text column with constants absent from its dictionary', () => {
      const a = column('text', ['b', 'd', null, 'f'])
      expect(call('<', [a, scalar('text', 'c')], 4)).to.deep.equal([1, 0, 0, 0])
      expect(call('>=', [a, scalar('text', 'c')], 4)).to.deep.equal([0, 1, 0, 1])
      expect(call('=', [a, scalar('text', 'c')], 4)).to.deep.equal([0, 0, 0, 0])
      expect(call('<=', [scalar('text', 'e'), a], 4)).to.deep.equal([0, 0, 0, 1])
    })

    it('treats N/A = N/A as 1 and N/A = x as 0, and <> as the negation', () => {
      expect(call('=', [column('int', [null, null, 5]), column('int', [null, 5, 5])], 3)).to.deep.equal([1, 0, 1])
      expect(call('<>', [column('float', [null, null, 5]), column('float', [null, 5, 5])], 3)).to.deep.equal([0, 1, 0])
      expect(call('=', [column('text', [null, 'a']), scalar('text', '')], 2)).to.deep.equal([1, 0])
      expect(call('=', [column('int', [null, 3]), scalar('int', null)], 2)).to.deep.equal([1, 0])
    })

    it('gives 0 for an ordering with an N/A operand (N/A<5 is 0, and so is N/A>5)', () => {
      expect(call('<', [column('int', [null, 4]), scalar('int', 5)], 2)).to.deep.equal([0, 1])
      expect(call('>', [column('int', [null]), scalar('float', -3e9)], 1)).to.deep.equal([0])
      expect(call('>=', [column('float', [null, 1]), scalar('float', null)], 2)).to.deep.equal([0, 0])
      expect(call('<', [column('text', [null, 'a']), scalar('text', 'b')], 2)).to.deep.equal([0, 1])
    })

    it('never returns N/A', () => {
      const rng = new Rng(31)
      for (const op of ops)
        expect(call(op, [column('float', randomValues(rng, 'float', 100, 0.5)), column('int', randomValues(rng, 'int', 100, 0.5))], 100)).to.not.include(null)
    })
  })

  describe('= and <> with a list', () => {
    function refMember(v: V, list: readonly V[]): number {
      return list.some((m) => m === v) ? 1 : 0
    }

    it('tests membership (any for =, none for <>) against a reference, short and long lists', () => {
      const rng = new Rng(40)
      for (const type of ['int', 'float', 'text', 'date'] as ColumnType[]) {
        for (const len of [1, 3, 12]) {
          for (const n of SIZES) {
            const values = randomValues(rng, type, n)
            const members = Array.from({ length: len }, () => randomValue(rng, type, 0)) as (number | string)[]
            const list = { kind: 'list', type, values: members } as ScalarList
            expectValues(
              call('=', [column(type, values), list], n),
              values.map((v) => refMember(v, members)),
              `${type} = list`,
            )
            expectValues(
              call('<>', [column(type, values), list], n),
              values.map((v) => 1 - refMember(v, members)),
              `${type} <> list`,
            )
          }
        }
      }
    })

    it("finds N/A text only through an '' member", () => {
      const list: ScalarList = { kind: 'list', type: 'text', values: ['NY', ''] }
      expect(call('=', [column('text', ['NY', null, 'CA']), list], 3)).to.deep.equal([1, 1, 0])
    })

    it('accepts a constant on the left of a list', () => {
      expect(call('=', [scalar('int', 2), { kind: 'list', type: 'int', values: [1, 2] }], 2)).to.deep.equal([1, 1])
    })
  })

  describe('& | not', () => {
    it('agree with a row-by-row reference (non-zero is true, N/A is false)', () => {
      const rng = new Rng(50)
      for (const ta of NUMERIC) {
        for (const tb of NUMERIC) {
          for (const n of SIZES) {
            for (const s of shapes(rng, ta, tb, n)) {
              expectValues(
                call('&', [s.a, s.b], n),
                s.av.map((a, i) => (truthy(a) && truthy(s.bv[i]) ? 1 : 0)),
                `${ta}&${tb}`,
              )
              expectValues(
                call('|', [s.a, s.b], n),
                s.av.map((a, i) => (truthy(a) || truthy(s.bv[i]) ? 1 : 0)),
                `${ta}|${tb}`,
              )
              expectValues(
                call('not', [s.a], n),
                s.av.map((a) => (truthy(a) ? 0 : 1)),
                `~${ta}`,
              )
            }
          }
        }
      }
    })

    it('turns N/A into false, so ~N/A is 1', () => {
      expect(call('&', [column('int', [null, 1, 2]), scalar('int', 1)], 3)).to.deep.equal([0, 1, 1])
      expect(call('not', [column('float', [null, 0, 0.5])], 3)).to.deep.equal([1, 1, 0])
    })
  })

  describe('type rules', () => {
    it('types int op int as int, and / and ^ as float', () => {
      expect(FUNCTIONS['+'].result(['int', 'date'])).to.equal('int')
      expect(FUNCTIONS['*'].result(['int', 'float'])).to.equal('float')
      expect(FUNCTIONS['/'].result(['int', 'int'])).to.equal('float')
      expect(FUNCTIONS['^'].result(['int', 'int'])).to.equal('float')
      expect(FUNCTIONS.neg.result(['date'])).to.equal('int')
    })

    it('rejects text in arithmetic and text against numbers in comparisons, saying which', () => {
      expect(FUNCTIONS['+'].result(['text', 'int'])).to.deep.equal({ error: '+ needs a number, got text for the left operand' })
      expect(FUNCTIONS['='].result(['text', 'int'])).to.deep.equal({ error: '= cannot compare text with a number' })
      expect(FUNCTIONS['<'].result(['date', 'text'])).to.deep.equal({ error: '< cannot compare text with a date' })
      expect(FUNCTIONS['&'].result(['int', 'text'])).to.deep.equal({ error: '& needs a number, got text for the right operand' })
    })

    it('lets only = and <> take a list on the right', () => {
      expect(FUNCTIONS['='].args[1].list).to.equal(true)
      expect(FUNCTIONS['<>'].args[1].list).to.equal(true)
      expect(FUNCTIONS['<'].args[1].list).to.not.equal(true)
    })
  })
})
