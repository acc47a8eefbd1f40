/**
 * The direct-slot `<tabu>` (interpret/ops/tabu-slots.ts) against the general group-by on random
 * tables: every query runs through both and the worksheets must be identical, bit for bit (NaN
 * equal to NaN, -0 apart from 0), column names, types and labels included. The tables mix in N/A
 * keys and values, sorted keys, keys near the Int32 extremes, -0 and ties; the queries put
 * selections, sorts and links (rows with no source row) before the tabulation, and ask for every
 * summary the fast path does, in every break order.
 */
import { expect } from 'chai'
import type { TableInput } from '../../shared/protocol.js'
import { shared, tableOfColumns } from '../helpers/engine.js'
import { Rng, randomDateColumn, randomFloatColumn, randomIntColumn, randomTextColumn } from '../../engine/columns/random.js'
import { NA_INT, type Column } from '../../engine/columns/types.js'
import type { OpOf } from '../../engine/ast.js'
import { parseQuery } from '../../engine/parse/index.js'
import { checkQuery, type CheckedOps } from '../../engine/check/index.js'
import { runOps } from '../../engine/interpret/index.js'
import type { Worksheet } from '../../engine/interpret/worksheet.js'
import { runTabu } from '../../engine/interpret/ops/tabu.js'
import { groupStates } from '../../engine/interpret/ops/tabu-groups.js'
import { accumulationOf, accumulatorOf } from '../../engine/summaries/index.js'

// --- Tables --------------------------------------------------------------------------------------

const tableOf = tableOfColumns

type KeyShape = 'small' | 'sorted' | 'descending' | 'extremes' | 'wide' | 'outlier' | 'allNa'

/** An int key column of one of the shapes that stress the slot table. */
function keyColumn(rng: Rng, rows: number, shape: KeyShape, na: number): Int32Array {
  const out = new Int32Array(rows)
  const lo = rng.int(-50, 50)
  for (let i = 0; i < rows; i++) {
    if (rng.next() < na || shape === 'allNa') {
      out[i] = NA_INT
      continue
    }
    switch (shape) {
      case 'small':
        out[i] = lo + rng.int(0, 12)
        break
      case 'sorted':
        out[i] = lo + Math.floor((i * 40) / rows)
        break
      case 'descending':
        out[i] = lo + 40 - Math.floor((i * 40) / rows)
        break
      case 'extremes': // a small range right at either end of Int32
        out[i] = rng.chance(0.5) ? 0x7fffffff - rng.int(0, 20) : NA_INT + 1 + rng.int(0, 20)
        break
      case 'outlier': // small, but for far-off keys on rows the range sample skips (odd rows)
        out[i] = i % 2 === 1 && i < 8 && rows >= 2048 ? 5_000_000 + i : lo + rng.int(0, 12)
        break
      default: // wider than the slot limit, which a sample shows at once
        out[i] = rng.int(-3_000_000, 3_000_000)
    }
  }
  // 'extremes' spans all of Int32 when both ends occur: keep one end per table most of the time.
  if (shape === 'extremes' && rng.chance(0.7)) {
    const top = rng.chance(0.5)
    for (let i = 0; i < rows; i++) if (out[i] !== NA_INT && out[i] > 0 !== top) out[i] = top ? 0x7fffffff - 3 : NA_INT + 4
  }
  return out
}

/** Floats with N/A, ties, -0, 0 and infinities for min/max and sums to trip over. */
function floatColumn(rng: Rng, rows: number, na: number): Column {
  const c = randomFloatColumn(rng, rows, -100, 100, { na, decimals: 1 })
  const d = c.data as Float64Array
  for (let i = 0; i < rows; i++) {
    if (d[i] !== d[i]) continue
    const r = rng.next()
    if (r < 0.08) d[i] = -0
    else if (r < 0.16) d[i] = 0
    else if (r < 0.18) d[i] = rng.chance(0.5) ? Infinity : -Infinity
  }
  return c
}

function tiesColumn(rng: Rng, rows: number, values: readonly number[]): Column {
  return { type: 'float', data: Float64Array.from({ length: rows }, () => rng.pick(values)) }
}

const WORDS = ['apple', 'kiwi', 'fig', 'banana', 'cherry', 'date', '']

