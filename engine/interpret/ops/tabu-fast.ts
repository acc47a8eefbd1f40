/**
 * `<tabu>` by direct slots: one int or date break column whose keys span a small range, and only
 * summaries that accumulate row by row (cnt, cntnna, sum, avg, min, max, first, last).
 *
 * The general path makes a pass over the rows per step (key range, a group id per row, first
 * rows, one pass per summary), each memory-bound. Here a key indexes its group's accumulators
 * directly (columns/key-slots.ts), and nothing is written per row:
 *
 * 1. The counting pass: rows per key, the key range found on the way, and fused into the same
 *    loop one sum, avg or cntnna over a float column. `cnt` and `sum(x)` take this pass only.
 * 2. Only if other summaries remain: one pass in blocks of a few thousand rows, the block's slots
 *    kept in a small array that stays in cache while each summary adds the block.
 * 3. First (or last) rows, only when the order of first appearance or first/last values are
 *    wanted: a scan that stops once every group has been seen, usually early.
 *
 * Groups come out in slot order (N/A, then keys ascending), which already is the sorted order a
 * `<break sort>` asks for (or its reverse); without one, their first rows give the order of first
 * appearance. Either way the output is exactly the general path's.
 */
import type { BreakSpec, Op, Tcol } from '../../ast.js'
import { gather, sortPermutation } from '../../columns/index.js'
import { firstRowsOf, KeySlots, keyAt, lastRowsOf, sampledRange, slotsOf, usedSlots, type SlotVector } from '../../columns/key-slots.js'
import { NA_INT, type Column } from '../../columns/types.js'
import { accumulatorOf, type Accumulator } from '../../summaries/index.js'
import { countKeys, countKeysSum, countKeysSumValid, countSumBlock, countValidBlock, maxBlock, minBlock, sumBlock } from '../../summaries/slot-kernels.js'
import { evalColumn } from '../eval.js'
import { composeIndex, type ColumnView, type Worksheet } from '../worksheet.js'

/** A tabulation's groups before ordering: one row per group in every column. */
export interface Tabulated {
  readonly count: number
  /** One column per break: each group's break values. */
  readonly values: Column[]
  /** One column per tcol. */
  readonly summaries: Column[]
  /** The groups in output order, as group-order.ts defines it (null: as they are). */
  readonly order: Int32Array | null
}

/**
 * Rows per block of the block pass: the block's slots (16 KB) and a converted value block
 * (32 KB) stay in the fast caches while each summary reads them.
 */
const BLOCK = 4096

/** Widest key range given direct slots: beyond it the per-slot arrays outgrow their use. */
const slotLimit = (rows: number): number => Math.max(1 << 16, rows >> 3)

/** Rows sampled to turn away wide key ranges early. */
const SAMPLES = 1024

/**
 * False when a sample of the keys already spans more than `limit`. Without it a wide key column
 * (transaction numbers, say) would be discovered only part-way through the counting pass, which
 * on 10M sorted keys wasted ~70 ms before the general path started over.
 */
function mayFit(keys: Int32Array, rows: Int32Array | null, n: number, limit: number): boolean {
  const [min, max] = sampledRange(keys, rows, n, SAMPLES)
  return min > max || max - min + 1 <= limit
}

/**
 * The tabulation by direct slots, or null when it does not qualify (another break shape, another
 * summary, a wide key range): the general path then runs as if this had not been tried.
 * @param sources filled with the tcol sources evaluated here, for the general path to reuse
 */
export function fastTabu(op: Op & { kind: 'Tabu' }, ws: Worksheet, sources: (Column | null)[]): Tabulated | null {
  const key = keyView(op, ws)
  // Anything unusual (a weight, a summary with no accumulator, a missing source) goes to the
  // general path, which also reports the errors.
  const names = op.tcols.map(accumulatorOf)
  if (key === null || !isEvery(names)) return null
  const keys = (key.source as { data: Int32Array }).data
  const limit = slotLimit(ws.rows)
  if (!mayFit(keys, key.index, ws.rows, limit)) return null
  const views = op.tcols.map((t, i) => sourceView(t, ws, sources, i))
  const table = new KeySlots(limit)
  const counts = table.counts
  const fusedAt = names.findIndex((name, i) => MOMENTS.has(name) && views[i]!.source.type === 'float' && views[i]!.index === key.index)
  const fused = fusedAt < 0 ? null : new Moments(table, views[fusedAt]!, names[fusedAt] !== 'sum')
  if (!countPass(keys, key.index, ws.rows, table, fused)) return null

  const rows: EdgeRows = { first: null, last: null }
  const tcols = names.map((name, i) => (i === fusedAt ? fusedTcol(name, fused!) : otherTcol(name, views[i], table, counts, rows)))
  const blocked = tcols.filter((t) => t.add !== undefined)
  if (blocked.length > 0) blockPass(new KeyBlocks(key), table, blocked, ws.rows)

  const groups = usedSlots(counts.data)
  const spec = op.breakSpecs.find((b) => b.col === op.breaks[0])
  const unsorted = spec === undefined || spec.sort === 'none'
  if (unsorted || names.includes('first')) {
    rows.first = table.int32(-1)
    firstRowsOf(keys, key.index, ws.rows, table, groups.length, rows.first.data)
  }
  if (names.includes('last')) {
    rows.last = table.int32(-1)
    lastRowsOf(keys, key.index, ws.rows, table, groups.length, rows.last.data)
  }
  return {
    count: groups.length,
    values: [{ type: key.source.type as 'int' | 'date', data: keysOf(table, groups) }],
    summaries: tcols.map((t) => t.finish(groups)),
    order: unsorted ? appearanceOrder(pickInt(rows.first!, groups)) : keyOrder(spec, groups),
  }
}

