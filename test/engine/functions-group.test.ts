import { expect } from 'chai'
import {
  columnFromValues,
  columnValues,
  NA_INT,
  textColumnFromStrings,
  type Column,
  type ColumnType,
  type GroupIndex,
  type Value,
} from '../../engine/columns/index.js'
import { Rng } from '../../engine/columns/random.js'
import { FUNCTIONS } from '../../engine/functions/index.js'
import type { KernelArg } from '../../engine/functions/index.js'

// Plain values (null = N/A) and deliberately simple row-by-row references. Groups and orders
// are computed here too (by first appearance, by a stable sort), independent of the engine.
type V = number | bigint | string | null

const WORDS = ['ant', 'bee', 'cat', 'dog', 'eel']
const SIZES = [0, 1, 2, 11, 150, 900]

function randomValue(rng: Rng, type: ColumnType, range: number, na = 0.15): V {
  if (rng.next() < na) return null
  if (type === 'text') return WORDS[rng.int(0, Math.min(range, WORDS.length) - 1)]
  if (type === 'float') return rng.int(-range * 4, range * 4) / 4
  return rng.int(-range, range)
}

const randomValues = (rng: Rng, type: ColumnType, n: number, range: number, na = 0.15): V[] =>
  Array.from({ length: n }, () => randomValue(rng, type, range, na))

const cmp = (a: V, b: V): number => (a === null || b === null ? (a === null ? (b === null ? 0 : -1) : 1) : a < b ? -1 : a > b ? 1 : 0)

/** One random call: groups, selection, order, X (and W, N). */
interface Case {
  n: number
  gid: number[]
  groups: GroupIndex | null
  mask: Uint8Array | null
  order: number[]
  orderArg: Int32Array | null
  xType: ColumnType
  x: V[]
  w: V[]
}

function makeCase(rng: Rng, n: number, xType: ColumnType): Case {
  const gCols = rng.pick([0, 1, 1, 2])
  const gValues = Array.from({ length: gCols }, () => randomValues(rng, rng.pick(['int', 'text'] as ColumnType[]), n, rng.pick([1, 3, 40])))
  const seen = new Map<string, number>()
  const gid = Array.from({ length: n }, (_, r) => {
    const key = JSON.stringify(gValues.map((c) => c[r]))
    if (!seen.has(key)) seen.set(key, seen.size)
    return seen.get(key)!
  })
  const groups = gCols === 0 ? null : { ids: Int32Array.from(gid), count: seen.size }
  const mask = rng.chance(0.5) ? Uint8Array.from({ length: n }, () => (rng.chance(0.8) ? 1 : 0)) : null
  let order = Array.from({ length: n }, (_, i) => i)
  let orderArg: Int32Array | null = null
  if (rng.chance(0.6)) {
    const o = randomValues(rng, 'int', n, rng.pick([2, 1000]), 0)
    order = [...order].sort((a, b) => cmp(o[a], o[b]))
    orderArg = Int32Array.from(order)
  }
  const x = randomValues(rng, xType, n, rng.pick([2, 9, 1000]))
  const w = randomValues(rng, 'float', n, 5)
  return { n, gid, groups, mask, order, orderArg, xType, x, w }
}

/** Per group, its taking-part rows in O order. */
function members(c: Case): Map<number, number[]> {
  const m = new Map<number, number[]>()
  for (const r of c.order) {
    if (c.mask && !c.mask[r]) continue
    const g = c.groups ? c.gid[r] : 0
    if (!m.has(g)) m.set(g, [])
    m.get(g)!.push(r)
  }
  return m
}

/** Broadcasts a per-group reference to rows (N/A where S = 0); f sees the group's rows in O order. */
function perRow(c: Case, f: (rows: number[], r: number) => V): V[] {
  const m = members(c)
  return Array.from({ length: c.n }, (_, r) => {
    if (c.mask && !c.mask[r]) return null
    return f(m.get(c.groups ? c.gid[r] : 0)!, r)
  })
}

