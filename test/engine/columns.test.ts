import { expect } from 'chai'
import {
  columnFromValues,
  columnValues,
  firstIndexLookup,
  gather,
  groupBy,
  isNA,
  lookupCode,
  lowerBound,
  mergeDicts,
  NA_INT,
  scalarToColumn,
  sortPermutation,
  textColumnFromStrings,
  textFromDictMap,
  unifyText,
  unifyTextColumns,
  upperBound,
  withUsedEntriesOnly,
  valueAt,
  type Column,
  type ColumnType,
  type TextColumn,
} from '../../engine/columns/index.js'
import { Rng } from '../../engine/columns/random.js'

// Plain values: numbers, strings, null for N/A. The references below work on these only.
type V = number | bigint | string | null

const WORDS = ['apple', 'Apple', 'banana', 'cherry', 'date', 'b', 'a b', 'zz']

interface Gen {
  na?: number
  /** Integer values are drawn from [0, range). */
  range?: number
}

function randomValues(rng: Rng, type: ColumnType, n: number, g: Gen = {}): V[] {
  const na = g.na ?? 0.15
  const range = g.range ?? 10
  const out: V[] = []
  for (let i = 0; i < n; i++) {
    if (rng.next() < na) out.push(null)
    else if (type === 'text') out.push(rng.pick(WORDS.slice(0, Math.max(1, Math.min(WORDS.length, range)))))
    else if (type === 'float') out.push(rng.chance(0.05) ? -0 : rng.int(-range, range) / 4)
    else out.push(rng.int(0, range - 1) - (type === 'int' ? Math.floor(range / 2) : 0))
  }
  return out
}

const col = (type: ColumnType, values: readonly V[]): Column => columnFromValues(type, values)
const SIZES = [0, 1, 2, 9, 100, 2000]
const TYPES: ColumnType[] = ['int', 'float', 'text', 'date']

/** Reference group-by: ids by first appearance of the JSON of the row's values. */
function refGroupBy(cols: V[][], rows: number, mask: Uint8Array | null): number[] {
  const seen = new Map<string, number>()
  const ids: number[] = []
  for (let r = 0; r < rows; r++) {
    if (mask && !mask[r]) {
      ids.push(-1)
      continue
    }
    const key = JSON.stringify(cols.map((c) => (Object.is(c[r], -0) ? 0 : c[r])))
    if (!seen.has(key)) seen.set(key, seen.size)
    ids.push(seen.get(key)!)
  }
  return ids
}

/** Reference comparison: N/A smallest, numbers by value, text by string. */
function refCompare(a: V, b: V): number {
  if (a === null || b === null) return a === null ? (b === null ? 0 : -1) : 1
  if (typeof a === 'string') return a < (b as string) ? -1 : a > (b as string) ? 1 : 0
  // Not a - b: Infinity - Infinity is NaN, which would break the comparator.
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0
}

/** Reference sort: Array.prototype.sort is stable; ties keep the incoming order. */
function refSort(keys: { values: V[]; desc: boolean }[], rows: readonly number[]): number[] {
  return [...rows].sort((x, y) => {
    for (const k of keys) {
      const c = refCompare(k.values[x], k.values[y])
      if (c !== 0) return k.desc ? -c : c
    }
    return 0
  })
}

/** Reference lookup: the first key row whose values all equal the probe's (null = null). */
function refLookup(keys: V[][], rows: number, probes: V[][], probeRows: number): number[] {
  const out: number[] = []
  for (let p = 0; p < probeRows; p++) {
    let found = -1
    for (let r = 0; r < rows && found < 0; r++) if (keys.every((k, c) => k[r] === probes[c][p] || (k[r] === 0 && probes[c][p] === 0))) found = r
    out.push(found)
  }
  return out
}