// --- What qualifies ------------------------------------------------------------------------

/** Summaries computed from a count and a sum of the non-N/A values. */
const MOMENTS: ReadonlySet<Accumulator> = new Set<Accumulator>(['sum', 'avg', 'cntnna'])

/** True when every tcol has an accumulator (summaries/index.ts), so this path covers them all. */
const isEvery = (names: readonly (Accumulator | null)[]): names is Accumulator[] => names.every((n) => n !== null)

/** The single int or date break column, as stored; null when the tabulation has another shape. */
function keyView(op: Op & { kind: 'Tabu' }, ws: Worksheet): ColumnView | null {
  if (op.breaks.length !== 1 || op.cbreaks.length > 0) return null
  const view = ws.column(op.breaks[0])?.view() ?? null
  return view !== null && (view.source.type === 'int' || view.source.type === 'date') ? view : null
}

/**
 * A tcol's source: a plain column is read through the worksheet's row index without gathering
 * it; an expression is evaluated as the general path would (and kept for it in `sources`).
 */
function sourceView(t: Tcol, ws: Worksheet, sources: (Column | null)[], i: number): ColumnView | null {
  if (t.source === null) return null
  const col = t.source.kind === 'Col' ? ws.column(t.source.name) : undefined
  if (col !== undefined) return col.view()
  const data = evalColumn(t.source, ws)
  sources[i] = data
  return { source: data, index: null }
}

// --- The counting pass -----------------------------------------------------------------------

/** Per-slot count and sum of the non-N/A values of a float column read in the counting pass. */
class Moments {
  readonly x: Float64Array
  readonly n: SlotVector<Int32Array> | null
  readonly s: SlotVector<Float64Array>

  constructor(table: KeySlots, view: ColumnView, withCount: boolean) {
    this.x = (view.source as { data: Float64Array }).data
    this.n = withCount ? table.int32() : null
    this.s = table.float64()
  }
}

/**
 * Counts rows per key (and accumulates `fused`), widening the table at each key outside it.
 * @returns false when the keys span too wide a range
 */
function countPass(keys: Int32Array, rows: Int32Array | null, n: number, table: KeySlots, fused: Moments | null): boolean {
  const counts = table.counts
  let i = 0
  while (i < n) {
    // Vectors are read at each call: widening replaces them.
    const { lo, width } = table
    if (fused === null) i = countKeys(keys, rows, i, n, lo, width, counts.data)
    else if (fused.n === null) i = countKeysSum(keys, fused.x, rows, i, n, lo, width, counts.data, fused.s.data)
    else i = countKeysSumValid(keys, fused.x, rows, i, n, lo, width, counts.data, fused.n.data, fused.s.data)
    if (i < n) {
      const k = keyAt(keys, rows, i)
      if (!table.include(k, k)) return false
    }
  }
  return true
}

// --- Reading blocks ------------------------------------------------------------------------

/** The key column block by block: the stored Int32Array itself, or gathered through the index. */
class KeyBlocks {
  /** Where `load` puts the rows; fixed, so callers may read it before calling `load`. */
  readonly array: Int32Array
  private readonly stored: Int32Array

  constructor(private readonly view: ColumnView) {
    this.stored = (view.source as { data: Int32Array }).data
    this.array = view.index === null ? this.stored : new Int32Array(BLOCK)
  }

  /** Makes rows start … start+len-1 readable in `array`; returns the offset of row `start`. */
  load(start: number, len: number): number {
    if (this.view.index === null) return start
    intsThrough(this.stored, this.view.index, start, len, this.array)
    return 0
  }
}

