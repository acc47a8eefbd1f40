import { expect } from 'chai'
import { columnFromValues, columnValues, type Column, type ColumnType, type ScalarList, type Value } from '../../engine/columns/index.js'
import { Rng } from '../../engine/columns/random.js'
import { FUNCTIONS } from '../../engine/functions/index.js'
import { runKernel, scalar } from '../helpers/kernels.js'

// Plain values (null = N/A) and deliberately simple row-by-row references.
type V = number | bigint | string | null

const WORDS = ['red', 'green', 'blue', 'Red', 'teal']
const SIZES = [0, 1, 5, 90, 500]

function randomValue(rng: Rng, type: ColumnType, na = 0.15): V {
  if (rng.next() < na) return null
  if (type === 'text') return rng.pick(WORDS)
  if (type === 'float') return rng.int(-12, 12) / 4
  return rng.int(-3, 3)
}

const randomValues = (rng: Rng, type: ColumnType, n: number, na = 0.15): V[] => Array.from({ length: n }, () => randomValue(rng, type, na))
const column = (type: ColumnType, values: readonly V[]): Column => columnFromValues(type, values)

const run = runKernel

/** A column or (sometimes) a constant, with its per-row values. */
function operand(rng: Rng, type: ColumnType, n: number): { value: Value; rows: V[] } {
  if (rng.chance(0.3)) {
    const v = randomValue(rng, type, 0.1)
    return { value: scalar(type, v), rows: Array.from({ length: n }, () => v) }
  }
  const rows = randomValues(rng, type, n)
  return { value: column(type, rows), rows }
}

const truthy = (v: V): boolean => v !== null && v !== 0
const common = (types: ColumnType[]): ColumnType =>
  types.includes('text') ? 'text' : types.includes('float') ? 'float' : types.every((t) => t === 'date') ? 'date' : 'int'

