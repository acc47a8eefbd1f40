/**
 * The scans a selection is made of: one tight loop over the candidate rows (or all n rows when
 * `rows` is null) that writes each candidate and moves the count on only when it is kept. No
 * branch to mispredict: a test true for about half the rows cost five times as much with one.
 * Every loop is written out per test so that each stays monomorphic and V8 inlines the test.
 */
import { NA_INT } from '../columns/types.js'

export type Cmp = '=' | '<>' | '<' | '>' | '<=' | '>='

/** Candidate rows: null means every row of the worksheet. */
export type Rows = Int32Array | null

type Numbers = Int32Array | Float64Array
type Scan = (data: Numbers, v: number, rows: Rows, n: number, out: Int32Array) => number

/**
 * `v` is a valid number, so N/A never equals it; the ordered tests exclude the int N/A (NaN
 * fails by itself). `=` (usually rare) takes the four-a-step loop below.
 */
const SCANS: Record<Cmp, (naInt: boolean) => Scan> = {
  '=': () => (d, v, rows, n, out) => {
    if (rows === null) return scanEqualAll(d, v, n, out)
    let k = 0
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]
      if (d[r] === v) out[k++] = r
    }
    return k
  },
  '<>': () => (d, v, rows, n, out) => {
    let k = 0
    if (rows === null)
      for (let r = 0; r < n; r++) {
        out[k] = r
        k += +(d[r] !== v)
      }
    else
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i]
        out[k] = r
        k += +(d[r] !== v)
      }
    return k
  },
  '<': (naInt) => (d, v, rows, n, out) => {
    let k = 0
    const na = naInt ? NA_INT : Number.NaN
    if (rows === null)
      for (let r = 0; r < n; r++) {
        const x = d[r]
        out[k] = r
        k += +(x < v) & +(x !== na)
      }
    else
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i]
        const x = d[r]
        out[k] = r
        k += +(x < v) & +(x !== na)
      }
    return k
  },
  '<=': (naInt) => (d, v, rows, n, out) => {
    let k = 0
    const na = naInt ? NA_INT : Number.NaN
    if (rows === null)
      for (let r = 0; r < n; r++) {
        const x = d[r]
        out[k] = r
        k += +(x <= v) & +(x !== na)
      }
    else
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i]
        const x = d[r]
        out[k] = r
        k += +(x <= v) & +(x !== na)
      }
    return k
  },
  '>': () => (d, v, rows, n, out) => {
    let k = 0
    if (rows === null)
      for (let r = 0; r < n; r++) {
        out[k] = r
        k += +(d[r] > v)
      }
    else
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i]
        out[k] = r
        k += +(d[r] > v)
      }
    return k
  },
  '>=': () => (d, v, rows, n, out) => {
    let k = 0
    if (rows === null)
      for (let r = 0; r < n; r++) {
        out[k] = r
        k += +(d[r] >= v)
      }
    else
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i]
        out[k] = r
        k += +(d[r] >= v)
      }
    return k
  },
}

/**
 * `=` over every row, four rows a step: one rarely-taken branch per four rows instead of one per
 * row measured ~40% faster, and equality is the most common selective test.
 */
function scanEqualAll(d: Numbers, v: number, n: number, out: Int32Array): number {
  let k = 0
  let r = 0
  for (const m = n - (n % 4); r < m; r += 4) {
    const a = d[r] === v
    const b = d[r + 1] === v
    const c = d[r + 2] === v
    const e = d[r + 3] === v
    if (a || b || c || e) {
      if (a) out[k++] = r
      if (b) out[k++] = r + 1
      if (c) out[k++] = r + 2
      if (e) out[k++] = r + 3
    }
  }
  for (; r < n; r++) if (d[r] === v) out[k++] = r
  return k
}

/** The scans, made once per (operator, N/A kind) so each keeps its own type feedback. */
const SCAN_INT = Object.fromEntries(Object.entries(SCANS).map(([op, make]) => [op, make(true)])) as Record<Cmp, Scan>
const SCAN_FLOAT = Object.fromEntries(Object.entries(SCANS).map(([op, make]) => [op, make(false)])) as Record<Cmp, Scan>