/**
 * A source column block by block as doubles with NaN for N/A, the form every block kernel takes:
 * a stored float column is read in place, anything else is converted into a scratch block.
 * Text reads as its codes (code 0, text N/A, as NaN): codes order like the strings.
 */
class DoubleBlocks {
  /** Where `load` puts the rows (as KeyBlocks.array). */
  readonly array: Float64Array

  constructor(private readonly view: ColumnView) {
    const { source, index } = view
    this.array = source.type === 'float' && index === null ? source.data : new Float64Array(BLOCK)
  }

  /** Makes rows start … start+len-1 readable in `array`; returns the offset of row `start`. */
  load(start: number, len: number): number {
    const { source, index } = this.view
    if (source.type === 'float') {
      if (index === null) return start
      floatsThrough(source.data, index, start, len, this.array)
    } else {
      const ints = source.type === 'text' ? source.codes : source.data
      const na = source.type === 'text' ? 0 : NA_INT
      if (index === null) intsAsDoubles(ints, na, start, len, this.array)
      else intsAsDoublesThrough(ints, na, index, start, len, this.array)
    }
    return 0
  }
}

// One monomorphic loop per case: V8 compiles each for one array type and no per-row test of
// which case it is. An index entry of -1 is a row with no source row (N/A).

function intsThrough(src: Int32Array, index: Int32Array, start: number, len: number, out: Int32Array): void {
  for (let j = 0; j < len; j++) {
    const r = index[start + j]
    out[j] = r < 0 ? NA_INT : src[r]
  }
}

function floatsThrough(src: Float64Array, index: Int32Array, start: number, len: number, out: Float64Array): void {
  for (let j = 0; j < len; j++) {
    const r = index[start + j]
    out[j] = r < 0 ? Number.NaN : src[r]
  }
}

function intsAsDoubles(src: Int32Array, na: number, start: number, len: number, out: Float64Array): void {
  for (let j = 0; j < len; j++) {
    const v = src[start + j]
    out[j] = v === na ? Number.NaN : v
  }
}

function intsAsDoublesThrough(src: Int32Array, na: number, index: Int32Array, start: number, len: number, out: Float64Array): void {
  for (let j = 0; j < len; j++) {
    const r = index[start + j]
    const v = r < 0 ? na : src[r]
    out[j] = v === na ? Number.NaN : v
  }
}

// --- Summaries ---------------------------------------------------------------------------------

/** One tcol: `add` when it takes the block pass, and its value per group in the end. */
interface FastTcol {
  /** Adds the block of rows start … start+len-1, whose slots are `slots[0…len)`. */
  readonly add?: (slots: Int32Array, start: number, len: number) => void
  /** The summary of each group, given the groups' slots. */
  finish(groups: Int32Array): Column
}

/** First and last rows per slot, filled in after the passes when a summary or the order needs them. */
interface EdgeRows {
  first: SlotVector<Int32Array> | null
  last: SlotVector<Int32Array> | null
}

/** The tcol whose count and sum the counting pass accumulated. */
function fusedTcol(name: Accumulator, m: Moments): FastTcol {
  return { finish: (groups) => momentsResult(name, m.n, m.s, groups) }
}

function otherTcol(name: Accumulator, view: ColumnView | null, table: KeySlots, counts: SlotVector<Int32Array>, rows: EdgeRows): FastTcol {
  switch (name) {
    case 'cnt':
      return { finish: (groups) => ({ type: 'int', data: pickInt(counts, groups) }) }
    case 'first':
      return { finish: (groups) => valuesAt(view!, pickInt(rows.first!, groups)) }
    case 'last':
      return { finish: (groups) => valuesAt(view!, pickInt(rows.last!, groups)) }
    case 'min':
    case 'max':
      return extremeTcol(new DoubleBlocks(view!), view!.source, table, name === 'max')
    case 'sum':
    case 'avg':
    case 'cntnna':
      return momentsTcol(name, new DoubleBlocks(view!), table)
  }
}

/** sum, avg or cntnna in the block pass: each keeps only the accumulators it needs. */
function momentsTcol(name: 'sum' | 'avg' | 'cntnna', x: DoubleBlocks, table: KeySlots): FastTcol {
  if (name === 'sum') {
    const s = table.float64()
    return { add: (slots, start, len) => sumBlock(slots, x.array, x.load(start, len), len, s.data), finish: (groups) => momentsResult(name, null, s, groups) }
  }
  const n = table.int32()
  if (name === 'cntnna') {
    return {
      add: (slots, start, len) => countValidBlock(slots, x.array, x.load(start, len), len, n.data),
      finish: (groups) => momentsResult(name, n, null, groups),
    }
  }
  const s = table.float64()
  return {
    add: (slots, start, len) => countSumBlock(slots, x.array, x.load(start, len), len, n.data, s.data),
    finish: (groups) => momentsResult(name, n, s, groups),
  }
}