function randomTables(rng: Rng, rows: number): { item: TableInput; other: TableInput; shape: KeyShape } {
  const shapes: KeyShape[] = ['small', 'small', 'small', 'sorted', 'descending', 'extremes', 'wide', 'outlier', 'allNa']
  const shape = rng.pick(shapes)
  const na = rng.pick([0, 0, 0.05, 0.3])
  const item = tableOf('t.item', {
    k: { type: 'int', data: keyColumn(rng, rows, shape, na) },
    d: randomDateColumn(rng, rows, 2020, 2020, { na }), // one year: a few hundred date keys
    i: randomIntColumn(rng, rows, -5, 5, { na }),
    f: floatColumn(rng, rows, na),
    s: randomTextColumn(rng, rows, WORDS, { na }),
    g: randomIntColumn(rng, rows, 0, 6, { na }),
    // Ties at zero: which of 0 and -0 min and max keep shows whether they keep the first.
    z: tiesColumn(rng, rows, [0, -0, 1, Number.NaN]),
    y: tiesColumn(rng, rows, [0, -0, -1, Number.NaN]),
  })
  const m = rng.int(0, 6)
  const other = tableOf('t.other', {
    g2: randomIntColumn(rng, m, 0, 8),
    w: randomIntColumn(rng, m, 1, 4, { na: 0.2 }),
    x: floatColumn(rng, m, 0.2),
  })
  return { item, other, shape }
}

/** Whether the one evaluator groups this tabulation's rows by direct slots. */
function takesSlots(tabu: OpOf<'Tabu'>, ws: Worksheet): boolean {
  const names = tabu.tcols.map(accumulatorOf)
  if (names.some((n) => n === null)) return false
  const grouping = {
    breaks: tabu.breaks,
    mask: null,
    alwaysOneGroup: true,
    starts: Int32Array.of(0, ws.rows),
    order: 'any' as const,
    unknownColumn: (n: string) => new Error(n),
  }
  return (
    groupStates(
      ws,
      grouping,
      tabu.tcols.map((t, i) => ({ accumulates: accumulationOf(names[i]!), source: t.source, weight: t.weight })),
    ).slotOrder !== null
  )
}

// --- Queries -------------------------------------------------------------------------------------

const FUNS = ['cnt', 'cntnna', 'sum', 'avg', 'min', 'max', 'first', 'last', 'count', 'mean', 'nna', 'wsum', 'wavg']
const NUMERIC_SOURCES = ['i', 'f', 'd', 'k', 'z', 'y', 'f*2', 'i+1']
const ANY_SOURCES = [...NUMERIC_SOURCES, 's']
const NEEDS_NUMBER = new Set(['sum', 'avg', 'mean', 'wsum', 'wavg'])
const WEIGHTED = new Set(['wsum', 'wavg'])

function randomTcol(rng: Rng, n: number, linked: boolean): string {
  const fun = rng.pick(FUNS)
  const pool = [...(NEEDS_NUMBER.has(fun) ? NUMERIC_SOURCES : ANY_SOURCES), ...(linked ? ['w', 'x'] : [])]
  const source = fun === 'cnt' || fun === 'count' ? (rng.chance(0.2) ? ` source="f"` : '') : ` source="${rng.pick(pool)}"`
  const weight = WEIGHTED.has(fun) ? ` weight="${rng.pick(NUMERIC_SOURCES)}"` : ''
  return `<tcol fun="${fun}"${source}${weight} name="c${n}"/>`
}

function randomQuery(rng: Rng): string {
  const before: string[] = []
  const linked = rng.chance(0.25)
  if (linked) before.push('<link table2="t.other" col="g" col2="g2" cols="w,x"/>')
  if (rng.chance(0.3)) before.push(`<sel value="i > ${rng.int(-6, 3)}"/>`)
  if (rng.chance(0.2)) before.push(`<sort cols="${rng.pick(['f', 'i,f', 's'])}"/>`)
  if (rng.chance(0.1)) before.push('<sel value="i > 100"/>') // nothing left
  const key = linked && rng.chance(0.5) ? 'w' : rng.chance(0.8) ? 'k' : 'd'
  const sort = rng.pick(['', 'up', 'down', 'none'])
  const spec = sort === '' ? '' : `<break col="${key}" sort="${sort}" naorder="${rng.pick(['first', 'last'])}"/>`
  const tcols = Array.from({ length: rng.int(1, 4) }, (_, n) => randomTcol(rng, n, linked)).join('')
  return `<base table="t.item"/>${before.join('')}<tabu breaks="${key}">${spec}${tcols}</tabu>`
}

/** The checked operations before the tabulation, and the tabulation itself. */
function prepare(xml: string, tables: readonly TableInput[]): { before: CheckedOps; tabu: OpOf<'Tabu'> } {
  const checked = checkQuery(parseQuery(xml, {}), new Map(tables.map((t) => [t.path, t.columns.map((c) => c.spec)]))).ops
  const tabu = checked[checked.length - 1]
  if (tabu.kind !== 'Tabu') throw new Error('expected a tabu last')
  return { before: checked.slice(0, -1), tabu }
}

// --- Comparing -----------------------------------------------------------------------------------

function cells(col: Column): unknown[] {
  return col.type === 'text' ? Array.from(col.codes, (c) => col.dict[c]) : Array.from(col.data as ArrayLike<unknown>)
}

