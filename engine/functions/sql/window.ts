/**
 * Kernels of compiled SQL's window functions with ORDER BY (engine/sql/compile/window.ts). Each
 * takes the window as D, one letter per key (`p` a PARTITION BY value, `u` or `d` a sort key up
 * or down), then the keys K… (partition values first, then the ORDER BY values and the NULL flags
 * that NULLS FIRST/LAST adds). The rows are visited in the order of all the keys (a permutation:
 * the worksheet is not reordered), so a partition is a run of positions and so are a row's peers
 * (rows equal in every key). SQLite's default frame runs from the partition's first row to the
 * row's last peer. Named with `$`, as kernels.ts explains.
 *
 * Functions over one window read the same keys: the order is kept from the last call (by the
 * identity of its key columns, which never change) and not sorted again.
 */
import { NA_INT, type Column } from '../../columns/types.js'
import { gather, groupBy, sortPermutation } from '../../columns/index.js'
import { asColumn, constantText, requiredValue } from '../args.js'
import { sqlDeclined } from '../../task/outcome.js'
import type { ArgSpec, FunctionDef, KernelArg } from '../types.js'
import { bigintWords } from '../../columns/index.js'
import { sqlDoublesOfBigints } from './kernels.js'

const D: ArgSpec = { kind: 'value', name: 'D', types: ['text'], constant: true }
const K: ArgSpec = { kind: 'value', name: 'K' }
const NUMBER: ArgSpec = { kind: 'value', name: 'X', types: ['int', 'bigint', 'float', 'date'] }
const N: ArgSpec = { kind: 'value', name: 'N', types: ['int'], constant: true }

/**
 * A window of PARTITION BY only: every row of a partition is a peer of every other, so each
 * function's value is its partition's, found through group ids (read in row order, as the
 * engine's group functions do) rather than a sort.
 */
interface Partitions {
  readonly ids: Int32Array
  readonly count: number
}

/**
 * A window whose sort keys all run in row order with no ties (an id in load order): the rows of
 * each partition are already in the window's order where they lie, each its own peer. Its
 * functions walk the rows in row order keeping one running value per partition, as the engine's
 * g_ functions do, with no sort and no permutation (whose scattered reads cost more than the sum).
 */
interface InRowOrder {
  readonly ids: Int32Array
  readonly count: number
  readonly inRowOrder: true
}

/** The window's rows in its order: positions 0…rows-1 by partition, then by the sort keys. */
interface WindowRows {
  readonly perm: Int32Array
  /** 1 where a position starts a partition. */
  readonly partStart: Uint8Array
  /** 1 where a position starts a group of peers. */
  readonly peerStart: Uint8Array
}

/**
 * Marks in `starts` each position whose row differs from the previous position's in column c
 * (N/A equal to N/A, -0 to 0, as SQL's peers and partitions): one typed loop per column.
 */
function markChanges(c: Column, perm: Int32Array, starts: Uint8Array): void {
  const rows = perm.length
  if (c.type === 'text') {
    const codes = c.codes
    for (let k = 1; k < rows; k++) if (codes[perm[k]] !== codes[perm[k - 1]]) starts[k] = 1
  } else if (c.type === 'bigint') {
    const w = bigintWords(c.data)
    for (let k = 1; k < rows; k++) {
      const x = perm[k - 1]
      const y = perm[k]
      if (w[2 * x] !== w[2 * y] || w[2 * x + 1] !== w[2 * y + 1]) starts[k] = 1
    }
  } else if (c.type === 'float') {
    const d = c.data
    for (let k = 1; k < rows; k++) {
      const x = d[perm[k - 1]]
      const y = d[perm[k]]
      if (x !== y && (x === x || y === y)) starts[k] = 1
    }
  } else {
    const d = c.data
    for (let k = 1; k < rows; k++) if (d[perm[k]] !== d[perm[k - 1]]) starts[k] = 1
  }
}

/**
 * Whether a sort key is already in order row by row, with no two rows equal and no N/A (an id
 * in load order, a date column of a table loaded by date): as the sort is stable, a last key
 * like that orders nothing the rows' own order does not, and need not be sorted on.
 */