/** Like perRow for a value that depends only on the group (computed once per group). */
function perGroup(c: Case, f: (rows: number[]) => V): V[] {
  const cache = new Map<number[], V>()
  return perRow(c, (rows) => {
    if (!cache.has(rows)) cache.set(rows, f(rows))
    return cache.get(rows)!
  })
}

/** Walks each group's rows in O order, `step` giving each row's value from the values so far. */
function running(c: Case, step: (seen: V[], r: number) => V): V[] {
  const out: V[] = Array.from({ length: c.n }, () => null)
  for (const rows of members(c).values()) {
    const seen: V[] = []
    for (const r of rows) {
      seen.push(c.x[r])
      out[r] = step(seen, r)
    }
  }
  return out
}

const nums = (c: Case, rows: number[]): number[] => rows.map((r) => c.x[r]).filter((v): v is number => v !== null) as number[]
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0)
const sampleVar = (xs: number[]): V => {
  if (xs.length < 2) return null
  const mean = sum(xs) / xs.length
  return sum(xs.map((v) => (v - mean) * (v - mean))) / (xs.length - 1)
}

/** Ranks within each group: non-N/A X sorted descending, ties keeping O order (a stable sort). */
function ranks(c: Case): V[] {
  const cache = new Map<number[], Map<number, number>>()
  return perRow(c, (rows, r) => {
    if (c.x[r] === null) return null
    if (!cache.has(rows)) {
      const ranked = rows.filter((q) => c.x[q] !== null).sort((a, b) => -cmp(c.x[a], c.x[b]))
      cache.set(rows, new Map(ranked.map((q, i) => [q, i + 1])))
    }
    return cache.get(rows)!.get(r)!
  })
}

function shift(rows: number[], r: number, step: number): number | null {
  const t = rows.indexOf(r) + step
  return t >= 0 && t < rows.length ? rows[t] : null
}

/** Time periods of g_tshift's T: repeating 0…4, N/A on every ninth row. */
const periods = (n: number): V[] => Array.from({ length: n }, (_, r) => (r % 9 === 4 ? null : (r * 7) % 5))

const display = (v: V): string => (v === null ? '' : String(v))

interface Spec {
  xTypes: ColumnType[]
  /** Kernel arguments after G and S (and O when the function has one). */
  extra: (c: Case) => KernelArg[]
  ref: (c: Case) => V[]
}

const val = (value: Value): KernelArg => ({ kind: 'value', value })
const xArg = (c: Case): KernelArg => val(columnFromValues(c.xType, c.x))
const n2 = (value: number): KernelArg => val({ kind: 'scalar', type: 'int', value })
const NUM: ColumnType[] = ['int', 'float']
const ANY: ColumnType[] = ['int', 'float', 'text', 'date']

