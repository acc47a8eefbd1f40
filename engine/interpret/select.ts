/**
 * Selections evaluated as row lists rather than 0/1 columns. The tests of `a & b & …` run one
 * after another, each only on the rows the ones before it kept, cheapest first; a comparison of
 * a column with a constant, a list or a `between` range is one tight scan of the candidates
 * (select-scans.ts); a text test reads codes. Anything else is evaluated as a column, on the
 * candidates alone when it is row-wise and they are few, with exactly the same semantics:
 * non-zero is true, N/A is false, `=` is N/A-safe, ordered comparisons with N/A are false.
 */
import type { BinOp, Expr } from '../ast.js'
import { lowerBound, lookupCode, upperBound } from '../columns/index.js'
import { bigintWords } from '../columns/bigint.js'
import { BIGINT_MAX, NA_BIGINT, NA_INT, type Column } from '../columns/types.js'
import { rowWiseExpr } from '../functions/index.js'
import { evalExpr, toMask } from './eval.js'
import { scanCompare, scanMember, scanRange, scanTruthy, scanWordPair, type Cmp, type Rows } from './select-scans.js'
import { rowsThroughIndex } from './select-through-index.js'
import { selectionPerEntry } from './per-entry.js'
import type { Worksheet } from './worksheet.js'

const FLIP: Record<Cmp, Cmp> = { '=': '=', '<>': '<>', '<': '>', '>': '<', '<=': '>=', '>=': '<=' }
const isCmp = (op: BinOp): op is Cmp => op in FLIP

/** Text against a constant, on codes: the dictionary is sorted, so bounds give code ranges. */
function textRows(op: Cmp, codes: Int32Array, dict: readonly string[], s: string, rows: Rows, n: number): Int32Array {
  if (op === '=' || op === '<>') return scanCompare(op, codes, true, s === '' ? 0 : lookupCode(dict, s), rows, n)
  if (s === '') return new Int32Array(0)
  // Code 0 is N/A (''), below every other entry: the ranges start at 1.
  const last = dict.length - 1
  switch (op) {
    case '<':
      return scanRange(codes, true, 1, lowerBound(dict, s) - 1, rows, n)
    case '<=':
      return scanRange(codes, true, 1, upperBound(dict, s) - 1, rows, n)
    case '>':
      return scanRange(codes, true, upperBound(dict, s), last, rows, n)
    case '>=':
      return scanRange(codes, true, Math.max(1, lowerBound(dict, s)), last, rows, n)
  }
}

/** Int values this far apart or closer are tested through a table, not a set. */
const MEMBER_SPAN = 1 << 16

function listRows(op: '=' | '<>', col: Exclude<Column, { type: 'bigint' }>, values: readonly (number | string)[], rows: Rows, n: number): Int32Array {
  if (col.type === 'text') {
    const member = new Uint8Array(col.dict.length)
    for (const s of values) {
      const code = s === '' ? 0 : lookupCode(col.dict, String(s))
      if (code >= 0) member[code] = 1
    }
    if (op === '<>') for (let c = 0; c < member.length; c++) member[c] ^= 1
    return scanMember(col.codes, member, 0, rows, n)
  }
  // −2^31 (or less) in a list is a number no int equals, not the int N/A.
  const numbers = values.map(Number).filter((v) => col.type === 'float' || v > NA_INT)
  if (col.type !== 'float' && op === '=' && numbers.length > 0 && numbers.every(Number.isInteger)) {
    const base = Math.min(...numbers)
    const span = Math.max(...numbers) - base + 1
    if (span <= MEMBER_SPAN) {
      const member = new Uint8Array(span)
      for (const v of numbers) member[v - base] = 1
      return scanMember(col.data, member, base, rows, n)
    }
  }
  const set = new Set(numbers)
  const d = col.data
  const na = col.type === 'float' ? Number.NaN : NA_INT
  const read = (r: number) => (d[r] === na ? Number.NaN : d[r])
  return keep(rows, n, op === '=' ? (r) => set.has(read(r)) : (r) => !set.has(read(r)))
}

/** Keeps the candidates a row test accepts, in order: for the shapes no scan fits. */
function keep(rows: Rows, n: number, test: (r: number) => boolean): Int32Array {
  const out = new Int32Array(rows === null ? n : rows.length)
  let k = 0
  if (rows === null) {
    for (let r = 0; r < n; r++) if (test(r)) out[k++] = r
  } else {
    for (let i = 0; i < rows.length; i++) if (test(rows[i])) out[k++] = rows[i]
  }
  return out.subarray(0, k)
}

function constantOf(e: Expr): number | string | null {
  if (e.kind === 'Num' || e.kind === 'Date' || e.kind === 'Time' || e.kind === 'Str') return e.value
  if (e.kind === 'Neg' && e.operand.kind === 'Num') return -e.operand.value
  return null
}

