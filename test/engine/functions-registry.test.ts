import { expect } from 'chai'
import { columnFromValues, columnLength, groupBy, type ColumnType, type Value } from '../../engine/columns/index.js'
import { Rng } from '../../engine/columns/random.js'
import { FUNCTIONS, lookupFunction, type ArgSpec, type FunctionDef, type KernelArg } from '../../engine/functions/index.js'
import { fallbackOf } from '../../engine/task/outcome.js'

/** The spec of argument i, following repeatFrom (as the checker reads it). */
function specAt(def: FunctionDef, i: number): ArgSpec {
  if (i < def.args.length) return def.args[i]
  const from = def.repeatFrom!
  return def.args[from + ((i - from) % (def.args.length - from))]
}

/** Arguments up to the last required one (optional G/S/O come before X). */
const arity = (def: FunctionDef): number => def.minArgs ?? def.args.reduce((n, a, i) => (a.optional ? n : i + 1), 0)

function sampleValue(rng: Rng, type: ColumnType, rows: number): (number | string | null)[] {
  return Array.from({ length: rows }, () => {
    if (rng.chance(0.2)) return null
    if (type === 'text') return rng.pick(['a', 'bb', 'Abc'])
    if (type === 'date') return rng.pick([20240229, 19991231, 20210704])
    return type === 'float' ? rng.int(-8, 8) / 2 : rng.int(-3, 3)
  })
}

/** Arguments of the declared kinds and first accepted types, and the types the checker would pass. */
function sampleArgs(def: FunctionDef, rows: number, rng: Rng): { args: KernelArg[]; types: (ColumnType | null)[] } {
  const args: KernelArg[] = []
  const types: (ColumnType | null)[] = []
  for (let i = 0; i < arity(def); i++) {
    const spec = specAt(def, i)
    if (spec.kind === 'group') {
      args.push({ kind: 'group', groups: groupBy([columnFromValues('int', sampleValue(rng, 'int', rows))], rows) })
      types.push(null)
    } else if (spec.kind === 'select') {
      args.push({ kind: 'select', mask: Uint8Array.from({ length: rows }, () => (rng.chance(0.7) ? 1 : 0)) })
      types.push(null)
    } else if (spec.kind === 'order') {
      args.push({ kind: 'order', order: Int32Array.from({ length: rows }, (_, r) => rows - 1 - r) })
      types.push(null)
    } else {
      const type = spec.types?.[0] ?? 'int'
      const value: Value = spec.constant
        ? type === 'text'
          ? { kind: 'scalar', type: 'text', value: spec.name === 'TS' ? 'D' : ',' }
          : { kind: 'scalar', type: 'int', value: 2 }
        : columnFromValues(type, sampleValue(rng, type, rows))
      args.push({ kind: 'value', value })
      types.push(type)
    }
  }
  return { args, types }
}

describe('engine/functions: registry', () => {
  const entries = Object.entries(FUNCTIONS)

  it('has one row per name, each named by its key, with argument specs and a one-line doc', () => {
    expect(entries.length).to.be.greaterThan(80)
    for (const [name, def] of entries) {
      expect(def.name, name).to.equal(name)
      expect(def.doc, name).to.be.a('string').and.match(/\S/)
      expect(def.doc, name).to.not.include('\n')
      expect(def.args, name).to.be.an('array')
      expect(def.kernel, name).to.be.a('function')
      if (def.repeatFrom !== undefined) expect(def.repeatFrom, name).to.be.below(def.args.length)
    }
  })

  it('covers the operators, row, math, conditional, text, date and group families', () => {
    const expected = [
      '+',
      '-',
      '*',
      '/',
      '^',
      'neg',
      '=',
      '<>',
      '<',
      '>',
      '<=',
      '>=',
      '&',
      '|',
      'not',
      'i_',
      'abs',
      'ceil',
      'ceiling',
      'floor',
      'int',
      'round',
      'sqrt',
      'exp',
      'ln',
      'log',
      'log10',
      'mod',
      'max',
      'min',
      'sign',
      'pow',
      'if',
      'between',
      'case',
      'contains',
      'contains_ci',
      'beginswith',
      'beginswith_ci',
      'endswith',
      'endswith_ci',
      'strupcase',
      'strdowncase',
      'strtrim',
      'strlen',
      'substr',
      'padleft',
      'padright',
      'year',
      'month',
      'day',
      'yrmo',
      'quarter',
      'weekday',
      'dayofwk',
      'dayofyear',
      'monthend',
      'dateadd',
      'addmonths',
      'addyears',
      'datediff',
      'daynum',
      'numdate',
      'hour',
      'minute',
      'second',
      'datetime',
      'dtdate',
      'dttime',
      'g_sum',
      'g_cnt',
      'g_cumcnt',
      'g_cumsum',
      'g_avg',
      'g_min',
      'g_max',
      'g_first',
      'g_last',
      'g_first1',
      'g_last1',
      'g_nth',
      'g_rank',
      'g_rankskip',
      'g_ucnt',
      'g_median',
      'g_stdev',
      'g_var',
      'g_wavg',
      'g_pct',
      'g_num',
      'g_cumrunlen',
      'g_rshift',
      'g_rshifti',
      'g_tshift',
      'g_splice',
      'g_cummax',
      'g_cummin',
      'g_cumavg',
    ]
    for (const name of expected) expect(FUNCTIONS[name], name).to.not.equal(undefined)
  })

  it('looks names up case-insensitively and finds nothing for unknown names or Object members', () => {
    expect(lookupFunction('G_SUM')).to.equal(FUNCTIONS.g_sum)
    expect(lookupFunction('Contains_CI')).to.equal(FUNCTIONS.contains_ci)
    expect(lookupFunction('nosuch')).to.equal(undefined)
    expect(lookupFunction('constructor')).to.equal(undefined)
    expect(lookupFunction('toString')).to.equal(undefined)
  })

  for (const rows of [0, 1, 7]) {
    it(`runs every kernel on ${rows} row(s) of sample arguments, giving ${rows} row(s) of the type result() promises`, () => {
      const rng = new Rng(rows + 1)
      for (const [name, def] of entries) {
        const { args, types } = sampleArgs(def, rows, rng)
        const type = def.result(types)
        expect(type, `${name}(${types.join(';')})`).to.be.a('string')
        let out
        try {
          out = def.kernel(args, { rows })
        } catch (e) {
          // An SQL kernel may decline data it cannot answer exactly as SQLite (ties in a window's order).
          if (name.startsWith('$') && fallbackOf(e)?.kind === 'sqlite') continue
          throw e
        }
        expect(columnLength(out), name).to.equal(rows)
        expect(out.type, name).to.equal(type)
      }
    })
  }

  it('gives result errors as messages without a trailing period (the checker adds its own framing)', () => {
    for (const [name, def] of entries) {
      const types = def.args.map((a) => (a.kind === 'value' ? 'text' : null)) as (ColumnType | null)[]
      const r = def.result(types.length > 0 ? types : [])
      if (typeof r === 'object') {
        expect(r.error, name).to.be.a('string').and.not.match(/\.$/)
        expect(r.error.startsWith(name === 'not' ? '~' : name) || /^(\+|-|\*|\/|\^|&|\||Unary minus)/.test(r.error), `${name}: ${r.error}`).to.equal(true)
      }
    }
  })
})