/**
 * Candidates a scan may keep are written to a reused buffer, and only the rows kept are copied
 * out: a selective scan over millions of rows then allocates (and zeroes) a few kilobytes rather
 * than four bytes per row. Buffers up to SCRATCH_LIMIT rows are kept for the next scan (scans
 * run one at a time on a thread); larger scans allocate their own.
 */
const SCRATCH_LIMIT = 1 << 22
let scratch = new Int32Array(0)

function collect(rows: Rows, n: number, fill: (out: Int32Array) => number): Int32Array {
  const size = rows === null ? n : rows.length
  if (size > SCRATCH_LIMIT) {
    const out = new Int32Array(size)
    return out.subarray(0, fill(out))
  }
  if (scratch.length < size) scratch = new Int32Array(size)
  return scratch.slice(0, fill(scratch))
}

/** The candidates where `x op v` holds; `naInt` says the data is ints (N/A = NA_INT), else floats. */
export function scanCompare(op: Cmp, data: Numbers, naInt: boolean, v: number, rows: Rows, n: number): Int32Array {
  const scan = (naInt ? SCAN_INT : SCAN_FLOAT)[op]
  return collect(rows, n, (out) => scan(data, v, rows, n, out))
}

/** The candidates where lo <= x <= hi and x is not N/A: `between` with constant bounds. */
export function scanRange(data: Numbers, naInt: boolean, lo: number, hi: number, rows: Rows, n: number): Int32Array {
  const na = naInt ? NA_INT : Number.NaN
  return collect(rows, n, (out) => {
    let k = 0
    if (rows === null)
      for (let r = 0; r < n; r++) {
        const x = data[r]
        out[k] = r
        k += +(x >= lo) & +(x <= hi) & +(x !== na)
      }
    else
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i]
        const x = data[r]
        out[k] = r
        k += +(x >= lo) & +(x <= hi) & +(x !== na)
      }
    return k
  })
}

/**
 * The candidates whose value `x` has `member[x - base]` = 1; values outside the table are not
 * members. Text codes use it with the dictionary's size and base 0, so a list of strings costs
 * one table read a row instead of a set lookup.
 */
export function scanMember(data: Int32Array, member: Uint8Array, base: number, rows: Rows, n: number): Int32Array {
  const size = member.length
  return collect(rows, n, (out) => {
    let k = 0
    if (rows === null)
      for (let r = 0; r < n; r++) {
        const j = data[r] - base
        out[k] = r
        k += j >>> 0 < size ? member[j] : 0
      }
    else
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i]
        const j = data[r] - base
        out[k] = r
        k += j >>> 0 < size ? member[j] : 0
      }
    return k
  })
}

/** The candidates whose value is true: non-zero and not N/A (a 0/1 column evaluated generally). */
export function scanTruthy(data: Numbers, naInt: boolean, rows: Rows, n: number): Int32Array {
  const na = naInt ? NA_INT : Number.NaN
  return collect(rows, n, (out) => {
    let k = 0
    if (rows === null)
      for (let r = 0; r < n; r++) {
        const x = data[r]
        out[k] = r
        k += +(x !== 0) & +(x !== na) & +(x === x)
      }
    else
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i]
        const x = data[r]
        out[k] = r
        k += +(x !== 0) & +(x !== na) & +(x === x)
      }
    return k
  })
}

/**
 * The candidates whose big integer, read as its two 32-bit words (`words`: low, high, low, …),
 * is the pair (lo, hi): `x = k` on a 64-bit column without making a BigInt per row.
 */
export function scanWordPair(words: Int32Array, lo: number, hi: number, rows: Rows, n: number): Int32Array {
  return collect(rows, n, (out) => {
    let k = 0
    if (rows === null)
      for (let r = 0; r < n; r++) {
        out[k] = r
        k += +(words[2 * r] === lo) & +(words[2 * r + 1] === hi)
      }
    else
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i]
        out[k] = r
        k += +(words[2 * r] === lo) & +(words[2 * r + 1] === hi)
      }
    return k
  })
}
