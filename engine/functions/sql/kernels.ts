/**
 * Kernels that give compiled SQL (engine/sql/compile) SQLite's semantics where the macro
 * language's operators differ. Their names start with `$`, which the macro language's lexer never
 * produces, so only the SQL compiler can call them.
 *
 * SQL integers are carried as doubles (N/A as NaN) once arithmetic touches them: every integer a
 * 32-bit column can produce, and every sum or product of them up to 2^53, is exact there. A value
 * that could leave that range is checked (`$exact`), and a kernel that meets one it cannot answer
 * exactly as SQLite would declines the compiled plan (sqlDeclined, a fallback: engine/task/outcome.ts):
 * the query then runs on sql.js.
 */
import { AppError } from '../../../shared/errors.js'
import { NA_BIGINT, NA_INT, type Column, type TextColumn } from '../../columns/types.js'
import { asColumn, isColumn, isScalar, requiredValue } from '../args.js'
import type { FunctionDef, KernelArg } from '../types.js'
import { bigintToFloats, withinSafeRange } from '../../columns/index.js'
import { sqlDeclined } from '../../task/outcome.js'

/** Integers beyond this are not all exact as doubles. */
const EXACT = 2 ** 53
/** Operands of a truncating division below this divide exactly through doubles (see idiv). */
const INT32 = 2 ** 31

const NUMBERS = ['int', 'bigint', 'float', 'date'] as const

function column(args: readonly KernelArg[], i: number, fn: string, rows: number): Column {
  return asColumn(requiredValue(args, i, fn, 'X'), rows, fn, 'X')
}

/** Big integers as doubles while every one is exact there; else the plan is declined (sql.js answers). */
export function sqlDoublesOfBigints(data: BigInt64Array): Float64Array {
  if (!withinSafeRange(data)) throw sqlDeclined('an integer beyond 2^53')
  return bigintToFloats(data)
}

/** A number column as doubles, N/A as NaN. */
function doubles(c: Column, rows: number): Float64Array {
  if (c.type === 'float') return c.data
  if (c.type === 'bigint') return sqlDoublesOfBigints(c.data)
  if (c.type === 'text') throw new AppError('INTERNAL', 'an SQL kernel met text where it needs a number')
  const out = new Float64Array(rows)
  const d = c.data
  for (let i = 0; i < rows; i++) out[i] = d[i] === NA_INT ? Number.NaN : d[i]
  return out
}

const float = (data: Float64Array): Column => ({ type: 'float', data })
const ints = (data: Int32Array): Column => ({ type: 'int', data })

/** 1 where the value is N/A (NULL), else 0. */
function isNull(c: Column, rows: number): Int32Array {
  const out = new Int32Array(rows)
  if (c.type === 'float') for (let i = 0; i < rows; i++) out[i] = c.data[i] === c.data[i] ? 0 : 1
  else if (c.type === 'bigint') for (let i = 0; i < rows; i++) out[i] = c.data[i] === NA_BIGINT ? 1 : 0
  else if (c.type === 'text') for (let i = 0; i < rows; i++) out[i] = c.codes[i] === 0 ? 1 : 0
  else for (let i = 0; i < rows; i++) out[i] = c.data[i] === NA_INT ? 1 : 0
  return out
}

/**
 * SQLite's integer division: truncated toward zero, N/A for a zero divisor. Through doubles the
 * quotient of operands below 2^31 is never off by one: its rounding error (at most |a/b|·2^-53 ≤
 * 2^-22/|b|) is smaller than the distance 1/|b| from a fractional quotient to the next integer.
 */
function idiv(a: Float64Array, b: Float64Array, rows: number): Float64Array {
  const out = new Float64Array(rows)
  for (let i = 0; i < rows; i++) {
    const x = a[i]
    const y = b[i]
    if (!(Math.abs(x) < INT32 && Math.abs(y) < INT32)) {
      if (x !== x || y !== y) out[i] = Number.NaN
      else throw sqlDeclined('an integer division of operands of 2^31 or more')
      continue
    }
    out[i] = y === 0 ? Number.NaN : Math.trunc(x / y)
  }
  return out
}

/** SQLite's integer remainder: the dividend's sign, N/A for a zero divisor. */
function imod(a: Float64Array, b: Float64Array, rows: number): Float64Array {
  const out = new Float64Array(rows)
  for (let i = 0; i < rows; i++) {
    const y = b[i]
    const r = a[i] % y
    // -0 from a negative dividend is the integer 0; N/A stays N/A.
    out[i] = y === 0 ? Number.NaN : r === 0 ? 0 : r
  }
  return out
}

const isInt = (t: string | null | undefined): boolean => t === 'int' || t === 'date'
/** An int operand: its column's data, or a constant (N/A as NA_INT). */
type IntOperand = Int32Array | number

