/**
 * g_tshift(G;S;T;TS;X;N): X from the row of the same group whose time T lies exactly N periods
 * after this row's (before, for negative N), where TS names the kind of time T holds (§5.2):
 *
 *   'D'   yyyymmdd dates, periods of a day      'T'    hhmmss times, periods of a second
 *   'M'   yyyymm months, periods of a month     'TS'   date+time values, periods of a second
 *   'Q'   yyyyq quarters, periods of a quarter  'TSn'  date+time values to n decimals of a second
 *   omitted: T is itself a whole-number period count (a week number, a day number…)
 *
 * Unlike g_rshift, which counts rows, a gap in the series gives N/A rather than the next row
 * along: last month's sales of a store that sold nothing last month are N/A, not those of the
 * month before. When several rows of a group share the target time, the first of them in
 * worksheet order is taken. Rows with S = 0, an N/A time or an N/A N get N/A, and rows with S = 0
 * are never a target. For 'TSn', N still counts seconds (a whole number); n only sets to how many
 * decimals of a second two times must agree (0 to 6).
 */
import { gather, toFloat } from '../../columns/index.js'
import { NA_INT, type Column } from '../../columns/types.js'
import { callError } from '../args.js'
import { ymdToDays } from '../calendar.js'
import { secondsOfTime } from '../times.js'
import type { Groups } from './context.js'

const SECONDS_PER_DAY = 86_400

/** How T reads as a period count, and how many counts one N step is. */
interface TimeKind {
  readonly key: (t: number) => number
  readonly scale: number
  /** Whether T may be a decimal (a date+time). */
  readonly decimal: boolean
}

const yearMonths = (ym: number): number => {
  const y = Math.floor(ym / 100)
  return y * 12 + (ym - y * 100 - 1)
}
const yearQuarters = (yq: number): number => {
  const y = Math.floor(yq / 10)
  return y * 4 + (yq - y * 10 - 1)
}

/** The kind named by TS (case-insensitive), or a 400 naming the kinds there are. */
export function timeKind(ts: string | null): TimeKind {
  if (ts === null) return { key: (t) => t, scale: 1, decimal: false }
  const code = ts.trim().toUpperCase()
  if (code === 'D') return { key: ymdToDays, scale: 1, decimal: false }
  if (code === 'M') return { key: yearMonths, scale: 1, decimal: false }
  if (code === 'Q') return { key: yearQuarters, scale: 1, decimal: false }
  if (code === 'T') return { key: secondsOfTime, scale: 1, decimal: false }
  const m = /^TS([0-6])?$/.exec(code)
  if (m) {
    const scale = 10 ** Number(m[1] ?? 0)
    return { key: (t) => Math.round(t * SECONDS_PER_DAY * scale), scale, decimal: true }
  }
  throw callError(
    `g_tshift: TS '${ts}' is not a kind of time; use 'D' (yyyymmdd), 'M' (yyyymm), 'Q' (yyyyq), 'T' (hhmmss), 'TS' or 'TS0'…'TS6' (date+time), or leave it empty for a plain period number.`,
  )
}

/** Period counts of T per row (NaN where T is N/A). */
function keysOf(t: Column, kind: TimeKind): Float64Array {
  if (t.type === 'text') throw callError('g_tshift needs a time column T, got text.')
  if (t.type === 'float' && !kind.decimal)
    throw callError("g_tshift: T is a decimal; a date+time needs TS 'TS' (or 'TS1'…'TS6'), other kinds of time are whole numbers.")
  // A big integer is read as its nearest float64: a count of periods past 2^53 is no time anyone keeps.
  const times = toFloat(t).data
  const out = new Float64Array(times.length)
  for (let r = 0; r < out.length; r++) {
    const v = times[r]
    out[r] = Number.isNaN(v) ? Number.NaN : kind.key(v)
  }
  return out
}

/**
 * g_tshift over prepared groups.
 * @param n the step: a constant, or per row (NA_INT = N/A)
 */
export function gTshift(gr: Groups, t: Column, kind: TimeKind, x: Column, n: number | Int32Array): Column {
  const keys = keysOf(t, kind)
  // The taking-part rows sorted by (group, period, row): a target is then found by binary search.
  const rows: number[] = []
  for (let r = 0; r < gr.rows; r++) if (gr.gid[r] >= 0 && !Number.isNaN(keys[r])) rows.push(r)
  rows.sort((a, b) => gr.gid[a] - gr.gid[b] || keys[a] - keys[b] || a - b)
  const pick = new Int32Array(gr.rows).fill(-1)
  for (let r = 0; r < gr.rows; r++) {
    const g = gr.gid[r]
    const step = typeof n === 'number' ? n : n[r]
    if (g < 0 || Number.isNaN(keys[r]) || step === NA_INT) continue
    pick[r] = firstAt(rows, gr.gid, keys, g, keys[r] + step * kind.scale)
  }
  return gather(x, pick)
}

/** The first row of `sorted` with group g and period `key`, or -1. */
function firstAt(sorted: readonly number[], gid: Int32Array, keys: Float64Array, g: number, key: number): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const r = sorted[mid]
    if (gid[r] < g || (gid[r] === g && keys[r] < key)) lo = mid + 1
    else hi = mid
  }
  const r = sorted[lo]
  return lo < sorted.length && gid[r] === g && keys[r] === key ? r : -1
}