describe('engine/functions: conditionals', () => {
  describe('if(C1;V1;…;D)', () => {
    it('takes the value of the first true condition, agreeing with a reference', () => {
      const rng = new Rng(80)
      for (const n of SIZES) {
        for (let t = 0; t < 12; t++) {
          const pairs = 1 + (t % 3)
          const text = t % 4 === 3
          const types: ColumnType[] = Array.from({ length: pairs + 1 }, () => (text ? 'text' : rng.pick(['int', 'float', 'date'] as ColumnType[])))
          const conds = Array.from({ length: pairs }, () => operand(rng, rng.pick(['int', 'float'] as ColumnType[]), n))
          const values = types.map((ty) => operand(rng, ty, n))
          const args: Value[] = []
          conds.forEach((c, k) => args.push(c.value, values[k].value))
          args.push(values[pairs].value)
          const out = run('if', args, n)
          expect(out.type).to.equal(common(types))
          expect(FUNCTIONS.if.result(args.map((a) => a.type))).to.equal(common(types))
          const expected = Array.from({ length: n }, (_, r) => {
            const k = conds.findIndex((c) => truthy(c.rows[r]))
            return (k < 0 ? values[pairs] : values[k]).rows[r]
          })
          expect(columnValues(out), `if ${types.join(',')}`).to.deep.equal(expected)
        }
      }
    })

    it('reads 0/1 conditions as they are, and any other int (last row included) as true unless 0 or N/A', () => {
      const rng = new Rng(81)
      for (const last of [0, 1, 2, -1, null]) {
        const cond: V[] = [...Array.from({ length: 300 }, () => rng.int(0, 1)), last]
        const out = columnValues(run('if', [column('int', cond), scalar('int', 10), scalar('int', 20)], cond.length))
        expect(out, `last condition ${String(last)}`).to.deep.equal(cond.map((c) => (truthy(c) ? 10 : 20)))
      }
    })

    it('treats an N/A condition as false', () => {
      expect(columnValues(run('if', [column('int', [null, 1]), scalar('int', 10), scalar('int', 20)], 2))).to.deep.equal([20, 10])
    })

    it('merges the dictionaries of text results', () => {
      const out = run(
        'if',
        [column('int', [1, 0, 0]), column('text', ['b', 'x', 'y']), column('int', [0, 1, 0]), scalar('text', 'a'), column('text', ['z', 'z', null])],
        3,
      )
      expect(columnValues(out)).to.deep.equal(['b', 'a', null])
    })

    it('rejects mixed text and number results and a missing default', () => {
      expect(FUNCTIONS.if.result(['int', 'text', 'int'])).to.deep.equal({ error: 'if cannot mix text and numbers in its results' })
      expect(FUNCTIONS.if.result(['int', 'int', 'int', 'int'])).to.have.property('error')
      expect(FUNCTIONS.if.result(['text', 'int', 'int'])).to.deep.equal({ error: 'if needs a number, got text for condition 1' })
      expect(FUNCTIONS.if.result(['int', 'int', 'float'])).to.equal('float')
    })
  })

  describe('case(X;V1;R1;…;D)', () => {
    it('takes the result of the first value equal to X (N/A equals N/A), agreeing with a reference', () => {
      const rng = new Rng(81)
      for (const n of SIZES) {
        for (const xt of ['int', 'text', 'float'] as ColumnType[]) {
          const xs = randomValues(rng, xt, n)
          const vs = [randomValue(rng, xt, 0.2), randomValue(rng, xt, 0), randomValue(rng, xt, 0)]
          const list = [randomValue(rng, xt, 0), randomValue(rng, xt, 0)] as (number | string)[]
          const rs = [operand(rng, 'int', n), operand(rng, 'float', n), operand(rng, 'int', n), operand(rng, 'int', n)]
          const args: Value[] = [
            column(xt, xs),
            scalar(xt, vs[0]),
            rs[0].value,
            scalar(xt, vs[1]),
            rs[1].value,
            { kind: 'list', type: xt, values: list } as ScalarList,
            rs[2].value,
            rs[3].value,
          ]
          const expected = xs.map((x, r) => (x === vs[0] ? rs[0] : x === vs[1] ? rs[1] : list.includes(x as number | string) ? rs[2] : rs[3]).rows[r])
          const out = run('case', args, n)
          expect(out.type).to.equal('float')
          expect(columnValues(out), `case on ${xt}`).to.deep.equal(expected)
        }
      }
    })

    it('needs X, pairs and a default', () => {
      expect(FUNCTIONS.case.result(['int', 'int', 'text'])).to.have.property('error')
      expect(FUNCTIONS.case.result(['text', 'int', 'text', 'text'])).to.deep.equal({ error: 'case cannot compare text with a number' })
      expect(FUNCTIONS.case.result(['text', 'text', 'int', 'int'])).to.equal('int')
    })
  })

  describe('between(X;A;B)', () => {
    it('is 1 when A <= X <= B, inclusive, and 0 when any is N/A, agreeing with a reference', () => {
      const rng = new Rng(82)
      const ref = (x: V, a: V, b: V): number => (x === null || a === null || b === null ? 0 : a <= x && x <= b ? 1 : 0)
      for (const n of SIZES) {
        for (const type of ['int', 'float', 'date', 'text'] as ColumnType[]) {
          const xs = randomValues(rng, type, n)
          for (let t = 0; t < 3; t++) {
            const a = operand(rng, type === 'date' ? 'int' : type, n)
            const b = operand(rng, type, n)
            const out = run('between', [column(type, xs), a.value, b.value], n)
            expect(columnValues(out), `between ${type}`).to.deep.equal(xs.map((x, r) => ref(x, a.rows[r], b.rows[r])))
          }
        }
      }
    })

    it('includes both bounds', () => {
      expect(
        columnValues(run('between', [column('date', [20160601, 20160731, 20160801, null]), scalar('int', 20160601), scalar('int', 20160731)], 4)),
      ).to.deep.equal([1, 1, 0, 0])
    })

    it('rejects text bounds for numbers', () => {
      expect(FUNCTIONS.between.result(['date', 'text', 'date'])).to.deep.equal({ error: 'between cannot compare text with a date' })
    })
  })
})