function strictlyInOrder(c: Column, desc: boolean): boolean {
  if (c.type === 'text' || c.type === 'bigint') return false
  const d = c.data
  for (let i = 1; i < d.length; i++) {
    const a = d[i - 1]
    const b = d[i]
    if (!(desc ? a > b : a < b) || (c.type !== 'float' && (a === NA_INT || b === NA_INT))) return false
  }
  return true
}

function windowRows(keys: readonly Column[], dirs: string, rows: number): WindowRows | InRowOrder {
  let sorted = keys.length
  while (sorted > 0 && dirs[sorted - 1] !== 'p' && strictlyInOrder(keys[sorted - 1], dirs[sorted - 1] === 'd')) sorted--
  if (sorted === 0 || dirs[sorted - 1] === 'p') {
    const { ids, count } = groupBy(keys.slice(0, sorted), rows)
    return { ids, count, inRowOrder: true }
  }
  const perm =
    sorted === 0
      ? Int32Array.from({ length: rows }, (_, i) => i)
      : sortPermutation(
          keys.slice(0, sorted).map((col, i) => ({ col, desc: dirs[i] === 'd' })),
          rows,
        )
  const partStart = new Uint8Array(rows)
  if (rows > 0) partStart[0] = 1
  keys.forEach((c, i) => {
    if (dirs[i] === 'p') markChanges(c, perm, partStart)
  })
  const peerStart = partStart.slice()
  keys.forEach((c, i) => {
    if (dirs[i] !== 'p') markChanges(c, perm, peerStart)
  })
  return { perm, partStart, peerStart }
}

/** The last window made, by its directions and key columns (a worker runs one task at a time). */
let last: { readonly dirs: string; readonly keys: readonly Column[]; readonly rows: number; readonly window: Window } | null = null

type Window = WindowRows | InRowOrder | Partitions

/**
 * The window of a call with D at `dAt` and the keys after it. D is the compiler's, one letter a
 * key, partition keys first; anything else in it reads as `u` (up), so that a kernel run on other
 * arguments still answers.
 */
function windowOf(args: readonly KernelArg[], rows: number, fn: string, dAt: number): Window {
  const written = constantText(requiredValue(args, dAt, fn, 'D'), fn, 'D')
  const keys = args.slice(dAt + 1).map((_, i) => asColumn(requiredValue(args, dAt + 1 + i, fn, 'K'), rows, fn, 'K'))
  const partitions = /^p*/.exec(written)![0].length
  const dirs = keys.map((_, i) => (i < partitions ? 'p' : written[i] === 'd' ? 'd' : 'u')).join('')
  if (last !== null && last.dirs === dirs && last.rows === rows && last.keys.length === keys.length && last.keys.every((k, i) => k === keys[i]))
    return last.window
  const window = /^p+$/.test(dirs) ? groupBy(keys, rows) : windowRows(keys, dirs, rows)
  last = { dirs, keys, rows, window }
  return window
}

/** The window of a function that needs an order (row_number, lag, lead): never PARTITION BY alone. */
function ordered(w: Window, fn: string): WindowRows | InRowOrder {
  if (!('perm' in w) && !('inRowOrder' in w)) throw new Error(`${fn} needs ORDER BY`)
  return w
}

/**
 * The window of a function whose answer depends on the order among peers (row_number, lag,
 * lead): SQLite orders tied rows as its sorter leaves them, so an answer over ties is its to give.
 */
function untied(w: WindowRows | InRowOrder): WindowRows | InRowOrder {
  if ('inRowOrder' in w) return w
  for (let j = 0; j < w.peerStart.length; j++) if (!w.peerStart[j]) throw sqlDeclined('rows that tie in a window’s order')
  return w
}

