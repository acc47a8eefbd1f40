/**
 * Every `<tcol>` summary (each name in SUMMARY_NAMES, aliases included, with and without a
 * weight) over int, float, text and date sources with N/A, tabulated by breaks that take the
 * direct-slot grouping (one small int or date key) and breaks that do not (text, two columns, a
 * wide int key, none): the general group-by, the slot grouping, a worker's whole run and a split
 * run in parts (partials, then their merge) all answer what a plain row-by-row reference does.
 * Floats are compared to the reference within rounding (a split run adds its sums by blocks), and
 * the general and slot groupings to each other bit for bit.
 */
import { expect } from 'chai'
import { SUMMARY_REFERENCE } from '../helpers/summary-reference.js'
import type { ResultSet, TableInput } from '../../shared/protocol.js'
import { tableOfColumns } from '../helpers/engine.js'
import { dataOf } from '../helpers/columns.js'
import { Rng, randomDateColumn, randomFloatColumn, randomIntColumn, randomTextColumn } from '../../engine/columns/random.js'
import { NA_INT, type Column } from '../../engine/columns/types.js'
import type { OpOf } from '../../engine/ast.js'
import { runOps } from '../../engine/interpret/index.js'
import { toResultSet } from '../../engine/parallel/wire.js'
import { runTabu } from '../../engine/interpret/ops/tabu.js'
import { lookupSummary, SUMMARY_NAMES } from '../../engine/summaries/index.js'
import { checkedOps, expectIdentical, MAX_ROWS, single, split, taskOf } from './parallel-harness.js'
import { dictionaryOf } from '../../engine/columns/shared-dictionary.js'

type V = number | bigint | string | null

const WORDS = ['', 'ant', 'bee', 'cat', 'dog', 'eel']
const ROWS = 600
const BLOCK_ROWS = 64

function table(seed: number): TableInput {
  const rng = new Rng(seed)
  const f = randomFloatColumn(rng, ROWS, -50, 50, { na: 0.15, decimals: 1 })
  for (let i = 0; i < ROWS; i += 13) f.data[i] = -0
  const wide = randomIntColumn(rng, ROWS, -3_000_000, 3_000_000, { na: 0.05 })
  // A few rows share wide keys, so wide groups have more than one row.
  for (let i = 1; i < ROWS; i += 5) wide.data[i] = wide.data[i - 1]
  return tableOfColumns('t.all', {
    k: randomIntColumn(rng, ROWS, 0, 9, { na: 0.1 }),
    kd: randomDateColumn(rng, ROWS, 2021, 2021, { na: 0.1 }),
    kt: randomTextColumn(rng, ROWS, WORDS, { na: 0.1 }),
    kw: wide,
    i: randomIntColumn(rng, ROWS, -20, 20, { na: 0.15 }),
    f,
    s: randomTextColumn(rng, ROWS, WORDS, { na: 0.15 }),
    d: randomDateColumn(rng, ROWS, 2019, 2023, { na: 0.15 }),
    w: randomFloatColumn(rng, ROWS, 0, 4, { na: 0.1, decimals: 1 }),
  })
}

/** Row r of a stored column as a plain value, N/A as null. */
function valueAt(t: TableInput, name: string, r: number): V {
  const c = t.columns.find((x) => x.spec.name === name)!
  if (c.spec.type === 'text') {
    const s = dictionaryOf(c)[new Int32Array(c.buffer)[r]]
    return s === '' ? null : s
  }
  if (c.spec.type === 'float') {
    const v = new Float64Array(c.buffer)[r]
    return v !== v ? null : v
  }
  const v = new Int32Array(c.buffer)[r]
  return v === NA_INT ? null : v
}

/** The reference tabulation: groups in order of first appearance, one summary column. */
function reference(t: TableInput, breaks: readonly string[], fun: string, source: string | null, weight: string | null): V[][] {
  const groups = new Map<string, { keys: V[]; vs: V[]; ws: V[] }>()
  for (let r = 0; r < t.rows; r++) {
    const keys = breaks.map((b) => valueAt(t, b, r))
    const id = JSON.stringify(keys)
    let g = groups.get(id)
    if (g === undefined) groups.set(id, (g = { keys, vs: [], ws: [] }))
    g.vs.push(source === null ? 1 : valueAt(t, source, r))
    g.ws.push(weight === null ? null : valueAt(t, weight, r))
  }
  // A tabulation without breaks has its one row even over no rows.
  if (breaks.length === 0 && groups.size === 0) groups.set('[]', { keys: [], vs: [], ws: [] })
  const def = lookupSummary(fun)!
  return [...groups.values()].map((g) => [...g.keys, SUMMARY_REFERENCE[def.name](g.vs, g.ws)])
}