const SPECS: Record<string, Spec> = {
  g_sum: { xTypes: NUM, extra: (c) => [xArg(c)], ref: (c) => perGroup(c, (rows) => sum(nums(c, rows))) },
  g_cnt: { xTypes: ['int'], extra: () => [], ref: (c) => perGroup(c, (rows) => rows.length) },
  g_avg: { xTypes: NUM, extra: (c) => [xArg(c)], ref: (c) => perGroup(c, (rows) => (nums(c, rows).length ? sum(nums(c, rows)) / nums(c, rows).length : null)) },
  g_min: {
    xTypes: ANY,
    extra: (c) => [xArg(c)],
    ref: (c) =>
      perGroup(
        c,
        (rows) =>
          rows
            .map((q) => c.x[q])
            .filter((v) => v !== null)
            .sort(cmp)[0] ?? null,
      ),
  },
  g_max: {
    xTypes: ANY,
    extra: (c) => [xArg(c)],
    ref: (c) =>
      perGroup(
        c,
        (rows) =>
          rows
            .map((q) => c.x[q])
            .filter((v) => v !== null)
            .sort(cmp)
            .pop() ?? null,
      ),
  },
  g_pct: {
    xTypes: NUM,
    extra: (c) => [xArg(c)],
    ref: (c) => {
      const sums = perGroup(c, (rows) => sum(nums(c, rows)))
      return sums.map((s, r) => (s === null || s === 0 || c.x[r] === null ? null : (c.x[r] as number) / (s as number)))
    },
  },
  g_wavg: {
    xTypes: NUM,
    extra: (c) => [xArg(c), val(columnFromValues('float', c.w))],
    ref: (c) =>
      perGroup(c, (rows) => {
        const both = rows.filter((q) => c.x[q] !== null && c.w[q] !== null)
        const den = sum(both.map((q) => c.w[q] as number))
        return den === 0 ? null : sum(both.map((q) => (c.x[q] as number) * (c.w[q] as number))) / den
      }),
  },
  g_ucnt: { xTypes: ANY, extra: (c) => [xArg(c)], ref: (c) => perGroup(c, (rows) => new Set(rows.map((q) => c.x[q]).filter((v) => v !== null)).size) },
  g_median: {
    xTypes: NUM,
    extra: (c) => [xArg(c)],
    ref: (c) =>
      perGroup(c, (rows) => {
        const xs = nums(c, rows).sort((a, b) => a - b)
        if (xs.length === 0) return null
        const mid = xs.length >> 1
        return xs.length % 2 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2
      }),
  },
  g_var: { xTypes: NUM, extra: (c) => [xArg(c)], ref: (c) => perGroup(c, (rows) => sampleVar(nums(c, rows))) },
  g_stdev: {
    xTypes: NUM,
    extra: (c) => [xArg(c)],
    ref: (c) => perGroup(c, (rows) => (sampleVar(nums(c, rows)) === null ? null : Math.sqrt(sampleVar(nums(c, rows)) as number))),
  },
  g_cumcnt: { xTypes: ['int'], extra: () => [], ref: (c) => running(c, (seen) => seen.length) },
  g_cumsum: { xTypes: NUM, extra: (c) => [xArg(c)], ref: (c) => running(c, (seen) => sum(seen.filter((v) => v !== null) as number[])) },
  g_cummax: {
    xTypes: ANY,
    extra: (c) => [xArg(c)],
    ref: (c) => running(c, (seen) => seen.reduce((m, v) => (v !== null && (m === null || cmp(v, m) > 0) ? v : m), null)),
  },
  g_cummin: {
    xTypes: ANY,
    extra: (c) => [xArg(c)],
    ref: (c) => running(c, (seen) => seen.reduce((m, v) => (v !== null && (m === null || cmp(v, m) < 0) ? v : m), null)),
  },
  g_cumavg: {
    xTypes: NUM,
    extra: (c) => [xArg(c)],
    ref: (c) =>
      running(c, (seen) => {
        const xs = seen.filter((v) => v !== null) as number[]
        return xs.length ? sum(xs) / xs.length : null
      }),
  },
  g_cumrunlen: {
    xTypes: NUM,
    extra: (c) => [xArg(c)],
    ref: (c) =>
      running(c, (seen) => {
        let run = 0
        for (const v of seen) run = v !== null && v !== 0 ? run + 1 : 0
        return run
      }),
  },
  g_first: { xTypes: ANY, extra: (c) => [xArg(c)], ref: (c) => perGroup(c, (rows) => c.x[rows[0]]) },
  g_last: { xTypes: ANY, extra: (c) => [xArg(c)], ref: (c) => perGroup(c, (rows) => c.x[rows[rows.length - 1]]) },
  g_first1: { xTypes: ['int'], extra: () => [], ref: (c) => perRow(c, (rows, r) => (rows[0] === r ? 1 : 0)) },
  g_last1: { xTypes: ['int'], extra: () => [], ref: (c) => perRow(c, (rows, r) => (rows[rows.length - 1] === r ? 1 : 0)) },
  g_nth: { xTypes: ANY, extra: (c) => [xArg(c), n2(2)], ref: (c) => perGroup(c, (rows) => (rows.length >= 2 ? c.x[rows[1]] : null)) },
  g_num: {
    xTypes: ['int'],
    extra: () => [],
    ref: (c) => {
      const numbers = new Map<number, number>()
      for (const r of c.order) if (!c.mask || c.mask[r]) if (!numbers.has(c.groups ? c.gid[r] : 0)) numbers.set(c.groups ? c.gid[r] : 0, numbers.size + 1)
      return perRow(c, (_rows, r) => numbers.get(c.groups ? c.gid[r] : 0)!)
    },
  },
  g_rank: { xTypes: ANY, extra: (c) => [xArg(c)], ref: ranks },
  g_rankskip: {
    xTypes: ANY,
    extra: (c) => [xArg(c)],
    ref: (c) => perRow(c, (rows, r) => (c.x[r] === null ? null : 1 + rows.filter((q) => c.x[q] !== null && cmp(c.x[q], c.x[r]) > 0).length)),
  },
  g_rshift: {
    xTypes: ANY,
    extra: (c) => [xArg(c), n2(-1)],
    ref: (c) => perRow(c, (rows, r) => (shift(rows, r, -1) === null ? null : c.x[shift(rows, r, -1)!])),
  },
  g_rshifti: { xTypes: ['int'], extra: () => [n2(2)], ref: (c) => perRow(c, (rows, r) => shift(rows, r, 2)) },
  g_tshift: {
    xTypes: ANY,
    // T a plain period (TS omitted) with ties and N/A; X from the first row in worksheet order whose T is one less.
    extra: (c) => [val(columnFromValues('int', periods(c.n))), { kind: 'omitted' }, xArg(c), n2(-1)],
    ref: (c) => {
      const t = periods(c.n)
      return perRow(c, (rows, r) => {
        if (t[r] === null) return null
        const q = rows.filter((k) => t[k] === (t[r] as number) - 1).sort((a, b) => a - b)[0]
        return q === undefined ? null : c.x[q]
      })
    },
  },
  g_splice: {
    xTypes: ANY,
    extra: (c) => [xArg(c), val({ kind: 'scalar', type: 'text', value: '|' }), n2(3)],
    ref: (c) =>
      perGroup(c, (rows) => {
        const s = rows
          .map((q) => display(c.x[q]))
          .filter((v) => v !== '')
          .slice(0, 3)
          .join('|')
        return s === '' ? null : s
      }),
  },
}