/** The positions of a window in row order: each partition's rows together, in row order (a stable counting sort by partition). */
function positioned(w: InRowOrder): WindowRows {
  const { ids, count } = w
  const rows = ids.length
  const next = new Int32Array(count + 1)
  for (let i = 0; i < rows; i++) next[ids[i] + 1]++
  for (let g = 0; g < count; g++) next[g + 1] += next[g]
  const partStart = new Uint8Array(rows)
  for (let g = 0; g < count; g++) if (next[g] < rows && next[g + 1] > next[g]) partStart[next[g]] = 1
  const perm = new Int32Array(rows)
  for (let i = 0; i < rows; i++) perm[next[ids[i]]++] = i
  return { perm, partStart, peerStart: new Uint8Array(rows).fill(1) }
}

/** Running sum or avg of X per partition, in row order. */
function runningInRowOrder(w: InRowOrder, x: Float64Array, avg: boolean): Column {
  const { ids, count } = w
  const sums = new Float64Array(count)
  const counts = new Float64Array(count)
  const out = new Float64Array(ids.length)
  for (let i = 0; i < ids.length; i++) {
    const g = ids[i]
    const v = x[i]
    if (v === v) {
      sums[g] += v
      counts[g]++
    }
    const n = counts[g]
    out[i] = n === 0 ? Number.NaN : avg ? sums[g] / n : sums[g]
  }
  return { type: 'float', data: out }
}

/** A number column as doubles, N/A as NaN. */
function doublesOf(c: Column): Float64Array {
  if (c.type === 'float') return c.data
  if (c.type === 'bigint') return sqlDoublesOfBigints(c.data)
  if (c.type === 'text') throw new Error('a window sum of text')
  const d = c.data
  const out = new Float64Array(d.length)
  for (let i = 0; i < d.length; i++) out[i] = d[i] === NA_INT ? Number.NaN : d[i]
  return out
}

/** sum or avg of X over each row's whole partition; NaN (NULL) with no value. */
function perPartition(p: Partitions, x: Float64Array, avg: boolean): Column {
  const sums = new Float64Array(p.count)
  const counts = new Float64Array(p.count)
  const rows = p.ids.length
  for (let i = 0; i < rows; i++) {
    const v = x[i]
    if (v === v) {
      sums[p.ids[i]] += v
      counts[p.ids[i]]++
    }
  }
  for (let g = 0; g < p.count; g++) sums[g] = counts[g] === 0 ? Number.NaN : avg ? sums[g] / counts[g] : sums[g]
  const out = new Float64Array(rows)
  for (let i = 0; i < rows; i++) out[i] = sums[p.ids[i]]
  return { type: 'float', data: out }
}

/** sum or avg of X from the partition's first row to each row's last peer; NaN (NULL) with no value. */
function framed(window: Window, x: Float64Array, avg: boolean): Column {
  if ('inRowOrder' in window) return runningInRowOrder(window, x, avg)
  if (!('perm' in window)) return perPartition(window, x, avg)
  const { perm, partStart, peerStart } = window
  const rows = perm.length
  const out = new Float64Array(rows)
  let sum = 0
  let n = 0
  for (let k = 0; k < rows;) {
    if (partStart[k]) {
      sum = 0
      n = 0
    }
    let end = k + 1
    while (end < rows && !peerStart[end]) end++
    for (let j = k; j < end; j++) {
      const v = x[perm[j]]
      if (v === v) {
        sum += v
        n++
      }
    }
    const value = n === 0 ? Number.NaN : avg ? sum / n : sum
    for (let j = k; j < end; j++) out[perm[j]] = value
    k = end
  }
  return { type: 'float', data: out }
}

/** Row numbers within partitions; for rank, the row number of the row's first peer. */
function rowNumbers(w: WindowRows | InRowOrder, rank: boolean): Column {
  if ('inRowOrder' in w) {
    // Every row its own peer: rank is the row number, counted per partition in row order.
    const seen = new Int32Array(w.count)
    const out = new Int32Array(w.ids.length)
    for (let i = 0; i < out.length; i++) out[i] = ++seen[w.ids[i]]
    return { type: 'int', data: out }
  }
  const { perm, partStart, peerStart } = w
  const out = new Int32Array(perm.length)
  let k = 0
  let peerNumber = 0
  for (let j = 0; j < perm.length; j++) {
    k = partStart[j] ? 1 : k + 1
    if (peerStart[j]) peerNumber = k
    out[perm[j]] = rank ? peerNumber : k
  }
  return { type: 'int', data: out }
}