/** A result's rows as plain values (N/A as null). */
function rowsOf(r: ResultSet): V[][] {
  const cols = r.columns.map((c, j) => {
    const d = dataOf(c) as ArrayLike<number | string>
    const type = r.cols[j].logical
    return Array.from({ length: r.rowCount }, (_, i): V => {
      const v = d[i]
      if (type === 'text') return v === '' ? null : v
      if (type === 'float') return v !== v ? null : (v as number)
      return v === NA_INT ? null : v
    })
  })
  return Array.from({ length: r.rowCount }, (_, i) => cols.map((c) => c[i]))
}

function expectRows(actual: V[][], expected: V[][], what: string, tolerance: number): void {
  expect(actual.length, `${what}: rows`).to.equal(expected.length)
  expected.forEach((row, i) =>
    row.forEach((e, j) => {
      const a = actual[i][j]
      const close = typeof a === 'number' && typeof e === 'number' && Math.abs(a - e) <= tolerance * Math.max(1, Math.abs(e))
      if (!close && !Object.is(a, e) && !(a === 0 && e === 0)) expect.fail(`${what}: row ${i} column ${j}: ${String(a)}, expected ${String(e)}`)
    }),
  )
}

const SOURCES: Record<string, string> = { int: 'i', float: 'f', text: 's', date: 'd' }

/** Breaks, and whether the direct-slot grouping takes them. */
const BREAKS: readonly (readonly [string[], string])[] = [
  [['k'], 'slots: small int key'],
  [['kd'], 'slots: date key'],
  [['kt'], 'group-by: text key'],
  [['k', 'kt'], 'group-by: two keys'],
  [['kw'], 'group-by: int key too wide for slots'],
  [[], 'no breaks'],
]

describe('<tabu>: every summary on every path against a row-by-row reference', () => {
  const t = table(18)
  const tables = new Map([[t.path, t]])
  let checked = 0
  let splitRuns = 0

  for (const fun of SUMMARY_NAMES) {
    for (const [type, source] of Object.entries(SOURCES)) {
      for (const weight of [null, 'w']) {
        const def = lookupSummary(fun)!
        if (def.types !== undefined && !def.types.includes(type as Column['type'])) continue
        if (def.needsWeight && weight === null) continue
        // SQL's group_concat takes a text constant (its separator) as its weight: summaries.test.ts
        // and the SQL differential test cover it.
        if (def.weightTypes !== undefined) continue
        it(`${fun} of ${type}${weight ? ' weighted' : ''}`, () => {
          for (const [breaks, how] of BREAKS) {
            const xml = `<base table="t.all"/><tabu${breaks.length ? ` breaks="${breaks.join(',')}"` : ''}><tcol fun="${fun}" source="${source}"${weight ? ` weight="${weight}"` : ''} name="v"/></tabu>`
            const what = `${fun}(${type}${weight ? `, ${weight}` : ''}) by ${how}`
            const ops = checkedOps(xml, [t])
            // var and stdev take the sum of squares in one pass, which loses digits on dates (~2e7).
            const tolerance = def.name === 'var' || def.name === 'stdev' ? 1e-6 : 1e-9
            const expected = reference(t, breaks, fun, source, weight)
            const base = runOps(ops.slice(0, 1), tables)
            const tabu = ops[1] as OpOf<'Tabu'>
            const viaGroups = toResultSet(runTabu(tabu, base, false), MAX_ROWS)
            const viaSlots = toResultSet(runTabu(tabu, base, true), MAX_ROWS)
            expectRows(rowsOf(viaGroups), expected, `${what}, general group-by`, tolerance)
            expectIdentical(viaSlots, viaGroups, `${what}, slots against group-by`)
            const task = taskOf(ops, [t])
            expectRows(rowsOf(single(task, BLOCK_ROWS)), expected, `${what}, one worker`, tolerance)
            // Text extremes split too: the merge puts the parts' dictionaries on one.
            const parts = split(task, 3, BLOCK_ROWS)
            if (parts !== null) {
              expect(parts.ranges, what).to.equal(3)
              expectRows(rowsOf(parts.result), expected, `${what}, split in 3`, tolerance)
              expectIdentical(parts.result, single(task, BLOCK_ROWS), `${what}, split against one worker`)
              splitRuns++
            } else expect(def.accumulates === undefined || weight !== null, `${what} has a plan`).to.equal(true)
            checked++
          }
        })
      }
    }
  }

  it('covered every summary, each accumulating one also split', () => {
    expect(checked).to.be.greaterThan(SUMMARY_NAMES.length * BREAKS.length)
    expect(splitRuns).to.be.greaterThan(0)
  })
})