/** The rows where `column op constant|list` holds, or null when the shapes do not fit. */
function comparisonRows(op: Cmp, left: Expr, right: Expr, ws: Worksheet, rows: Rows): Int32Array | null {
  if (left.kind !== 'Col') {
    if (right.kind === 'Col' && constantOf(left) !== null) return comparisonRows(FLIP[op], right, left, ws, rows)
    return null
  }
  const col = ws.column(left.name)?.data()
  if (!col) return null
  // Big integers: `=` an integer constant on the words; the rest exactly by the general path (compare-bigint.ts).
  if (col.type === 'bigint') return op === '=' ? bigintEqualRows(col.data, right, rows, ws.rows) : null
  if (right.kind === 'List' && (op === '=' || op === '<>')) {
    const values = right.items.map(constantOf)
    if (values.some((v) => v === null) || values.some((v) => typeof v === 'string') !== (col.type === 'text')) return null
    return listRows(op, col, values as (number | string)[], rows, ws.rows)
  }
  const v = constantOf(right)
  if (v === null) return null
  if (col.type === 'text') return typeof v === 'string' ? textRows(op, col.codes, col.dict, v, rows, ws.rows) : null
  if (typeof v !== 'number') return null
  if (col.type === 'float') return scanCompare(op, col.data, false, v, rows, ws.rows)
  const [intOp, bound] = againstInts(op, v)
  return scanCompare(intOp, col.data, true, bound, rows, ws.rows)
}

/** An integer constant exactly (its digits past 2^53), or null for anything else. */
function exactInteger(e: Expr): bigint | null {
  if (e.kind === 'Neg') {
    const v = exactInteger(e.operand)
    return v === null ? null : -v
  }
  if (e.kind !== 'Num' || !e.int) return null
  if (e.digits !== undefined) return BigInt(e.digits)
  return Number.isSafeInteger(e.value) ? BigInt(e.value) : null
}

/** `x = k` for a big-integer column and an integer constant within its range (never N/A); null otherwise. */
function bigintEqualRows(data: BigInt64Array, e: Expr, rows: Rows, n: number): Int32Array | null {
  const k = exactInteger(e)
  if (k === null || k <= NA_BIGINT || k > BIGINT_MAX) return null
  return scanWordPair(bigintWords(data), Number(BigInt.asIntN(32, k)), Number(BigInt.asIntN(32, k >> 32n)), rows, n)
}

/**
 * `x op v` for int x as the scans can test it. A number at or below −2^31 (a decimal, or an
 * integer past 32 bits: never the int N/A, which shares −2^31's bits) is below every int: the
 * test then holds for every value, for none, or (`<>`) for every row. NaN equals no row.
 */
function againstInts(op: Cmp, v: number): [Cmp, number] {
  if (v > NA_INT) return [op, v]
  if (op === '>' || op === '>=') return ['>', NA_INT]
  return op === '<>' ? ['<>', Number.NaN] : ['=', Number.NaN]
}

/**
 * SQL's `x IS NULL` (`$isnull(x)`) of an int, date or text column, or its negation (`x IS NOT
 * NULL`, and `x <> ''` on text), as one scan of the values against N/A (code 0 for text); null
 * when the shapes do not fit.
 */
function nullTestRows(e: Expr, isNull: boolean, ws: Worksheet, rows: Rows): Int32Array | null {
  if (e.kind !== 'Call' || e.name !== '$isnull' || e.args.length !== 1 || e.args[0]!.kind !== 'Col') return null
  const col = ws.column(e.args[0]!.name)?.data()
  if (!col || col.type === 'float' || col.type === 'bigint') return null
  const op = isNull ? '=' : '<>'
  return col.type === 'text' ? scanCompare(op, col.codes, true, 0, rows, ws.rows) : scanCompare(op, col.data, true, NA_INT, rows, ws.rows)
}

/** `between(column; a; b)` of a numeric column and two numbers, or null. */
function betweenRows(e: Expr, ws: Worksheet, rows: Rows): Int32Array | null {
  if (e.kind !== 'Call' || e.name.toLowerCase() !== 'between' || e.args.length !== 3) return null
  const [x, a, b] = e.args
  if (x?.kind !== 'Col' || !a || !b) return null
  const lo = constantOf(a)
  const hi = constantOf(b)
  const col = ws.column(x.name)?.data()
  if (typeof lo !== 'number' || typeof hi !== 'number' || !col || col.type === 'text' || col.type === 'bigint') return null
  return scanRange(col.data, col.type !== 'float', lo, hi, rows, ws.rows)
}

/**
 * The candidates are evaluated on their own (their columns gathered) when they are at most this
 * share of the worksheet; above it, gathering costs about what evaluating every row does.
 */
const GATHER_SHARE = 0.5

/** Rows of `rows` where the expression holds, evaluated generally (as a column). */
function generic(e: Expr, ws: Worksheet, rows: Rows): Int32Array {
  const perEntry = selectionPerEntry(e, ws, rows === null ? ws.rows : rows.length)
  if (perEntry !== null) return scanMember(perEntry.codes, perEntry.holds, 0, rows, ws.rows)
  if (rows !== null && rows.length <= ws.rows * GATHER_SHARE && rowWiseExpr(e)) {
    const held = truthyRows(e, ws.selectRows(rows), null)
    for (let i = 0; i < held.length; i++) held[i] = rows[held[i]]
    return held
  }
  return truthyRows(e, ws, rows)
}