/** First difference between two worksheets ('' when identical); Object.is tells -0 from 0. */
function difference(a: Worksheet, b: Worksheet): string {
  if (a.rows !== b.rows) return `rows ${a.rows} vs ${b.rows}`
  if (a.cols.length !== b.cols.length) return `columns ${a.cols.length} vs ${b.cols.length}`
  for (let c = 0; c < a.cols.length; c++) {
    const x = a.cols[c]
    const y = b.cols[c]
    if (x.name !== y.name || x.type !== y.type) return `column ${c}: ${x.name} ${x.type} vs ${y.name} ${y.type}`
    if (JSON.stringify(x.info) !== JSON.stringify(y.info)) return `column ${x.name}: info ${JSON.stringify(x.info)} vs ${JSON.stringify(y.info)}`
    const xs = cells(x.data())
    const ys = cells(y.data())
    for (let r = 0; r < xs.length; r++) if (!Object.is(xs[r], ys[r])) return `column ${x.name} row ${r}: ${String(xs[r])} vs ${String(ys[r])}`
  }
  return ''
}

// --- Tests ---------------------------------------------------------------------------------------

describe('tabu by direct slots (the fast path) matches the general path', () => {
  it('on 400 random tables and queries', () => {
    const rng = new Rng(20261122)
    let fast = 0
    for (let q = 0; q < 400; q++) {
      const rows = rng.pick([0, 1, 2, 7, 50, 300, 3000])
      const { item, other, shape } = randomTables(rng, rows)
      const tables = new Map([item, other].map((t) => [t.path, t]))
      const xml = randomQuery(rng)
      const { before, tabu } = prepare(xml, [item, other])
      // Fresh worksheets for each path, so the fast one reads through unmaterialised row indexes.
      const viaFast = runTabu(tabu, runOps(before, tables), true)
      const viaGeneral = runTabu(tabu, runOps(before, tables), false)
      const diff = difference(viaFast, viaGeneral)
      expect(diff, `query ${q} (${rows} rows, keys ${shape}): ${xml}`).to.equal('')
      if (takesSlots(tabu, runOps(before, tables))) fast++
    }
    // Most queries qualify; the rest (wide keys) exercise the fallback.
    expect(fast).to.be.greaterThan(250)
    expect(fast).to.be.lessThan(400)
  })

  it('takes the fast path for small key ranges and gives up on wide ones, before or while counting', () => {
    const rng = new Rng(7)
    const query = '<base table="t.item"/><tabu breaks="k"><tcol fun="cnt"/><tcol fun="sum" source="f"/></tabu>'
    for (const [shape, expected] of [
      ['small', true],
      ['sorted', true],
      ['descending', true],
      ['allNa', true],
      ['wide', false],
      ['outlier', false],
    ] as const) {
      const { item, other } = randomTables(rng, 5000)
      const keys = keyColumn(rng, 5000, shape, 0.1)
      const table: TableInput = { ...item, columns: item.columns.map((c) => (c.spec.name === 'k' ? { ...c, buffer: shared(keys) } : c)) }
      const { before, tabu } = prepare(query, [table, other])
      const ws = runOps(before, new Map([[table.path, table]]))
      expect(takesSlots(tabu, ws), shape).to.equal(expected)
    }
  })

  it('keeps every break order and N/A placement on a hand-made table', () => {
    const item = tableOf('t.item', {
      k: { type: 'int', data: Int32Array.from([3, NA_INT, 1, 3, 2, NA_INT, 1]) },
      f: { type: 'float', data: Float64Array.from([1, 2, Number.NaN, 4, -0, 6, 0]) },
    })
    const expected: Record<string, (number | null)[]> = {
      'sort="up" naorder="first"': [null, 1, 2, 3],
      'sort="up" naorder="last"': [1, 2, 3, null],
      'sort="down" naorder="first"': [null, 3, 2, 1],
      'sort="down" naorder="last"': [3, 2, 1, null],
      'sort="none" naorder="first"': [3, null, 1, 2],
    }
    for (const [attrs, keys] of Object.entries(expected)) {
      const xml = `<base table="t.item"/><tabu breaks="k"><break col="k" ${attrs}/><tcol fun="cnt"/><tcol fun="min" source="f"/></tabu>`
      const { before, tabu } = prepare(xml, [item])
      const ws = runTabu(tabu, runOps(before, new Map([[item.path, item]])), true)
      const got = Array.from((ws.cols[0].data() as { data: Int32Array }).data, (v) => (v === NA_INT ? null : v))
      expect(got, attrs).to.deep.equal(keys)
      expect(difference(ws, runTabu(tabu, runOps(before, new Map([[item.path, item]])), false)), attrs).to.equal('')
    }
  })
})