function intOperand(args: readonly KernelArg[], i: number, fn: string): IntOperand {
  const v = requiredValue(args, i, fn, i === 0 ? 'X' : 'Y')
  if (isScalar(v)) return v.value !== v.value ? NA_INT : (v.value as number)
  if (!isColumn(v) || (v.type !== 'int' && v.type !== 'date')) throw new AppError('INTERNAL', `${fn} needs int operands here`)
  return v.data
}

/**
 * $idiv and $imod of two int operands, as an int column: the quotient of int32 values is below
 * 2^31 in magnitude (what idiv says of doubles holds), and NA_INT (-2^31) is only ever N/A
 * (-2^31 / -1 has an N/A dividend). A zero divisor gives N/A, as SQLite's NULL.
 */
function intDivision(x: IntOperand, y: IntOperand, rows: number, mod: boolean): Int32Array {
  const out = new Int32Array(rows)
  if (typeof y === 'number' && typeof x !== 'number') {
    if (y === NA_INT || y === 0) return out.fill(NA_INT)
    if (mod) for (let i = 0; i < rows; i++) out[i] = x[i] === NA_INT ? NA_INT : x[i] % y
    else for (let i = 0; i < rows; i++) out[i] = x[i] === NA_INT ? NA_INT : Math.trunc(x[i] / y)
    return out
  }
  for (let i = 0; i < rows; i++) {
    const a = typeof x === 'number' ? x : x[i]
    const b = typeof y === 'number' ? y : y[i]
    out[i] = a === NA_INT || b === NA_INT || b === 0 ? NA_INT : mod ? a % b : Math.trunc(a / b)
  }
  return out
}

/** $idiv or $imod: on ints as ints, otherwise through doubles. */
function division(args: readonly KernelArg[], rows: number, fn: '$idiv' | '$imod'): Column {
  const mod = fn === '$imod'
  const [x, y] = [0, 1].map((i) => requiredValue(args, i, fn, i === 0 ? 'X' : 'Y'))
  if (isInt(x.type) && isInt(y.type)) return ints(intDivision(intOperand(args, 0, fn), intOperand(args, 1, fn), rows, mod))
  const a = doubles(column(args, 0, fn, rows), rows)
  const b = doubles(column(args, 1, fn, rows), rows)
  return float(mod ? imod(a, b, rows) : idiv(a, b, rows))
}

/** The values unchanged, or the plan declined when one is an integer too large to be exact. */
function exact(c: Column, rows: number): Column {
  if (c.type === 'bigint') return withinSafeRange(c.data) ? c : sqlDeclined_('an integer result beyond 2^53')
  if (c.type !== 'float') return c
  const d = c.data
  // 2^53 itself may be 2^53 + 1 rounded: only what lies below it is certainly exact.
  for (let i = 0; i < rows; i++) if (Math.abs(d[i]) >= EXACT) throw sqlDeclined('an integer result beyond 2^53')
  return c
}

function sqlDeclined_(why: string): never {
  throw sqlDeclined(why)
}

/** A per-entry map of a text column's dictionary, applied to its codes. */
function perEntry<T extends Int32Array | Float64Array>(c: TextColumn, rows: number, out: T, value: (s: string) => number, na: number): T {
  const map = new Float64Array(c.dict.length)
  for (let k = 0; k < map.length; k++) map[k] = k === 0 ? na : value(c.dict[k])
  for (let i = 0; i < rows; i++) out[i] = map[c.codes[i]]
  return out
}

/**
 * SQLite's LIKE without ESCAPE: `%` any run, `_` any one character, letters compared without case
 * for ASCII only (SQLite's default, without ICU). Made a regular expression once per pattern. A
 * `%` at either end leaves that end unanchored rather than matching `[\s\S]*`: anchored, the
 * engine tries every split of the text (`%google%` over 200,000 URLs took 170 ms, unanchored 9).
 */
export function likeMatcher(pattern: string): (s: string) => boolean {
  const body = pattern.replace(/^%+/, '').replace(/%+$/, '')
  let source = ''
  for (const ch of body) {
    if (ch === '%') source += '[\\s\\S]*'
    else if (ch === '_') source += '[\\s\\S]'
    else if (/[a-zA-Z]/.test(ch)) source += `[${ch.toLowerCase()}${ch.toUpperCase()}]`
    else source += ch.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
  }
  const start = pattern.startsWith('%') ? '' : '^'
  const end = pattern.endsWith('%') ? '' : '$'
  const re = new RegExp(`${start}${source}${end}`, 'u')
  return (s) => re.test(s)
}

/**
 * Characters (code points) in a text: a surrogate pair counts once, a lone surrogate once, as the
 * string iterator counts them, without making the array `[...s]` would (5x slower on URLs).
 */