/** The candidates where `e`, evaluated on every row of `ws`, is true. */
function truthyRows(e: Expr, ws: Worksheet, rows: Rows): Int32Array {
  const v = evalExpr(e, ws)
  if (!('kind' in v) && v.type !== 'text' && v.type !== 'bigint') return scanTruthy(v.data, v.type !== 'float', rows, ws.rows)
  // Scalars, and text (which toMask refuses with a message).
  const mask = toMask(v, ws.rows)
  return keep(rows, ws.rows, (r) => mask[r] === 1)
}

/**
 * The candidates (or all n rows) not in `drop`, a sorted subset of them: one walk of both lists.
 * Every candidate is written and the count moves on only when it is kept, so a selection that
 * drops about half the rows costs no mispredicted branches.
 */
function without(rows: Rows, n: number, drop: Int32Array): Int32Array {
  // A sentinel no row equals ends the walk of `drop` without a bounds test.
  const d = new Int32Array(drop.length + 1)
  d.set(drop)
  d[drop.length] = -1
  const size = rows === null ? n : rows.length
  // One spare slot: a dropped row is written past the kept ones before the count skips it.
  const out = new Int32Array(size - drop.length + 1)
  let j = 0
  let k = 0
  if (rows === null) {
    for (let r = 0; r < size; r++) {
      const dropped = +(d[j] === r)
      out[k] = r
      j += dropped
      k += 1 - dropped
    }
  } else {
    for (let i = 0; i < size; i++) {
      const r = rows[i]
      const dropped = +(d[j] === r)
      out[k] = r
      j += dropped
      k += 1 - dropped
    }
  }
  return out.subarray(0, k)
}

/** Sorted union of two sorted row lists. */
function union(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(a.length + b.length)
  let i = 0
  let j = 0
  let k = 0
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i] < b[j])) out[k++] = a[i++]
    else if (i >= a.length || b[j] < a[i]) out[k++] = b[j++]
    else {
      out[k++] = a[i++]
      j++
    }
  }
  return out.subarray(0, k)
}

/** The tests of `a & b & …`, left to right. */
function conjuncts(e: Expr, out: Expr[] = []): Expr[] {
  if (e.kind === 'Bin' && e.op === '&') {
    conjuncts(e.left, out)
    conjuncts(e.right, out)
  } else out.push(e)
  return out
}

/** Whether a test is a column against constants, which a scan answers without evaluating it. */
function scanShaped(e: Expr): boolean {
  const fixed = (x: Expr | null) => x !== null && (constantOf(x) !== null || (x.kind === 'List' && x.items.every((i) => constantOf(i) !== null)))
  if (e.kind === 'Bin' && isCmp(e.op)) return (e.left.kind === 'Col' && fixed(e.right)) || (e.right.kind === 'Col' && fixed(e.left))
  const nullTest = (x: Expr) => x.kind === 'Call' && x.name === '$isnull' && x.args[0]?.kind === 'Col'
  if (nullTest(e) || (e.kind === 'Not' && nullTest(e.operand))) return true
  if (e.kind === 'Call') return e.name.toLowerCase() === 'between' && e.args[0]?.kind === 'Col' && fixed(e.args[1]) && fixed(e.args[2])
  return false
}

/**
 * The rows (of `rows`, or of the whole worksheet) where a selection expression is true. The
 * tests of a conjunction may run in any order (each keeps the rows where it holds, and the
 * answer is the rows they all keep), so the scans run first and the tests evaluated as columns
 * see only what the scans left; an empty list ends it.
 */
export function selectRows(e: Expr, ws: Worksheet, rows: Rows = null): Int32Array {
  if (!(e.kind === 'Bin' && e.op === '&')) return selectOne(e, ws, rows)
  const tests = conjuncts(e)
  let kept = rows
  for (const test of [...tests.filter(scanShaped), ...tests.filter((t) => !scanShaped(t))]) {
    kept = selectOne(test, ws, kept)
    if (kept.length === 0) break
  }
  return kept!
}

function selectOne(e: Expr, ws: Worksheet, rows: Rows): Int32Array {
  if (e.kind === 'Bin' && e.op === '|') return union(selectRows(e.left, ws, rows), selectRows(e.right, ws, rows))
  const linked = rowsThroughIndex(e, ws, rows)
  if (linked !== null) return linked
  const nulls = e.kind === 'Not' ? nullTestRows(e.operand, false, ws, rows) : nullTestRows(e, true, ws, rows)
  if (nulls !== null) return nulls
  if (e.kind === 'Not') return without(rows, ws.rows, selectRows(e.operand, ws, rows))
  if (e.kind === 'Bin' && isCmp(e.op)) {
    const found = comparisonRows(e.op, e.left, e.right, ws, rows)
    if (found) return found
  }
  return betweenRows(e, ws, rows) ?? generic(e, ws, rows)
}
