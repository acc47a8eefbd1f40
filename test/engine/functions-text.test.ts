import { expect } from 'chai'
import { columnFromValues, columnValues, gather, type Column, type ScalarList, type Value } from '../../engine/columns/index.js'
import { Rng } from '../../engine/columns/random.js'
import { FUNCTIONS } from '../../engine/functions/index.js'

// Plain values (null = N/A) and deliberately simple row-by-row references.
type V = number | bigint | string | null

const WORDS = [' ab ', 'Abc', 'abc', 'xyz', 'aXb', 'b', 'Hello World', 'ABC', 'cab', 'élan']
const NEEDLES = ['a', 'b', 'AB', 'ab', 'c', 'x', 'World', 'zz', 'É', ' ']
const SIZES = [0, 1, 4, 80, 600]

const randomTexts = (rng: Rng, n: number, na = 0.15): (string | null)[] => Array.from({ length: n }, () => (rng.next() < na ? null : rng.pick(WORDS)))
const text = (values: readonly (string | null)[]): Column => columnFromValues('text', values)
const str = (value: string): Value => ({ kind: 'scalar', type: 'text', value })
const int = (value: number): Value => ({ kind: 'scalar', type: 'int', value })

function call(name: string, args: readonly Value[], rows: number): V[] {
  return columnValues(
    FUNCTIONS[name].kernel(
      args.map((value) => ({ kind: 'value' as const, value })),
      { rows },
    ),
  )
}

const MATCHERS: Record<string, (s: string, y: string) => boolean> = {
  contains: (s, y) => s.includes(y),
  beginswith: (s, y) => s.startsWith(y),
  endswith: (s, y) => s.endsWith(y),
}

/** Reference: 0 when either side is N/A, else the test (on lower case for _ci). */
function refMatch(kind: string, ci: boolean, x: string | null, ys: readonly (string | null)[]): number {
  if (x === null) return 0
  const fold = (s: string): string => (ci ? s.toLowerCase() : s)
  return ys.some((y) => y !== null && y !== '' && MATCHERS[kind](fold(x), fold(y))) ? 1 : 0
}

const orNull = (s: string): string | null => (s === '' ? null : s)