/** Per row, the row n positions later (earlier for n < 0) in its partition, or -1 beyond its edge. */
function shiftedRows(window: WindowRows | InRowOrder, n: number): Int32Array {
  const { perm, partStart } = 'inRowOrder' in window ? positioned(window) : window
  const rows = perm.length
  // Each position's partition, as the position where it starts.
  const part = new Int32Array(rows)
  for (let j = 0; j < rows; j++) part[j] = partStart[j] ? j : part[j - 1]
  const out = new Int32Array(rows)
  for (let j = 0; j < rows; j++) {
    const t = j + n
    out[perm[j]] = t >= 0 && t < rows && part[t] === part[j] ? perm[t] : -1
  }
  return out
}

function shiftArg(args: readonly KernelArg[], i: number, fn: string): number {
  const v = requiredValue(args, i, fn, 'N')
  if (!('value' in v) || typeof v.value !== 'number' || !Number.isInteger(v.value)) throw new Error(`${fn}: N must be a whole number`)
  return v.value
}

const framedDef = (name: string, avg: boolean, doc: string): FunctionDef => ({
  name,
  args: [NUMBER, D, K],
  repeatFrom: 2,
  minArgs: 3,
  result: () => 'float',
  kernel: (args, { rows }) => framed(windowOf(args, rows, name, 1), doublesOf(asColumn(requiredValue(args, 0, name, 'X'), rows, name, 'X')), avg),
  doc,
})

const rowNumberDef = (name: string, rank: boolean, doc: string): FunctionDef => ({
  name,
  args: [D, K],
  repeatFrom: 1,
  minArgs: 2,
  result: () => 'int',
  kernel: (args, { rows }) => {
    const w = windowOf(args, rows, name, 0)
    // Without ORDER BY every row is a peer of every other: rank 1.
    if (!('perm' in w) && !('inRowOrder' in w) && rank) return { type: 'int', data: new Int32Array(rows).fill(1) }
    return rowNumbers(rank ? ordered(w, name) : untied(ordered(w, name)), rank)
  },
  doc,
})

export const SQL_WINDOW_KERNELS: readonly FunctionDef[] = [
  framedDef('$wsum', false, '$wsum(X;D;K…): sum of X from the partition’s first row to the row’s last peer; NULL without values (SQL).'),
  framedDef('$wavg', true, '$wavg(X;D;K…): average of X over the same frame as $wsum (SQL).'),
  rowNumberDef('$wrownum', false, '$wrownum(D;K…): 1, 2, 3… within each partition in the window’s order; declined where rows tie (SQL row_number).'),
  rowNumberDef('$wrank', true, '$wrank(D;K…): the row number of the row’s first peer (SQL rank).'),
  {
    name: '$wshift',
    args: [{ kind: 'value', name: 'X' }, N, D, K],
    repeatFrom: 3,
    minArgs: 4,
    result: ([t]) => t ?? 'float',
    kernel: (args, { rows }) =>
      gather(
        asColumn(requiredValue(args, 0, '$wshift', 'X'), rows, '$wshift', 'X'),
        shiftedRows(untied(ordered(windowOf(args, rows, '$wshift', 2), '$wshift')), shiftArg(args, 1, '$wshift')),
      ),
    doc: '$wshift(X;N;D;K…): X from N rows later (earlier for N < 0) in the partition, NULL beyond it; declined where rows tie (SQL lag, lead).',
  },
  {
    name: '$wbeyond',
    args: [N, D, K],
    repeatFrom: 2,
    minArgs: 3,
    result: () => 'int',
    kernel: (args, { rows }) => {
      const to = shiftedRows(untied(ordered(windowOf(args, rows, '$wbeyond', 1), '$wbeyond')), shiftArg(args, 0, '$wbeyond'))
      const out = new Int32Array(rows)
      for (let i = 0; i < rows; i++) out[i] = to[i] < 0 ? 1 : 0
      return { type: 'int', data: out }
    },
    doc: '$wbeyond(N;D;K…): 1 where the row N rows away is outside the partition (SQL lag, lead defaults).',
  },
]