/**
 * sum, avg or cntnna from per-slot counts n and sums s of the non-N/A values, as moments.ts and
 * counting.ts define them: an all-N/A group sums to 0 and averages to N/A.
 */
function momentsResult(name: Accumulator, n: SlotVector<Int32Array> | null, s: SlotVector<Float64Array> | null, groups: Int32Array): Column {
  if (name === 'cntnna') return { type: 'int', data: pickInt(n!, groups) }
  if (name === 'sum') return { type: 'float', data: pickFloat(s!, groups) }
  const count = pickInt(n!, groups)
  const sum = pickFloat(s!, groups)
  for (let i = 0; i < sum.length; i++) sum[i] = count[i] === 0 ? Number.NaN : sum[i] / count[i]
  return { type: 'float', data: sum }
}

/** min or max, in the source's own type (NaN, no value, becomes that type's N/A). */
function extremeTcol(x: DoubleBlocks, source: Column, table: KeySlots, max: boolean): FastTcol {
  const best = table.float64(Number.NaN)
  const kernel = max ? maxBlock : minBlock
  return {
    add: (slots, start, len) => kernel(slots, x.array, x.load(start, len), len, best.data),
    finish: (groups) => asTypeOf(source, pickFloat(best, groups)),
  }
}

/** Runs the block pass: every block's slots, then each summary adds the block. */
function blockPass(keys: KeyBlocks, table: KeySlots, tcols: readonly FastTcol[], n: number): void {
  const slots = new Int32Array(BLOCK)
  for (let start = 0; start < n; start += BLOCK) {
    const len = Math.min(BLOCK, n - start)
    slotsOf(keys.array, keys.load(start, len), len, table.lo, slots)
    for (const t of tcols) t.add!(slots, start, len)
  }
}

// --- Results -----------------------------------------------------------------------------------

// Plain loops: Float64Array.from with a callback measured ~20 ms for 100,000 groups.

function pickInt(v: SlotVector<Int32Array>, groups: Int32Array): Int32Array {
  const out = new Int32Array(groups.length)
  for (let i = 0; i < groups.length; i++) out[i] = v.data[groups[i]]
  return out
}

function pickFloat(v: SlotVector<Float64Array>, groups: Int32Array): Float64Array {
  const out = new Float64Array(groups.length)
  for (let i = 0; i < groups.length; i++) out[i] = v.data[groups[i]]
  return out
}

/** Values of a view at worksheet rows (-1: N/A), in the view's own type. */
const valuesAt = (view: ColumnView, rows: Int32Array): Column => gather(view.source, composeIndex(view.index, rows))

/** Doubles (NaN = N/A) back in a column's type; text keeps the column's dictionary. */
function asTypeOf(col: Column, x: Float64Array): Column {
  if (col.type === 'float') return { type: 'float', data: x }
  const na = col.type === 'text' ? 0 : NA_INT
  const ints = new Int32Array(x.length)
  for (let i = 0; i < x.length; i++) ints[i] = x[i] !== x[i] ? na : x[i]
  return col.type === 'text' ? { type: 'text', codes: ints, dict: col.dict } : { type: col.type, data: ints }
}

function keysOf(table: KeySlots, groups: Int32Array): Int32Array {
  const out = new Int32Array(groups.length)
  for (let i = 0; i < groups.length; i++) out[i] = table.keyOf(groups[i])
  return out
}

/** Without a sorting break, groups come in the order of their first rows. */
const appearanceOrder = (firstRows: Int32Array): Int32Array => sortPermutation([{ col: { type: 'int', data: firstRows }, desc: false }], firstRows.length)

/**
 * The order a sorting break asks for (group-order.ts: N/A where naorder puts it, in either
 * direction), read off groups that are in slot order (N/A, then keys ascending) instead of sorted
 * again. Null when that is the slot order itself, the usual case.
 */
function keyOrder(spec: BreakSpec, groups: Int32Array): Int32Array | null {
  const n = groups.length
  const hasNa = n > 0 && groups[0] === 0
  const desc = spec.sort === 'down'
  const naLast = hasNa && spec.naorder === 'last'
  if (!desc && !naLast) return null
  const out = new Int32Array(n)
  let p = 0
  if (hasNa && !naLast) out[p++] = 0
  const first = hasNa ? 1 : 0
  if (desc) for (let g = n - 1; g >= first; g--) out[p++] = g
  else for (let g = first; g < n; g++) out[p++] = g
  if (naLast) out[p] = 0
  return out
}
