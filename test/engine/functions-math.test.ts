import { expect } from 'chai'
import { columnFromValues, columnValues, type Column, type ColumnType, type Value } from '../../engine/columns/index.js'
import { randomDateColumn, Rng } from '../../engine/columns/random.js'
import { FUNCTIONS } from '../../engine/functions/index.js'
import { runKernel, scalar } from '../helpers/kernels.js'

// Plain values (null = N/A) and deliberately simple row-by-row references.
type V = number | bigint | string | null

const SIZES = [0, 1, 3, 60, 500]

function randomValue(rng: Rng, type: ColumnType, na = 0.15): V {
  if (rng.next() < na) return null
  if (type === 'float') return rng.int(-80, 80) / 8
  if (rng.chance(0.02)) return rng.pick([2147483647, -2147483647])
  return rng.int(-30, 30)
}

const randomValues = (rng: Rng, type: ColumnType, n: number, na = 0.15): V[] => Array.from({ length: n }, () => randomValue(rng, type, na))
const column = (type: ColumnType, values: readonly V[]): Column => columnFromValues(type, values)

const run = runKernel

const call = (name: string, args: readonly Value[], rows: number): V[] => columnValues(run(name, args, rows))

/** Equal values, floats within a relative 1e-12. Asserts only on a mismatch (fast). */
function expectValues(actual: V[], expected: V[], what: string): void {
  expect(actual.length, what).to.equal(expected.length)
  actual.forEach((a, i) => {
    const e = expected[i]
    const same = typeof a === 'number' && typeof e === 'number' ? Math.abs(a - e) <= 1e-12 * Math.max(1, Math.abs(e)) : a === e
    if (!same) expect(a, `${what} row ${i}`).to.equal(e)
  })
}

const finite = (r: number): V => (Number.isFinite(r) ? r : null)
const inInt32 = (r: number): V => (r >= -2147483647 && r <= 2147483647 ? r : null)

/** References of the one-argument functions, on non-N/A x. */
const UNARY: Record<string, { ref: (x: number, int: boolean) => V; intKeeps: boolean | 'always' }> = {
  abs: { ref: (x) => Math.abs(x), intKeeps: true },
  ceil: { ref: (x) => Math.ceil(x), intKeeps: true },
  ceiling: { ref: (x) => Math.ceil(x), intKeeps: true },
  floor: { ref: (x) => Math.floor(x), intKeeps: true },
  int: { ref: (x) => inInt32(Math.trunc(x)), intKeeps: 'always' },
  sign: { ref: (x) => (x > 0 ? 1 : x < 0 ? -1 : 0), intKeeps: 'always' },
  sqrt: { ref: (x) => (x < 0 ? null : Math.sqrt(x)), intKeeps: false },
  exp: { ref: (x) => finite(Math.exp(x)), intKeeps: false },
  ln: { ref: (x) => (x > 0 ? Math.log(x) : null), intKeeps: false },
  log10: { ref: (x) => (x > 0 ? Math.log10(x) : null), intKeeps: false },
  log: { ref: (x) => (x > 0 ? Math.log(x) : null), intKeeps: false },
}

function refMod(x: V, y: V): V {
  if (x === null || y === null || y === 0) return null
  const r = (x as number) - (y as number) * Math.floor((x as number) / (y as number))
  return r
}

function refRound(x: V, unit: number): V {
  if (x === null) return null
  return Math.sign(x as number) * Math.floor(Math.abs(x as number) / unit + 0.5) * unit
}

function ymd(d: Date): number {
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate()
}

function dateOf(v: number): Date {
  return new Date(Date.UTC(Math.floor(v / 10000), (Math.floor(v / 100) % 100) - 1, v % 100))
}

const DATE_PARTS: Record<string, (v: number) => number> = {
  year: (v) => dateOf(v).getUTCFullYear(),
  month: (v) => dateOf(v).getUTCMonth() + 1,
  day: (v) => dateOf(v).getUTCDate(),
  yrmo: (v) => dateOf(v).getUTCFullYear() * 100 + dateOf(v).getUTCMonth() + 1,
  quarter: (v) => dateOf(v).getUTCFullYear() * 10 + Math.ceil((dateOf(v).getUTCMonth() + 1) / 3),
  weekday: (v) => dateOf(v).getUTCDay() + 1,
  dayofwk: (v) => dateOf(v).getUTCDay() + 1,
}

