/**
 * The SQL window kernels (engine/functions/sql/window.ts) against a slow reference written from
 * SQL's definitions, on random data with N/A in every key and value, ties, text keys, keys up and
 * down, several partitions or one, and empty inputs: the frame of a row is every row of its
 * partition that comes before it or is its peer; rank counts the rows before it; row_number, lag
 * and lead are defined only without ties (the kernels decline otherwise).
 */
import { expect } from 'chai'
import { columnFromValues, columnValues, type Value } from '../../engine/columns/index.js'
import { Rng } from '../../engine/columns/random.js'
import { FUNCTIONS } from '../../engine/functions/index.js'
import { fallbackOf } from '../../engine/task/outcome.js'

type Cell = number | string | null
interface Key {
  readonly letter: 'p' | 'u' | 'd'
  readonly type: 'int' | 'float' | 'text'
  readonly values: readonly Cell[]
}

function call(name: string, args: readonly Value[], rows: number): Cell[] | 'declined' {
  try {
    return columnValues(
      FUNCTIONS[name].kernel(
        args.map((value) => ({ kind: 'value' as const, value })),
        { rows },
      ),
    ) as Cell[]
  } catch (e) {
    if (fallbackOf(e)?.kind === 'sqlite') return 'declined'
    throw e
  }
}

const str = (value: string): Value => ({ kind: 'scalar', type: 'text', value })
const int = (value: number): Value => ({ kind: 'scalar', type: 'int', value })

/** SQL's order of two values: NULL first going up, last going down. */
function compare(a: Cell, b: Cell, down: boolean): number {
  if (a === null || b === null) return a === b ? 0 : (a === null) !== down ? -1 : 1
  const c = a < b ? -1 : a > b ? 1 : 0
  return down ? -c : c
}

/** The reference's view of a window: partition test and order between two rows. */
function windowOf(keys: readonly Key[]) {
  const same = (a: number, b: number) => keys.filter((k) => k.letter === 'p').every((k) => compare(k.values[a], k.values[b], false) === 0)
  const order = (a: number, b: number) => {
    for (const k of keys.filter((x) => x.letter !== 'p')) {
      const c = compare(k.values[a], k.values[b], k.letter === 'd')
      if (c !== 0) return c
    }
    return 0
  }
  return { same, order }
}

function reference(keys: readonly Key[], x: readonly (number | null)[], rows: number) {
  const { same, order } = windowOf(keys)
  const all = Array.from({ length: rows }, (_, r) => r)
  const frame = (r: number) => all.filter((s) => same(s, r) && order(s, r) <= 0)
  const before = (r: number) => all.filter((s) => same(s, r) && order(s, r) < 0).length
  const tied = all.some((r) => all.some((s) => s !== r && same(s, r) && order(s, r) === 0))
  const sum = (r: number) => {
    const v = frame(r)
      .map((s) => x[s])
      .filter((y): y is number => y !== null)
    return v.length === 0 ? null : v.reduce((a, b) => a + b, 0)
  }
  const avg = (r: number) => {
    const v = frame(r)
      .map((s) => x[s])
      .filter((y): y is number => y !== null)
    return v.length === 0 ? null : v.reduce((a, b) => a + b, 0) / v.length
  }
  const shifted = (r: number, n: number): number | null => {
    const target = before(r) + n
    const found = all.find((s) => same(s, r) && before(s) === target)
    return found === undefined ? null : found
  }
  return { sum, avg, rank: (r: number) => before(r) + 1, rowNumber: (r: number) => before(r) + 1, shifted, tied }
}

function randomKeys(r: Rng, rows: number): Key[] {
  const col = (type: Key['type'], letter: Key['letter']): Key => ({
    letter,
    type,
    values: Array.from({ length: rows }, () =>
      r.chance(0.15) ? null : type === 'text' ? r.pick(['a', 'b', 'B', 'ab', 'é']) : type === 'int' ? r.int(-3, 3) : r.pick([-1.5, -0, 0, 0.5, 2]),
    ),
  })
  const partitions = r.pick([[], ['int'], ['text'], ['int', 'float']] as const).map((t) => col(t, 'p'))
  // Without ORDER BY (PARTITION BY alone) every row of a partition is a peer of every other.
  const orders = Array.from({ length: partitions.length > 0 ? r.int(0, 3) : r.int(1, 3) }, () =>
    col(r.pick(['int', 'float', 'text'] as const), r.chance(0.5) ? 'u' : 'd'),
  )
  // Now and then a key that tells every row apart, in the rows' own order (up, or down) or not.
  const unique: Key[] = [
    { letter: 'u', type: 'int', values: Array.from({ length: rows }, (_, i) => i) },
    { letter: 'd', type: 'float', values: Array.from({ length: rows }, (_, i) => rows - i) },
    { letter: 'u', type: 'int', values: Array.from({ length: rows }, (_, i) => (i * 7) % rows) },
  ]
  // Half the time such a key ends the order; a third of those it is the whole order (then the
  // kernels walk the rows in row order with no sort, when it runs in row order).
  if (r.chance(0.5)) {
    if (r.chance(0.35)) orders.length = 0
    orders.push(r.pick(unique))
  }
  return [...partitions, ...orders]
}

describe('SQL window kernels against SQL’s definitions', () => {
  const r = new Rng(20261127)
  for (let round = 0; round < 160; round++) {
    const rows = r.pick([0, 1, 2, 5, 13, 40])
    const keys = randomKeys(r, rows)
    const x = Array.from({ length: rows }, () => (r.chance(0.2) ? null : r.int(-4, 6) / 2))
    const args = [str(keys.map((k) => k.letter).join('')), ...keys.map((k) => columnFromValues(k.type, k.values))]
    const ref = reference(keys, x, rows)
    it(`round ${round}: ${rows} rows, keys ${keys.map((k) => `${k.letter}:${k.type}`).join(' ')}`, () => {
      const xs = columnFromValues('float', x)
      const close = (got: Cell[] | 'declined', want: (i: number) => number | null) => {
        expect(got).to.not.equal('declined')
        ;(got as Cell[]).forEach((v, i) => {
          const w = want(i)
          if (w === null) expect(v, `row ${i}`).to.equal(null)
          else expect(v as number, `row ${i}`).to.be.closeTo(w, 1e-9)
        })
      }
      close(call('$wsum', [xs, ...args], rows), ref.sum)
      close(call('$wavg', [xs, ...args], rows), ref.avg)
      close(call('$wrank', args, rows), ref.rank)
      // row_number, lag and lead need ORDER BY (the compiler never asks them without).
      if (keys.every((k) => k.letter === 'p')) return
      const numbered = call('$wrownum', args, rows)
      const lagged = call('$wshift', [xs, int(-1), ...args], rows)
      const beyond = call('$wbeyond', [int(2), ...args], rows)
      if (ref.tied) {
        for (const got of [numbered, lagged, beyond]) expect(got).to.equal('declined')
        return
      }
      close(numbered, ref.rowNumber)
      close(lagged, (i) => {
        const s = ref.shifted(i, -1)
        return s === null ? null : x[s]
      })
      close(beyond, (i) => (ref.shifted(i, 2) === null ? 1 : 0))
    })
  }
})
