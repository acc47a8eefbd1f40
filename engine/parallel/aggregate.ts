/**
 * Per-group partials of one part: what each range of rows contributes to a group summary, in a
 * form that merges exactly (merge.ts). Counts and extremes merge exactly anyway; sums are kept
 * per block (blocks.ts) so that the merge adds them in the same order for any split.
 */
import { AppError } from '../../shared/errors.js'
import { firstRowOfGroups, gather, groupBy, toFloat } from '../columns/index.js'
import { NA_INT, type Column, type GroupIndex } from '../columns/types.js'
import { evalColumn } from '../interpret/eval.js'
import type { Worksheet } from '../interpret/worksheet.js'
import type { NamedColumn } from './codec.js'
import type { AggSpec } from './plan.js'
import { slotPartials } from './slot-partials.js'

/** Thrown when the data turn out not to fit the plan (text extremes): the query then runs whole. */
export const DECLINED = 'parallel-declined'
export const declined = (why: string): AppError => new AppError('INTERNAL', `Not run in parallel: ${why}.`, { parallel: DECLINED })
export const isDeclined = (e: unknown): boolean => e instanceof AppError && e.detail.parallel === DECLINED

/** Column names of the partials ResultSet, which merge.ts reads back. */
export const keyName = (i: number): string => `key:${i}`
export const aggName = (j: number, part: string): string => `agg:${j}:${part}`

/** The groups of a worksheet by key columns (none: one group), rows with mask 0 left out. */
export function groupsOf(ws: Worksheet, keys: readonly string[], mask: Uint8Array | null): { groups: GroupIndex; keyCols: Column[]; first: Int32Array } {
  const keyCols = keys.map((k) => {
    const c = ws.column(k)
    if (!c) throw new AppError('CHECK_ERROR', `Unknown column "${k}".`, { column: k })
    return c.data()
  })
  const groups = groupBy(keyCols, ws.rows, mask)
  return { groups, keyCols, first: firstRowOfGroups(groups) }
}

function lastRowOfGroups(g: GroupIndex): Int32Array {
  const last = new Int32Array(g.count).fill(-1)
  const ids = g.ids
  for (let r = ids.length - 1; r >= 0; r--) {
    const id = ids[r]
    if (id >= 0 && last[id] < 0) last[id] = r
  }
  return last
}

/** The value as doubles, NaN for N/A. */
function doubles(c: Column, fun: string): Float64Array {
  if (c.type === 'text') throw declined(`${fun} of a text value`)
  return toFloat(c).data
}

function counts(ids: Int32Array, count: number): Int32Array {
  const n = new Int32Array(count)
  for (let r = 0; r < ids.length; r++) {
    const g = ids[r]
    if (g >= 0) n[g]++
  }
  return n
}

/** Per block b, each group's sum of the non-N/A values in row order, at [b·count + group]. */
function blockSums(ids: Int32Array, count: number, x: Float64Array, starts: Int32Array, n: Int32Array | null): Float64Array {
  const blocks = starts.length - 1
  const s = new Float64Array(blocks * count)
  for (let b = 0; b < blocks; b++) {
    const at = b * count
    for (let r = starts[b], end = starts[b + 1]; r < end; r++) {
      const g = ids[r]
      const v = x[r]
      if (g < 0 || v !== v) continue
      s[at + g] += v
      if (n !== null) n[g]++
    }
  }
  return s
}

function validCounts(ids: Int32Array, count: number, x: Float64Array): Int32Array {
  const n = new Int32Array(count)
  for (let r = 0; r < ids.length; r++) {
    const g = ids[r]
    if (g >= 0 && x[r] === x[r]) n[g]++
  }
  return n
}

/** Smallest (largest) non-N/A value per group, NaN when none; ties keep the earlier row. */
function extremes(ids: Int32Array, count: number, x: Float64Array, max: boolean): Float64Array {
  const best = new Float64Array(count).fill(Number.NaN)
  for (let r = 0; r < ids.length; r++) {
    const g = ids[r]
    const v = x[r]
    if (g < 0 || v !== v) continue
    const b = best[g]
    if (b !== b || (max ? v > b : v < b)) best[g] = v
  }
  return best
}

/**
 * The partials of `aggs` over the worksheet's groups, as named columns (one row per group).
 * @param starts where each block starts among the rows, plus the row count (blockStarts)
 */
export function partials(
  ws: Worksheet,
  keys: readonly string[],
  mask: Uint8Array | null,
  aggs: readonly AggSpec[],
  starts: Int32Array,
): { rows: number; cols: NamedColumn[] } {
  const sources = aggs.map((a) => (a.source === null ? null : evalColumn(a.source, ws)))
  const key = keys.length === 1 && mask === null ? ws.column(keys[0]) : undefined
  const bySlots = key === undefined ? null : slotPartials(key.data(), ws.rows, sources, aggs, starts)
  if (bySlots !== null) return bySlots
  const { groups, keyCols, first } = groupsOf(ws, keys, mask)
  const { ids, count } = groups
  const cols: NamedColumn[] = keyCols.map((c, i) => ({ name: keyName(i), column: gather(c, first) }))
  let last: Int32Array | null = null
  aggs.forEach((a, j) => {
    const source = sources[j]
    const add = (part: string, column: Column) => cols.push({ name: aggName(j, part), column })
    switch (a.fun) {
      case 'cnt':
        add('n', { type: 'int', data: counts(ids, count) })
        break
      case 'cntnna':
        add('n', { type: 'int', data: validCounts(ids, count, source!.type === 'text' ? textPresence(source!.codes) : doubles(source!, a.fun)) })
        break
      case 'sum':
      case 'avg': {
        const n = a.fun === 'avg' ? new Int32Array(count) : null
        const s = blockSums(ids, count, doubles(source!, a.fun), starts, n)
        for (let b = 0; b < starts.length - 1; b++) add(`s:${b}`, { type: 'float', data: s.subarray(b * count, (b + 1) * count) })
        if (n !== null) add('n', { type: 'int', data: n })
        break
      }
      case 'min':
      case 'max': {
        const best = extremes(ids, count, doubles(source!, a.fun), a.fun === 'max')
        add('best', inTypeOf(source!, best))
        break
      }
      case 'first':
        add('value', gather(source!, first))
        break
      case 'last':
        last ??= lastRowOfGroups(groups)
        add('value', gather(source!, last))
        break
      default: {
        // Fails to compile when an accumulator is added to summaries/types.ts but not here.
        const never: never = a.fun
        throw new AppError('INTERNAL', `No partials for ${String(never)}`)
      }
    }
  })
  return { rows: count, cols }
}

/** A text column's values as 1 (present) or NaN (N/A), for cntnna. */
function textPresence(codes: Int32Array): Float64Array {
  const out = new Float64Array(codes.length)
  for (let i = 0; i < out.length; i++) out[i] = codes[i] === 0 ? Number.NaN : 1
  return out
}

/** Doubles (NaN = N/A) in the numeric type of `like` (whole numbers are exact in a double). */
export function inTypeOf(like: Column, x: Float64Array): Column {
  if (like.type === 'float') return { type: 'float', data: x }
  const out = new Int32Array(x.length)
  for (let i = 0; i < x.length; i++) out[i] = x[i] !== x[i] ? NA_INT : x[i]
  return { type: like.type === 'date' ? 'date' : 'int', data: out }
}