describe('engine/columns', () => {
  describe('textColumnFromStrings()', () => {
    it('builds a sorted dictionary with the empty string at code 0', () => {
      const c = textColumnFromStrings(['pear', '', 'apple', 'pear', 'Zed'])
      expect(c.dict).to.deep.equal(['', 'Zed', 'apple', 'pear'])
      expect(Array.from(c.codes)).to.deep.equal([3, 0, 2, 3, 1])
    })

    it('treats null as N/A', () => {
      const c = textColumnFromStrings(['a', null])
      expect(columnValues(c)).to.deep.equal(['a', null])
    })
  })

  describe('columnFromValues() / valueAt() / isNA()', () => {
    it('round-trips values of every type with N/A as null', () => {
      const rng = new Rng(1)
      for (const type of TYPES) {
        const values = randomValues(rng, type, 50)
        const c = col(type, values)
        expect(columnValues(c)).to.deep.equal(values.map((v) => (Object.is(v, -0) ? -0 : v)))
        values.forEach((v, i) => expect(isNA(c, i)).to.equal(v === null))
      }
    })

    it('reads single cells', () => {
      const c = col('float', [1.5, null])
      expect(valueAt(c, 0)).to.equal(1.5)
      expect(valueAt(c, 1)).to.equal(null)
    })
  })

  describe('scalarToColumn()', () => {
    it('repeats a number, a text and an N/A on every row', () => {
      expect(columnValues(scalarToColumn({ kind: 'scalar', type: 'int', value: 7 }, 3))).to.deep.equal([7, 7, 7])
      expect(columnValues(scalarToColumn({ kind: 'scalar', type: 'text', value: 'NY' }, 2))).to.deep.equal(['NY', 'NY'])
      expect(columnValues(scalarToColumn({ kind: 'scalar', type: 'text', value: '' }, 2))).to.deep.equal([null, null])
      expect(columnValues(scalarToColumn({ kind: 'scalar', type: 'float', value: NaN }, 1))).to.deep.equal([null])
      expect(scalarToColumn({ kind: 'scalar', type: 'date', value: 20240101 }, 1).type).to.equal('date')
    })
  })

  describe('dictionary helpers', () => {
    const dict = ['', 'b', 'd', 'f']

    it('finds codes by binary search and -1 for absent strings', () => {
      expect(dict.map((s) => lookupCode(dict, s))).to.deep.equal([0, 1, 2, 3])
      expect(lookupCode(dict, 'c')).to.equal(-1)
      expect(lookupCode(dict, 'zz')).to.equal(-1)
    })

    it('gives lower and upper bounds like a sorted array search', () => {
      for (const s of ['', 'a', 'b', 'c', 'd', 'e', 'f', 'g']) {
        expect(lowerBound(dict, s), s).to.equal(dict.filter((x) => x < s).length)
        expect(upperBound(dict, s), s).to.equal(dict.filter((x) => x <= s).length)
      }
    })

    it('merges dictionaries into one sorted dictionary with remap tables', () => {
      const rng = new Rng(2)
      for (let t = 0; t < 30; t++) {
        const dicts = [0, 1, 2].slice(0, 2 + (t % 2)).map(() => textColumnFromStrings(randomValues(rng, 'text', 6) as string[]).dict)
        const { dict: merged, remaps } = mergeDicts(dicts)
        expect(merged).to.deep.equal([...new Set(['', ...dicts.flat()])].sort())
        dicts.forEach((d, k) => d.forEach((s, c) => expect(merged[remaps[k][c]]).to.equal(s)))
      }
    })

    it('unifies two text columns onto one dictionary, keeping their values', () => {
      const rng = new Rng(3)
      for (const n of SIZES) {
        const a = randomValues(rng, 'text', n)
        const b = randomValues(rng, 'text', n, { range: 4 })
        const [x, y] = unifyText(col('text', a) as TextColumn, col('text', b) as TextColumn)
        expect(x.dict).to.equal(y.dict)
        expect(columnValues(x)).to.deep.equal(a)
        expect(columnValues(y)).to.deep.equal(b)
      }
    })

    it('unifies any number of text columns onto one dictionary, keeping their values', () => {
      const rng = new Rng(5)
      for (const n of SIZES) {
        const values = [0, 1, 2].map((k) => randomValues(rng, 'text', n, { range: 3 + k }))
        const cols = values.map((v) => col('text', v) as TextColumn)
        const copied = { type: 'text' as const, codes: cols[0].codes, dict: [...cols[0].dict] }
        for (const set of [cols, [cols[0], copied], [cols[1]]]) {
          const out = unifyTextColumns(set)
          out.forEach((c, k) => {
            expect(c.dict).to.equal(out[0].dict)
            expect(columnValues(c)).to.deep.equal(columnValues(set[k]))
          })
        }
        // Equal strings in another array: the codes are kept as they are.
        expect(unifyTextColumns([cols[0], copied])[1].codes).to.equal(cols[0].codes)
      }
    })

    it('keeps only the dictionary entries a column uses, sorted, with N/A at code 0', () => {
      const rng = new Rng(6)
      for (const n of SIZES) {
        const whole = col('text', randomValues(rng, 'text', 3 * n + 3)) as TextColumn
        const some = gather(
          whole,
          Int32Array.from({ length: n }, (_, i) => (i * 5) % (3 * n + 3)),
        ) as TextColumn
        const only = withUsedEntriesOnly(some)
        expect(columnValues(only)).to.deep.equal(columnValues(some))
        expect(only.dict[0]).to.equal('')
        expect([...only.dict].sort()).to.deep.equal(only.dict)
        expect(only.dict.length).to.equal(new Set(['', ...columnValues(some).map((v) => v ?? '')]).size)
      }
    })

    it('maps a function over dictionary entries, re-sorting and merging the results', () => {
      const rng = new Rng(4)
      for (const n of SIZES) {
        const values = randomValues(rng, 'text', n)
        const fn = (s: string): string => (s.length > 4 ? s.slice(0, 1).toLowerCase() : s === 'b' ? '' : s.toUpperCase())
        const mapped = textFromDictMap(col('text', values) as TextColumn, fn)
        expect(columnValues(mapped)).to.deep.equal(values.map((v) => (v === null || fn(v as string) === '' ? null : fn(v as string))))
        expect(mapped.dict[0]).to.equal('')
        expect([...mapped.dict].sort()).to.deep.equal(mapped.dict)
        expect(new Set(mapped.dict).size).to.equal(mapped.dict.length)
      }
    })
  })

  describe('gather()', () => {
    it('picks rows by an index vector, -1 giving N/A, for every type', () => {
      const rng = new Rng(5)
      for (const type of TYPES) {
        for (const n of SIZES) {
          const values = randomValues(rng, type, n)
          const index = Int32Array.from({ length: n + 3 }, () => (n === 0 || rng.chance(0.1) ? -1 : rng.int(0, n - 1)))
          const expected = Array.from(index, (r) => (r < 0 ? null : values[r]))
          expect(columnValues(gather(col(type, values), index))).to.deep.equal(expected)
        }
      }
    })

    it('gathers large columns through a scattered index (partitioned by block) exactly like a plain gather', () => {
      const rng = new Rng(6)
      const n = 300_000
      const ints = Int32Array.from({ length: n }, (_, i) => (i % 97 === 0 ? NA_INT : i * 3))
      const floats = Float64Array.from({ length: n }, (_, i) => (i % 89 === 0 ? NaN : i / 4))
      const text: TextColumn = { type: 'text', codes: Int32Array.from({ length: n }, (_, i) => i % 5), dict: ['', 'a', 'b', 'c', 'd'] }
      const scattered = Int32Array.from({ length: 200_000 }, () => (rng.chance(0.02) ? -1 : rng.int(0, n - 1)))
      const inOrder = Int32Array.from({ length: 100_000 }, (_, i) => i * 3)
      for (const index of [scattered, inOrder]) {
        // Twice: the second gather reuses the partition kept with the index.
        for (let round = 0; round < 2; round++) {
          const gi = gather({ type: 'int', data: ints }, index) as { data: Int32Array }
          const gf = gather({ type: 'float', data: floats }, index) as { data: Float64Array }
          const gt = gather(text, index) as TextColumn
          for (let i = 0; i < index.length; i++) {
            const r = index[i]
            if (gi.data[i] !== (r < 0 ? NA_INT : ints[r])) expect.fail(`int row ${i}`)
            if (!Object.is(gf.data[i], r < 0 ? NaN : floats[r])) expect.fail(`float row ${i}`)
            if (gt.codes[i] !== (r < 0 ? 0 : text.codes[r])) expect.fail(`text row ${i}`)
          }
        }
      }
    })
  })

  describe('groupBy()', () => {
    it('numbers groups by first appearance', () => {
      const g = groupBy([col('text', ['b', 'a', 'b', null, 'a', null])], 6)
      expect(Array.from(g.ids)).to.deep.equal([0, 1, 0, 2, 1, 2])
      expect(g.count).to.equal(3)
    })

    it('treats N/A as one value of its own', () => {
      const g = groupBy([col('int', [null, 1, null])], 3)
      expect(Array.from(g.ids)).to.deep.equal([0, 1, 0])
    })

    it('folds -0 into 0 and every NaN into one N/A for float keys', () => {
      const g = groupBy([{ type: 'float', data: Float64Array.from([0, -0, NaN, -NaN, 1]) }], 5)
      expect(Array.from(g.ids)).to.deep.equal([0, 0, 1, 1, 2])
    })

    it('makes one group of every row when there are no columns', () => {
      expect(groupBy([], 3)).to.deep.equal({ ids: new Int32Array(3), count: 1 })
      expect(groupBy([], 0).count).to.equal(0)
    })

    it('agrees with a row-by-row reference on one column of each type, small and large key ranges', () => {
      const rng = new Rng(6)
      for (const type of TYPES) {
        for (const range of [3, 50, 100_000]) {
          for (const n of SIZES) {
            const values = randomValues(rng, type, n, { range })
            const g = groupBy([col(type, values)], n)
            const ref = refGroupBy([values], n, null)
            expect(Array.from(g.ids), `${type} range ${range} n ${n}`).to.deep.equal(ref)
            expect(g.count).to.equal(new Set(ref).size)
          }
        }
      }
    })

    it('hashes int keys spread over the whole Int32 range', () => {
      const rng = new Rng(7)
      const values: V[] = Array.from({ length: 3000 }, () => (rng.chance(0.15) ? null : rng.int(-2147483647, 2147483647) >> rng.int(0, 20)))
      expect(Array.from(groupBy([col('int', values)], values.length).ids)).to.deep.equal(refGroupBy([values], values.length, null))
    })

    it('agrees with the reference on several columns of mixed types, with and without a mask', () => {
      const rng = new Rng(8)
      for (const n of SIZES) {
        for (let t = 0; t < 4; t++) {
          const types = [rng.pick(TYPES), rng.pick(TYPES), rng.pick(TYPES)].slice(0, 2 + (t % 2))
          const values = types.map((type) => randomValues(rng, type, n, { range: rng.pick([2, 5, 40_000]) }))
          const mask = t >= 2 ? Uint8Array.from({ length: n }, () => (rng.chance(0.7) ? 1 : 0)) : null
          const g = groupBy(
            types.map((type, i) => col(type, values[i])),
            n,
            mask,
          )
          const ref = refGroupBy(values, n, mask)
          expect(Array.from(g.ids), types.join(',')).to.deep.equal(ref)
          expect(g.count).to.equal(new Set(ref.filter((x) => x >= 0)).size)
        }
      }
    })

    it('renumbers columns sparse in a wide range (yyyymmdd dates) when their ranges multiply past a lookup table', () => {
      const rng = new Rng(10)
      for (const n of [2_000, 40_000]) {
        // Dates over three years: 1,096 values in a range of 30,000; stores 0…599; N/A in both.
        const dates = Array.from({ length: n }, () => (rng.chance(0.05) ? null : 20220101 + rng.int(0, 2) * 10000 + rng.int(0, 11) * 100 + rng.int(0, 27)))
        const stores = Array.from({ length: n }, () => (rng.chance(0.05) ? null : rng.int(0, 599)))
        const wide = Array.from({ length: n }, () => (rng.chance(0.05) ? null : rng.int(0, 9) * 1_000_000))
        for (const cols of [
          [stores, dates],
          [dates, stores, wide],
        ]) {
          const mask = Uint8Array.from({ length: n }, () => (rng.chance(0.8) ? 1 : 0))
          for (const m of [null, mask]) {
            const g = groupBy(
              cols.map((values, i) => col(i === cols.indexOf(dates) ? 'date' : 'int', values)),
              n,
              m,
            )
            const ref = refGroupBy(cols, n, m)
            expect(Array.from(g.ids)).to.deep.equal(ref)
            expect(g.count).to.equal(new Set(ref.filter((x) => x >= 0)).size)
          }
        }
      }
    })

    it('combines many-valued columns whose id product exceeds the Int32 range', () => {
      const rng = new Rng(9)
      const n = 70_000
      const a = Array.from({ length: n }, (_, i) => i)
      const b = Array.from({ length: n }, () => rng.int(0, 40_000))
      const c = Array.from({ length: n }, () => rng.int(0, 2))
      const g = groupBy([col('int', a), col('int', b), col('int', c)], n)
      expect(Array.from(g.ids)).to.deep.equal(refGroupBy([a, b, c], n, null))
    })
  })

  describe('sortPermutation()', () => {
    it('is stable: equal keys keep their worksheet order', () => {
      const p = sortPermutation([{ col: col('int', [2, 1, 2, 1, 2]), desc: false }], 5)
      expect(Array.from(p)).to.deep.equal([1, 3, 0, 2, 4])
      const d = sortPermutation([{ col: col('int', [2, 1, 2, 1, 2]), desc: true }], 5)
      expect(Array.from(d)).to.deep.equal([0, 2, 4, 1, 3])
    })

    it('puts N/A first ascending and last descending, for every type', () => {
      const cases: [ColumnType, V[]][] = [
        ['int', [3, null, -5]],
        ['float', [0.5, null, -Infinity]],
        ['text', ['b', null, 'a']],
        ['date', [20240101, null, 19991231]],
      ]
      for (const [type, values] of cases) {
        expect(Array.from(sortPermutation([{ col: col(type, values), desc: false }], 3)), type).to.deep.equal([1, 2, 0])
        expect(Array.from(sortPermutation([{ col: col(type, values), desc: true }], 3)), type).to.deep.equal([0, 2, 1])
      }
    })

    it('sorts floats by value with -0 equal to 0', () => {
      const c: Column = { type: 'float', data: Float64Array.from([0, -0, -1e-300, 1e300, -Infinity, Infinity]) }
      expect(Array.from(sortPermutation([{ col: c, desc: false }], 6))).to.deep.equal([4, 2, 0, 1, 3, 5])
    })

    it('sorts text by string order (case-sensitive code units)', () => {
      const p = sortPermutation([{ col: col('text', ['b', 'B', 'a', 'A']), desc: false }], 4)
      expect(Array.from(p)).to.deep.equal([3, 1, 2, 0])
    })

    it('agrees with a stable reference sort on random multi-key inputs', () => {
      const rng = new Rng(10)
      for (const n of [...SIZES, 30, 60, 5000]) {
        for (let t = 0; t < 6; t++) {
          const types = Array.from({ length: 1 + (t % 3) }, () => rng.pick(TYPES))
          const keys = types.map((type) => ({ type, values: randomValues(rng, type, n, { range: rng.pick([3, 300, 1_000_000]) }), desc: rng.chance(0.5) }))
          const p = sortPermutation(
            keys.map((k) => ({ col: col(k.type, k.values), desc: k.desc })),
            n,
          )
          const ref = refSort(
            keys,
            Array.from({ length: n }, (_, i) => i),
          )
          expect(Array.from(p), `${types.join(',')} n=${n}`).to.deep.equal(ref)
        }
      }
    })

    it('sorts decimal floats (one narrow key) exactly like their values, whatever the mix of places', () => {
      const rng = new Rng(11)
      const shapes: ((i: number) => number | null)[] = [
        () => rng.int(0, 100_000) / 100, // cents
        () => (rng.chance(0.5) ? rng.int(-500, 500) / 10 : rng.int(-5000, 5000) / 1000), // mixed places
        () => (rng.chance(0.1) ? null : rng.int(-3, 3) / 10000), // ten-thousandths, ties, N/A
        (i) => (i % 7 === 0 ? -0 : i % 5 === 0 ? 0 : rng.int(-2, 2)), // -0 with 0, whole numbers
        () => rng.int(0, 1000) / 100 + (rng.chance(0.01) ? 1e-7 : 0), // not decimal: the two-word path
        () => (rng.chance(0.5) ? 2e9 + rng.int(0, 9) / 10 : rng.int(0, 9)), // too large once scaled
        () => (rng.chance(0.05) ? (rng.chance(0.5) ? Infinity : -Infinity) : rng.int(0, 9) / 10), // infinities
      ]
      for (const [k, shape] of shapes.entries()) {
        for (const desc of [false, true]) {
          const values: V[] = Array.from({ length: 3000 }, (_, i) => shape(i))
          const p = sortPermutation(
            [
              { col: col('float', values), desc },
              {
                col: col(
                  'int',
                  values.map((_, i) => i % 3),
                ),
                desc: false,
              },
            ],
            values.length,
          )
          const ref = refSort(
            [
              { values, desc },
              { values: values.map((_, i) => i % 3), desc: false },
            ],
            values.map((_, i) => i),
          )
          expect(Array.from(p), `shape ${k} desc=${desc}`).to.deep.equal(ref)
        }
      }
    })

    it('handles int keys spanning the whole Int32 range', () => {
      const values: V[] = [2147483647, -2147483647, null, 0, -1, 2147483646]
      const p = sortPermutation([{ col: col('int', values), desc: false }], values.length)
      expect(Array.from(p)).to.deep.equal(refSort([{ values, desc: false }], [0, 1, 2, 3, 4, 5]))
    })

    it('sorts only the rows of a base vector, ties in base order', () => {
      const rng = new Rng(11)
      for (const n of [0, 1, 50, 3000]) {
        const values = randomValues(rng, 'int', n, { range: 5 })
        const base = Int32Array.from(Array.from({ length: n }, (_, i) => i).filter(() => rng.chance(0.6))).reverse()
        const p = sortPermutation([{ col: col('int', values), desc: false }], n, base)
        expect(Array.from(p)).to.deep.equal(refSort([{ values, desc: false }], Array.from(base)))
      }
    })
  })

  describe('firstIndexLookup()', () => {
    it('takes the FIRST matching key row', () => {
      const keys = col('int', [5, 7, 5, 7])
      const { match: out } = firstIndexLookup([keys], 4, [col('int', [7, 5, 9])], 3)
      expect(Array.from(out)).to.deep.equal([1, 0, -1])
    })

    it('matches N/A with N/A', () => {
      const { match: out } = firstIndexLookup([col('text', ['a', null])], 2, [col('text', [null, 'a', 'b'])], 3)
      expect(Array.from(out)).to.deep.equal([1, 0, -1])
    })

    it('matches text keys across different dictionaries', () => {
      const { match: out } = firstIndexLookup([col('text', ['x', 'y', 'z'])], 3, [col('text', ['z', 'q', 'x', 'y'])], 4)
      expect(Array.from(out)).to.deep.equal([2, -1, 0, 1])
    })

    it('matches int keys against float keys by value', () => {
      const { match: out } = firstIndexLookup([col('int', [1, 2, null])], 3, [col('float', [2, 2.5, null, -0])], 4)
      expect(Array.from(out)).to.deep.equal([1, -1, 2, -1])
    })

    it('agrees with a first-match reference on random one- and multi-column keys', () => {
      const rng = new Rng(12)
      for (const [n, m] of [
        [0, 5],
        [5, 0],
        [1, 1],
        [40, 60],
        [500, 300],
      ]) {
        for (let t = 0; t < 6; t++) {
          const types = Array.from({ length: 1 + (t % 3) }, () => rng.pick(TYPES))
          const ranges = types.map(() => rng.pick([2, 6, 50_000]))
          const keys = types.map((type, i) => randomValues(rng, type, n, { range: ranges[i] }))
          const probes = types.map((type, i) => randomValues(rng, type, m, { range: ranges[i] }))
          const { match: out } = firstIndexLookup(
            types.map((type, i) => col(type, keys[i])),
            n,
            types.map((type, i) => col(type, probes[i])),
            m,
          )
          expect(Array.from(out), types.join(',')).to.deep.equal(refLookup(keys, n, probes, m))
          // distinct: the key side's different keys, N/A one of them (rows keyed by their values' text).
          const seen = new Set(Array.from({ length: n }, (_, r) => JSON.stringify(keys.map((k) => k[r]))))
          expect(
            firstIndexLookup(
              types.map((type, i) => col(type, keys[i])),
              n,
              types.map((type, i) => col(type, probes[i])),
              m,
            ).distinct,
            types.join(','),
          ).to.equal(seen.size)
        }
      }
    })

    it('accepts pre-aligned text codes passed as int columns', () => {
      const { match: out } = firstIndexLookup([col('int', [3, 1, 3])], 3, [col('int', [1, -2, 3, NA_INT])], 4)
      expect(Array.from(out)).to.deep.equal([1, -1, 0, -1])
    })
  })
})