describe('engine/functions: math, dates and rows', () => {
  describe('i_()', () => {
    it('numbers rows from 1', () => {
      for (const n of SIZES) expect(call('i_', [], n)).to.deep.equal(Array.from({ length: n }, (_, i) => i + 1))
    })
  })

  describe('one-argument math functions', () => {
    for (const [name, spec] of Object.entries(UNARY)) {
      it(`${name} agrees with a row-by-row reference for int and float columns and constants`, () => {
        const rng = new Rng(name.length * 97 + name.charCodeAt(0))
        for (const type of ['int', 'float', 'date'] as ColumnType[]) {
          for (const n of SIZES) {
            const values = randomValues(rng, type, n)
            const out = run(name, [column(type, values)], n)
            const intOut = spec.intKeeps === 'always' || (spec.intKeeps === true && type !== 'float')
            expect(out.type, `${name}(${type})`).to.equal(intOut ? 'int' : 'float')
            expect(FUNCTIONS[name].result([type])).to.equal(out.type)
            expectValues(
              columnValues(out),
              values.map((v) => (v === null ? null : spec.ref(v as number, type !== 'float'))),
              `${name}(${type})`,
            )
          }
        }
        const c = randomValue(rng, 'float', 0)
        expectValues(
          call(name, [scalar('float', c)], 3),
          [0, 1, 2].map(() => spec.ref(c as number, false)),
          `${name}(constant)`,
        )
      })
    }
  })

  describe('mod(X;Y)', () => {
    it('agrees with a floored-modulo reference (sign of Y; Y = 0 is N/A)', () => {
      const rng = new Rng(60)
      for (const ta of ['int', 'float'] as ColumnType[]) {
        for (const tb of ['int', 'float'] as ColumnType[]) {
          for (const n of SIZES) {
            const a = randomValues(rng, ta, n)
            const b = randomValues(rng, tb, n).map((v) => (v !== null && Math.abs(v as number) > 1e6 ? 7 : v))
            expectValues(
              call('mod', [column(ta, a), column(tb, b)], n),
              a.map((x, i) => refMod(x, b[i])),
              `${ta} mod ${tb}`,
            )
            const c = rng.pick([7, -3, 0, 2.5])
            const tc = Number.isInteger(c) ? 'int' : 'float'
            expectValues(
              call('mod', [column(ta, a), scalar(tc, c)], n),
              a.map((x) => refMod(x, c)),
              `${ta} mod ${c}`,
            )
          }
        }
      }
      expect(call('mod', [column('int', [-1, 8]), scalar('int', 7)], 2)).to.deep.equal([6, 1])
    })
  })

  describe('round(X;Y)', () => {
    it('rounds to the nearest multiple of the unit, agreeing with a reference', () => {
      const rng = new Rng(61)
      for (const type of ['int', 'float'] as ColumnType[]) {
        for (const unit of [1, 10, 0.5, 0.25, 4]) {
          for (const n of SIZES) {
            const values = randomValues(rng, type, n).map((v) => (v !== null && Math.abs(v as number) > 1e6 ? 3 : v))
            const ut = Number.isInteger(unit) ? 'int' : 'float'
            const out = run('round', [column(type, values), scalar(ut, unit)], n)
            expect(out.type).to.equal(type === 'int' && ut === 'int' ? 'int' : 'float')
            expectValues(
              columnValues(out),
              values.map((v) => refRound(v, unit)),
              `round ${type} by ${unit}`,
            )
          }
        }
      }
    })

    it('rounds halves away from zero, defaults the unit to 1, and respects decimal halves', () => {
      expect(call('round', [column('float', [2.5, -2.5, 0.49])], 3)).to.deep.equal([3, -3, 0])
      expect(call('round', [column('float', [1.005, 2.675]), scalar('float', 0.01)], 2)).to.deep.equal([1.01, 2.68])
      expect(call('round', [column('int', [1234, 1250, -1250]), scalar('int', 100)], 3)).to.deep.equal([1200, 1300, -1300])
      expect(call('round', [column('int', [5]), scalar('int', 0)], 1)).to.deep.equal([null])
    })
  })

  describe('max / min', () => {
    it('take the row-wise extreme of any number of arguments, N/A if any is N/A', () => {
      const rng = new Rng(62)
      for (const name of ['max', 'min']) {
        for (const n of SIZES) {
          const types: ColumnType[] = [rng.pick(['int', 'float']), rng.pick(['int', 'float']), 'int']
          const cols = types.map((t) => randomValues(rng, t, n))
          const c = rng.int(-5, 5)
          const args: Value[] = [...types.map((t, i) => column(t, cols[i])), scalar('int', c)]
          const expected = Array.from({ length: n }, (_, r) => {
            const row = [...cols.map((v) => v[r]), c]
            return row.includes(null) ? null : (name === 'max' ? Math.max : Math.min)(...(row as number[]))
          })
          const out = run(name, args, n)
          expect(out.type).to.equal(types.includes('float') ? 'float' : 'int')
          expectValues(columnValues(out), expected, `${name} ${types.join(',')}`)
        }
      }
      expect(call('max', [column('date', [20240101]), column('date', [20230101])], 1)).to.deep.equal([20240101])
      expect(FUNCTIONS.max.result(['date', 'date'])).to.equal('date')
    })
  })

  describe('log(X;B) and pow(X;Y)', () => {
    it('takes logarithms to a base, N/A for bases of 1 or below 0', () => {
      expectValues(call('log', [column('float', [8, 100, null, -1]), scalar('int', 2)], 4), [3, Math.log(100) / Math.log(2), null, null], 'log2')
      expect(call('log', [column('float', [8]), scalar('int', 1)], 1)).to.deep.equal([null])
      expectValues(call('log', [column('float', [8]), column('int', [2])], 1), [3], 'log by column')
    })

    it('computes pow like ^', () => {
      expectValues(call('pow', [column('int', [2, null, -8]), column('float', [10, 1, 0.5])], 3), [1024, null, null], 'pow')
    })
  })

  describe('date functions', () => {
    for (const name of Object.keys(DATE_PARTS)) {
      it(`${name} agrees with a JavaScript Date reference`, () => {
        const rng = new Rng(name.charCodeAt(0) * 3 + name.length)
        for (const n of SIZES) {
          const dates = randomDateColumn(rng, n, 1890, 2110, { na: 0.15 })
          const values = columnValues(dates) as (number | null)[]
          expectValues(
            call(name, [dates], n),
            values.map((v) => (v === null ? null : DATE_PARTS[name](v))),
            name,
          )
        }
      })
    }

    it('numbers weekdays Sunday = 1 … Saturday = 7', () => {
      expect(call('weekday', [column('date', [20240107, 20240101, 20240106])], 3)).to.deep.equal([1, 2, 7])
    })

    it('gives the quarter as yyyyq and the month as yyyymm', () => {
      expect(call('quarter', [scalar('date', 20210704)], 1)).to.deep.equal([20213])
      expect(call('yrmo', [scalar('date', 20210704)], 1)).to.deep.equal([202107])
    })

    it('adds days to dates and counts days between dates, agreeing with a Date reference', () => {
      const rng = new Rng(63)
      for (const n of SIZES) {
        const a = randomDateColumn(rng, n, 1950, 2050, { na: 0.15 })
        const b = randomDateColumn(rng, n, 1950, 2050, { na: 0.15 })
        const k = randomValues(rng, 'int', n).map((v) => (v === null ? null : ((v as number) % 1000) * 37))
        const av = columnValues(a) as (number | null)[]
        const bv = columnValues(b) as (number | null)[]
        const added = run('dateadd', [a, column('int', k)], n)
        expect(added.type).to.equal('date')
        expect(columnValues(added)).to.deep.equal(
          av.map((d, i) => (d === null || k[i] === null ? null : ymd(new Date(dateOf(d).getTime() + (k[i] as number) * 86400000)))),
        )
        expect(call('datediff', [a, b], n)).to.deep.equal(
          av.map((d, i) => (d === null || bv[i] === null ? null : Math.round((dateOf(d).getTime() - dateOf(bv[i]!).getTime()) / 86400000))),
        )
      }
      expect(call('dateadd', [scalar('date', 20240228), scalar('int', 2)], 1)).to.deep.equal([20240301])
      expect(call('datediff', [scalar('date', 20240301), scalar('date', 20230301)], 1)).to.deep.equal([366])
      expect(call('dateadd', [scalar('date', 20240101), scalar('int', 2147483647)], 1)).to.deep.equal([null])
    })

    it('computes dates of a narrow range once per value (a table) and agrees with the reference and with row by row', () => {
      const rng = new Rng(64)
      const n = 200_000 // three years span about 30,000 yyyymmdd values: the table applies
      const dates = randomDateColumn(rng, n, 2022, 2024, { na: 0.1 })
      const values = columnValues(dates) as (number | null)[]
      for (const name of Object.keys(DATE_PARTS)) {
        expectValues(
          call(name, [dates], n),
          values.map((v) => (v === null ? null : DATE_PARTS[name](v))),
          `${name} through a table`,
        )
      }
      expect(call('dateadd', [dates, scalar('int', -45)], n)).to.deep.equal(
        values.map((d) => (d === null ? null : ymd(new Date(dateOf(d).getTime() - 45 * 86400000)))),
      )
      const other = randomDateColumn(rng, n, 2022, 2024, { na: 0.1 })
      const ov = columnValues(other) as (number | null)[]
      expect(call('datediff', [dates, other], n)).to.deep.equal(
        values.map((d, i) => (d === null || ov[i] === null ? null : Math.round((dateOf(d).getTime() - dateOf(ov[i]!).getTime()) / 86400000))),
      )
      // Values that are no date (day 31 of February, month 13) give what the row-by-row loop gives.
      const odd = Array.from({ length: 40_000 }, () => (rng.chance(0.05) ? null : 20230000 + rng.int(0, 13) * 100 + rng.int(0, 40)))
      for (const name of [...Object.keys(DATE_PARTS), 'dateadd', 'datediff']) {
        const args = (v: (number | null)[]): Value[] =>
          name === 'dateadd' ? [column('int', v), scalar('int', 3)] : name === 'datediff' ? [column('int', v), scalar('date', 20230315)] : [column('int', v)]
        const rowByRow = odd.map((v) => call(name, args([v]), 1)[0])
        expect(call(name, args(odd), odd.length), name).to.deep.equal(rowByRow)
      }
    })

    it('rejects text and decimals where a date belongs', () => {
      expect(FUNCTIONS.year.result(['text'])).to.deep.equal({ error: 'year needs a date, got text for D' })
      expect(FUNCTIONS.month.result(['float'])).to.deep.equal({ error: 'month needs a date, got a decimal for D' })
      expect(FUNCTIONS.year.result(['int'])).to.equal('int')
    })
  })
})