/** Equal values, floats within a relative 1e-9. Asserts only on a mismatch (fast). */
function expectValues(actual: V[], expected: V[], what: string): void {
  expect(actual.length, what).to.equal(expected.length)
  actual.forEach((a, i) => {
    const e = expected[i]
    const same = typeof a === 'number' && typeof e === 'number' ? Math.abs(a - e) <= 1e-9 * Math.max(1, Math.abs(e)) : a === e
    if (!same) expect(a, `${what} row ${i}`).to.equal(e)
  })
}

const G = (groups: GroupIndex | null): KernelArg => (groups ? { kind: 'group', groups } : { kind: 'omitted' })
const S = (mask: Uint8Array | null): KernelArg => (mask ? { kind: 'select', mask } : { kind: 'omitted' })
const O = (order: Int32Array | null): KernelArg => (order ? { kind: 'order', order } : { kind: 'omitted' })

function runCase(name: string, c: Case): Column {
  const def = FUNCTIONS[name]
  const hasO = def.args.some((a) => a.kind === 'order')
  const args = [G(c.groups), S(c.mask), ...(hasO ? [O(c.orderArg)] : []), ...SPECS[name].extra(c)]
  return def.kernel(args, { rows: c.n })
}

describe('engine/functions: group functions', () => {
  it('has a reference test for every g_ function in the registry', () => {
    const registered = Object.keys(FUNCTIONS).filter((k) => k.startsWith('g_'))
    expect(registered.sort()).to.deep.equal(Object.keys(SPECS).sort())
  })

  for (const [name, spec] of Object.entries(SPECS)) {
    it(`${name} agrees with a row-by-row reference on random groups, selections and orders`, () => {
      const rng = new Rng(name.split('').reduce((h, ch) => h * 31 + ch.charCodeAt(0), 7) >>> 0)
      for (const xType of spec.xTypes) {
        for (const n of SIZES) {
          for (let t = 0; t < 6; t++) {
            const c = makeCase(rng, n, xType)
            const out = runCase(name, c)
            const declared = FUNCTIONS[name].args.map((a) =>
              a.kind === 'value' ? (a.name === 'X' ? xType : a.name === 'D' || a.name === 'TS' ? 'text' : a.name === 'W' ? 'float' : 'int') : null,
            )
            expect(out.type, `${name} type`).to.equal(FUNCTIONS[name].result(declared))
            expectValues(
              columnValues(out),
              spec.ref(c),
              `${name}(X ${xType}, n ${n}, G ${c.groups ? 'yes' : 'no'}, S ${c.mask ? 'yes' : 'no'}, O ${c.orderArg ? 'yes' : 'no'})`,
            )
          }
        }
      }
    })
  }

  describe('documented and recommended rules', () => {
    const one = (name: string, args: KernelArg[], rows: number): V[] => columnValues(FUNCTIONS[name].kernel(args, { rows }))
    const ints = (values: V[]): KernelArg => val(columnFromValues('int', values))
    const none: KernelArg = { kind: 'omitted' }

    it('g_sum of a group whose values are all N/A is 0, not N/A', () => {
      const groups = { ids: Int32Array.from([0, 1, 0]), count: 2 }
      expect(one('g_sum', [G(groups), none, ints([1, null, 2])], 3)).to.deep.equal([3, 0, 3])
    })

    it('g_median of a group whose values are all N/A is N/A', () => {
      const groups = { ids: Int32Array.from([0, 1, 1]), count: 2 }
      expect(one('g_median', [G(groups), none, ints([4, null, null])], 3)).to.deep.equal([4, null, null])
    })

    it('g_rank breaks ties by O, then worksheet order, and gives N/A to N/A values', () => {
      const x = ints([5, 7, 5, null, 5])
      expect(one('g_rank', [none, none, none, x], 5)).to.deep.equal([2, 1, 3, null, 4])
      const order = Int32Array.from([4, 3, 2, 1, 0])
      expect(one('g_rank', [none, none, O(order), x], 5)).to.deep.equal([4, 1, 3, null, 2])
    })

    it('g_rankskip shares ranks between ties and skips the next (1, 2, 2, 4)', () => {
      expect(one('g_rankskip', [none, none, ints([9, 5, 5, 1, null])], 5)).to.deep.equal([1, 2, 2, 4, null])
    })

    it('g_rshift gives N/A beyond the group edges, shifts N/A values as they are, and N = 0 is X', () => {
      const groups = { ids: Int32Array.from([0, 0, 0, 1]), count: 2 }
      const x = ints([1, null, 3, 4])
      expect(one('g_rshift', [G(groups), none, none, x, n2(1)], 4)).to.deep.equal([null, 3, null, null])
      expect(one('g_rshift', [G(groups), none, none, x, n2(-2)], 4)).to.deep.equal([null, null, 1, null])
      expect(one('g_rshift', [G(groups), none, none, x, n2(0)], 4)).to.deep.equal([1, null, 3, 4])
      expect(one('g_rshift', [G(groups), none, none, x, n2(9)], 4)).to.deep.equal([null, null, null, null])
      expect(one('g_rshift', [G(groups), none, none, x, ints([1, -1, 0, null])], 4)).to.deep.equal([null, 1, 3, null])
    })

    it('g_rshifti returns zero-based worksheet row numbers', () => {
      expect(one('g_rshifti', [none, none, none, n2(0)], 3)).to.deep.equal([0, 1, 2])
      expect(one('g_rshifti', [none, none, O(Int32Array.from([2, 0, 1])), n2(1)], 3)).to.deep.equal([1, null, 0])
    })

    it('gives N/A on rows where S = 0 and leaves them out of the computation', () => {
      const mask = Uint8Array.from([1, 0, 1])
      expect(one('g_sum', [none, S(mask), ints([1, 10, 2])], 3)).to.deep.equal([3, null, 3])
      expect(one('g_cumcnt', [none, S(mask), none], 3)).to.deep.equal([1, null, 2])
    })

    it('works on the text values of g_min, g_first and g_splice by string order and content', () => {
      const x = val(textColumnFromStrings(['pear', '', 'apple', 'fig']))
      expect(one('g_min', [none, none, x], 4)).to.deep.equal(['apple', 'apple', 'apple', 'apple'])
      expect(one('g_first', [none, none, none, x], 4)).to.deep.equal(['pear', 'pear', 'pear', 'pear'])
      expect(one('g_splice', [none, none, none, x, val({ kind: 'scalar', type: 'text', value: ', ' })], 4)[0]).to.equal('pear, apple, fig')
    })

    it('accepts a constant X, repeated on every row', () => {
      const groups = { ids: Int32Array.from([0, 1, 0]), count: 2 }
      expect(one('g_sum', [G(groups), none, n2(1)], 3)).to.deep.equal([2, 1, 2])
    })

    it('types results as documented: g_sum decimal, g_rank integer, g_rshift the type of X, g_splice text', () => {
      expect(FUNCTIONS.g_sum.result([null, null, 'int'])).to.equal('float')
      expect(FUNCTIONS.g_rank.result([null, null, null, 'float'])).to.equal('int')
      expect(FUNCTIONS.g_rshift.result([null, null, null, 'date', 'int'])).to.equal('date')
      expect(FUNCTIONS.g_splice.result([null, null, null, 'int', 'text', 'int'])).to.equal('text')
      expect(FUNCTIONS.g_sum.result([null, null, 'text'])).to.deep.equal({ error: 'g_sum needs a number, got text for X' })
      expect(FUNCTIONS.g_nth.result([null, null, null, 'int', 'float'])).to.deep.equal({ error: 'g_nth needs a whole number for N, got a decimal' })
    })

    it('declares G, S and O with the kinds the reference gives them', () => {
      expect(FUNCTIONS.g_cumsum.args.map((a) => a.kind)).to.deep.equal(['group', 'select', 'order', 'value'])
      expect(FUNCTIONS.g_rankskip.args.map((a) => a.kind)).to.deep.equal(['group', 'select', 'value'])
      expect(FUNCTIONS.g_rshifti.args.map((a) => a.name)).to.deep.equal(['G', 'S', 'O', 'N'])
      expect(FUNCTIONS.g_splice.args.map((a) => a.name)).to.deep.equal(['G', 'S', 'O', 'X', 'D', 'N'])
    })
  })

  describe('reference §9b walk-through, steps 1-4', () => {
    // k,g,v: 1,x,10; 2,y,; 3,x,5; 4,y,7; 5,x,
    const g = textColumnFromStrings(['x', 'y', 'x', 'y', 'x'])
    const groups: GroupIndex = { ids: Int32Array.from([0, 1, 0, 1, 0]), count: 2 }
    const v: Column = { type: 'int', data: Int32Array.from([10, NA_INT, 5, 7, NA_INT]) }
    const none: KernelArg = { kind: 'omitted' }
    const step = (name: string, extra: KernelArg[]): V[] => columnValues(FUNCTIONS[name].kernel([G(groups), none, ...extra], { rows: 5 }))

    it('uses the grouping the walk-through implies (x rows, y rows)', () => {
      expect(columnValues(g)).to.deep.equal(['x', 'y', 'x', 'y', 'x'])
    })

    it('step 1: g_sum(g;;v) is 15 for x rows and 7 for y rows', () => {
      expect(step('g_sum', [val(v)])).to.deep.equal([15, 7, 15, 7, 15])
    })

    it('step 2: g_cumsum(g;;;v) runs 10, 15, 15 for x and 0, 7 for y', () => {
      expect(step('g_cumsum', [none, val(v)])).to.deep.equal([10, 0, 15, 7, 15])
    })

    it('step 3: g_rank(g;;;v) is 1, 2, N/A for x and N/A, 1 for y', () => {
      expect(step('g_rank', [none, val(v)])).to.deep.equal([1, null, 2, 1, null])
    })

    it('step 4: g_rshift(g;;;v;-1) is N/A, 10, 5 for x and N/A, N/A for y', () => {
      expect(step('g_rshift', [none, val(v), n2(-1)])).to.deep.equal([null, null, 10, null, 5])
    })
  })
})