describe('engine/functions: text', () => {
  for (const kind of Object.keys(MATCHERS)) {
    for (const ci of [false, true]) {
      const name = ci ? `${kind}_ci` : kind
      it(`${name} agrees with a reference for a constant, a list and a column Y`, () => {
        const rng = new Rng(name.length * 31 + (ci ? 7 : 0))
        for (const n of SIZES) {
          const xs = randomTexts(rng, n)
          const x = text(xs)
          const y = rng.pick(NEEDLES)
          expect(call(name, [x, str(y)], n), `${name} '${y}'`).to.deep.equal(xs.map((v) => refMatch(kind, ci, v, [y])))
          const members = [rng.pick(NEEDLES), rng.pick(NEEDLES), '']
          const list: ScalarList = { kind: 'list', type: 'text', values: members }
          expect(call(name, [x, list], n), `${name} list`).to.deep.equal(xs.map((v) => refMatch(kind, ci, v, members)))
          const ys = Array.from({ length: n }, () => (rng.chance(0.15) ? null : rng.pick(NEEDLES)))
          expect(call(name, [x, text(ys)], n), `${name} column`).to.deep.equal(xs.map((v, i) => refMatch(kind, ci, v, [ys[i]])))
        }
        expect(call(name, [str('Abc'), str('b')], 2)).to.deep.equal([1, 1].map(() => refMatch(kind, ci, 'Abc', ['b'])))
      })
    }
  }

  it("gives 0 for N/A X and for an N/A ('') Y", () => {
    expect(call('contains', [text([null, 'abc']), str('')], 2)).to.deep.equal([0, 0])
    expect(call('contains', [text([null, 'abc']), str('a')], 2)).to.deep.equal([0, 1])
  })

  it('tests only the dictionary entries that rows use when the dictionary is large', () => {
    const big = text(Array.from({ length: 500 }, (_, i) => `w${i}`))
    const few = gather(big, Int32Array.from([3, 499, -1]))
    expect(call('beginswith', [few, str('w49')], 3)).to.deep.equal([0, 1, 0])
  })

  const MAPS: Record<string, (s: string) => string> = {
    strupcase: (s) => s.toUpperCase(),
    strdowncase: (s) => s.toLowerCase(),
    strtrim: (s) => s.trim(),
  }
  for (const [name, ref] of Object.entries(MAPS)) {
    it(`${name} agrees with a row-by-row reference`, () => {
      const rng = new Rng(name.length * 13)
      for (const n of SIZES) {
        const xs = randomTexts(rng, n)
        expect(call(name, [text(xs)], n)).to.deep.equal(xs.map((v) => (v === null ? null : orNull(ref(v)))))
      }
    })
  }

  it('strlen agrees with a reference, N/A for N/A', () => {
    const rng = new Rng(70)
    for (const n of SIZES) {
      const xs = randomTexts(rng, n)
      expect(call('strlen', [text(xs)], n)).to.deep.equal(xs.map((v) => (v === null ? null : v.length)))
    }
  })

  it('substr agrees with a 1-based reference, with and without a length', () => {
    const rng = new Rng(71)
    const ref = (s: string | null, start: number, len: number | null): string | null => {
      if (s === null) return null
      const from = Math.max(0, start - 1)
      const to = len === null ? s.length : start - 1 + Math.max(0, len)
      return orNull(s.slice(from, Math.max(from, to)))
    }
    for (const n of SIZES) {
      const xs = randomTexts(rng, n)
      for (const [start, len] of [
        [1, 3],
        [2, null],
        [5, 2],
        [0, 2],
        [20, 1],
        [3, 0],
      ] as [number, number | null][]) {
        const args: Value[] = len === null ? [text(xs), int(start)] : [text(xs), int(start), int(len)]
        expect(call('substr', args, n), `substr(;${start};${len})`).to.deep.equal(xs.map((v) => ref(v, start, len)))
      }
    }
  })

  it('padright keeps the first N characters, padding with spaces on the right; padleft keeps the last N, padding on the left', () => {
    const rng = new Rng(72)
    for (const n of SIZES) {
      const xs = randomTexts(rng, n)
      for (const w of [0, 2, 4, 12]) {
        expect(call('padright', [text(xs), int(w)], n)).to.deep.equal(xs.map((v) => (v === null ? null : orNull(v.slice(0, w).padEnd(w, ' ')))))
        expect(call('padleft', [text(xs), int(w)], n)).to.deep.equal(
          xs.map((v) => (v === null ? null : orNull(v.length >= w ? v.slice(v.length - w) : v.padStart(w, ' ')))),
        )
      }
    }
    expect(call('padright', [text(['5391123456', '55531', '12']), int(4)], 3)).to.deep.equal(['5391', '5553', '12  '])
    expect(call('padleft', [text(['5391123456', '12']), int(4)], 2)).to.deep.equal(['3456', '  12'])
  })

  it('rejects numbers where text belongs, naming the argument', () => {
    expect(FUNCTIONS.contains.result(['int', 'text'])).to.deep.equal({ error: 'contains needs text, got a number for X' })
    expect(FUNCTIONS.endswith_ci.result(['text', 'date'])).to.deep.equal({ error: 'endswith_ci needs text, got a date for Y' })
    expect(FUNCTIONS.strupcase.result(['float'])).to.deep.equal({ error: 'strupcase needs text, got a number for X' })
    expect(FUNCTIONS.substr.result(['text', 'int', 'int'])).to.equal('text')
    expect(FUNCTIONS.substr.args[1].constant).to.equal(true)
  })

  it('reports a column given where a constant belongs', () => {
    expect(() => call('substr', [text(['abc']), columnFromValues('int', [1])], 1)).to.throw(/must be a constant number/)
  })
})