function codePoints(s: string): number {
  let n = s.length
  for (let i = 0; i + 1 < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--
        i++
      }
    }
  }
  return n
}

/** ASCII-only case mapping, as SQLite's lower() and upper() without ICU. */
const asciiLower = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase())
const asciiUpper = (s: string): string => s.replace(/[a-z]/g, (c) => c.toUpperCase())

/** A text column mapped entry by entry through `f` (N/A stays N/A), its dictionary rebuilt. */
function mapText(c: TextColumn, rows: number, f: (s: string) => string): Column {
  const mapped = c.dict.map((s, k) => (k === 0 ? '' : f(s)))
  const entries = [...new Set(mapped.slice(1))].sort()
  const codeOf = new Map(entries.map((s, k) => [s, k + 1]))
  const remap = new Int32Array(mapped.length)
  for (let k = 1; k < mapped.length; k++) remap[k] = codeOf.get(mapped[k])!
  const codes = new Int32Array(rows)
  for (let i = 0; i < rows; i++) codes[i] = remap[c.codes[i]]
  return { type: 'text', codes, dict: ['', ...entries] }
}

const textArg = (args: readonly KernelArg[], fn: string, rows: number): TextColumn => {
  const c = column(args, 0, fn, rows)
  if (c.type !== 'text') throw new AppError('INTERNAL', `${fn} needs text`)
  return c
}

const numberArg = { kind: 'value', name: 'X', types: NUMBERS } as const
const textOnly = { kind: 'value', name: 'X', types: ['text'] } as const

/** Registry rows of the SQL kernels. */
export const SQL_KERNELS: readonly FunctionDef[] = [
  {
    name: '$isnull',
    args: [{ kind: 'value', name: 'X' }],
    result: () => 'int',
    kernel: (args, { rows }) => ints(isNull(column(args, 0, '$isnull', rows), rows)),
    doc: '$isnull(X): 1 where X is NULL (SQL).',
  },
  {
    name: '$num',
    args: [numberArg],
    result: () => 'float',
    kernel: (args, { rows }) => float(doubles(column(args, 0, '$num', rows), rows)),
    doc: '$num(X): an integer or date column as doubles, NULL as NaN (SQL).',
  },
  {
    name: '$idiv',
    args: [numberArg, { ...numberArg, name: 'Y' }],
    result: ([x, y]) => (isInt(x) && isInt(y) ? 'int' : 'float'),
    kernel: (args, { rows }) => division(args, rows, '$idiv'),
    doc: "$idiv(X;Y): SQLite's integer division; an int column of two int operands (SQL).",
  },
  {
    name: '$imod',
    args: [numberArg, { ...numberArg, name: 'Y' }],
    result: ([x, y]) => (isInt(x) && isInt(y) ? 'int' : 'float'),
    kernel: (args, { rows }) => division(args, rows, '$imod'),
    doc: "$imod(X;Y): SQLite's integer remainder; an int column of two int operands (SQL).",
  },
  {
    name: '$exact',
    args: [numberArg],
    result: ([t]) => t ?? 'float',
    kernel: (args, { rows }) => exact(column(args, 0, '$exact', rows), rows),
    doc: '$exact(X): X, or the plan declined where an integer exceeds 2^53 (SQL).',
  },
  {
    name: '$like',
    args: [textOnly, { kind: 'value', name: 'P', types: ['text'], constant: true }],
    result: () => 'int',
    kernel: (args, { rows }) => {
      const p = requiredValue(args, 1, '$like', 'P')
      const test = likeMatcher(String((p as { value: unknown }).value))
      return ints(perEntry(textArg(args, '$like', rows), rows, new Int32Array(rows), (s) => (test(s) ? 1 : 0), 0))
    },
    doc: "$like(X;P): SQLite's LIKE without ESCAPE; 0 for NULL (SQL).",
  },
  {
    name: '$lower',
    args: [textOnly],
    result: () => 'text',
    kernel: (args, { rows }) => mapText(textArg(args, '$lower', rows), rows, asciiLower),
    doc: "$lower(X): SQLite's lower(), ASCII letters only (SQL).",
  },
  {
    name: '$upper',
    args: [textOnly],
    result: () => 'text',
    kernel: (args, { rows }) => mapText(textArg(args, '$upper', rows), rows, asciiUpper),
    doc: "$upper(X): SQLite's upper(), ASCII letters only (SQL).",
  },
  {
    name: '$length',
    args: [textOnly],
    result: () => 'float',
    kernel: (args, { rows }) => float(perEntry(textArg(args, '$length', rows), rows, new Float64Array(rows), codePoints, Number.NaN)),
    doc: "$length(X): SQLite's length() of text, in characters; NULL for NULL (SQL).",
  },
]
