/**
 * SQL kernels of SQLite's scalar functions on text and its conversions (CAST, ||, round, substr,
 * trim, replace, instr), for compiled SQL only (`$` names). Positions count characters (code
 * points) as SQLite counts UTF-8 characters, not JavaScript's UTF-16 units. A value SQLite would
 * answer otherwise than these kernels can tell (a lone surrogate, a NUL, an uncertain digit, an
 * integer beyond 2^53 read as a number, not as a 64-bit column's digits) declines the plan (sqlDeclined): the query then runs on sql.js.
 *
 * The engine's text N/A is '', so a kernel that would make an empty text from a value declines
 * too, unless its argument E is 1: the compiler passes 1 where an empty text and NULL look
 * the same in the answer (a result column), so that '' may stand for either.
 */
import { compareStrings, textColumnFromStrings } from '../../columns/index.js'
import { NA_BIGINT, NA_INT, type Column, type TextColumn, type Value } from '../../columns/types.js'
import { isColumn, isScalar, valueArg } from '../args.js'
import { sqlDeclined } from '../../task/outcome.js'
import { integerText, realText, sqliteRound, textToInteger, textToNumeric, textToReal } from './sqlite-values.js'
import type { FunctionDef, KernelArg } from '../types.js'
import { sqlDoublesOfBigints } from './kernels.js'

const EXACT = 2 ** 53

/** Row i of a text argument, null for NULL. */
type TextAt = (i: number) => string | null
/** Row i of a number argument, null for NULL. */
type NumAt = (i: number) => number | null

function textAt(v: Value): TextAt {
  if (isScalar(v)) {
    const s = v.type === 'text' ? v.value : null
    return () => (s === '' ? null : s)
  }
  const c = v as TextColumn
  return (i) => (c.codes[i] === 0 ? null : c.dict[c.codes[i]])
}

function numAt(v: Value): NumAt {
  if (isScalar(v)) {
    if (v.type === 'text') throw sqlDeclined('a number expected')
    const x = v.type === 'bigint' ? sqlDoublesOfBigints(BigInt64Array.of(v.value))[0] : v.value
    const na = x !== x || ((v.type === 'int' || v.type === 'date') && x === NA_INT)
    return () => (na ? null : x)
  }
  const c = v as Column
  if (c.type === 'bigint') {
    const d = sqlDoublesOfBigints(c.data)
    return (i) => (d[i] === d[i] ? d[i] : null)
  }
  if (c.type === 'float') return (i) => (c.data[i] === c.data[i] ? c.data[i] : null)
  if (c.type === 'text') throw sqlDeclined('a number expected')
  return (i) => (c.data[i] === NA_INT ? null : c.data[i])
}

const value = (args: readonly KernelArg[], i: number): Value | null => valueArg(args, i)

/** Text SQLite and JavaScript may count or cut differently: a lone surrogate (no UTF-8 form) or a NUL (where SQLite's C code stops). */
const UNSURE = /[\0]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
/** A NUL or any surrogate: text without one has one UTF-16 unit per character, so positions are indices. */
function plain(s: string): boolean {
  // A loop, not a regular expression: this runs once per dictionary entry, on short texts.
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i)
    if (u === 0 || (u >= 0xd800 && u <= 0xdfff)) return false
  }
  return true
}
function checked(s: string): string {
  if (!plain(s) && UNSURE.test(s)) throw sqlDeclined('text with a NUL or a lone surrogate')
  return s
}

/**
 * The one argument that varies by row when it is a text column and every other value argument
 * is a constant, else null. A kernel's per-row function then depends on the row's dictionary
 * code alone: it is computed once per code the rows use, on the first row holding that code,
 * which keeps the row-by-row function (and every decline it makes) as the one rule.
 */
function soleTextColumn(args: readonly KernelArg[]): TextColumn | null {
  let found: TextColumn | null = null
  for (const a of args) {
    if (a.kind !== 'value' || isScalar(a.value)) continue
    if (found !== null || !isColumn(a.value) || a.value.type !== 'text') return null
    found = a.value
  }
  return found
}

/** For each code of `c`, the first of its `rows` rows that holds it, -1 for a code no row holds. */
function firstRowOfCodes(c: TextColumn, rows: number): Int32Array {
  const first = new Int32Array(c.dict.length).fill(-1)
  const codes = c.codes
  for (let i = 0; i < rows; i++) if (first[codes[i]] < 0) first[codes[i]] = i
  return first
}

/**
 * A text result per row, N/A for null; an empty text declines unless `emptyOk`. With `by` (see
 * soleTextColumn), `at` is called once per code of `by` the rows use instead of once per row.
 */
function textResult(rows: number, emptyOk: boolean, at: (i: number) => string | null, by: TextColumn | null = null): Column {
  if (by === null) {
    const out: (string | null)[] = new Array(rows)
    for (let i = 0; i < rows; i++) out[i] = nonEmpty(at(i), emptyOk)
    return textColumnFromStrings(out)
  }
  const first = firstRowOfCodes(by, rows)
  const results: (string | null)[] = new Array(first.length).fill(null)
  const distinct = new Set<string>()
  for (let k = 0; k < first.length; k++) {
    if (first[k] < 0) continue
    const s = nonEmpty(at(first[k]), emptyOk)
    results[k] = s
    if (s !== null && s !== '') distinct.add(s)
  }
  const dict = ['', ...[...distinct].sort(compareStrings)]
  const codeOf = new Map(dict.map((s, k) => [s, k]))
  const remap = new Int32Array(first.length)
  for (let k = 0; k < first.length; k++) remap[k] = codeOf.get(results[k] ?? '') ?? 0
  const codes = new Int32Array(rows)
  const from = by.codes
  for (let i = 0; i < rows; i++) codes[i] = remap[from[i]]
  return { type: 'text', codes, dict }
}

function nonEmpty(s: string | null, emptyOk: boolean): string | null {
  if (s === '' && !emptyOk) throw sqlDeclined('an empty text, which the engine cannot tell from NULL')
  return s
}

/** A number result per row, N/A (NaN) for null; with `by`, computed once per code as textResult. */
function floatResult(rows: number, at: (i: number) => number | null, by: TextColumn | null = null): Column {
  const out = new Float64Array(rows)
  if (by === null) {
    for (let i = 0; i < rows; i++) {
      const v = at(i)
      out[i] = v === null ? Number.NaN : v
    }
    return { type: 'float', data: out }
  }
  const first = firstRowOfCodes(by, rows)
  const values = new Float64Array(first.length).fill(Number.NaN)
  for (let k = 0; k < first.length; k++) {
    if (first[k] < 0) continue
    const v = at(first[k])
    values[k] = v === null ? Number.NaN : v
  }
  const from = by.codes
  for (let i = 0; i < rows; i++) out[i] = values[from[i]]
  return { type: 'float', data: out }
}

/** The per-row function over distinct inputs once: most text columns repeat their values. */
function memo<T>(f: (s: string) => T): (s: string) => T {
  const seen = new Map<string, T>()
  return (s) => {
    let r = seen.get(s)
    if (r === undefined && !seen.has(s)) {
      r = f(s)
      seen.set(s, r)
    }
    return r as T
  }
}

const emptyOk = (args: readonly KernelArg[], i: number): boolean => {
  const v = value(args, i)
  return v !== null && isScalar(v) && v.value === 1
}

const chars = (s: string): string[] => Array.from(checked(s))

/**
 * SQLite's substr(x, p1, p2) on characters; p2 null: to the end (SQLite takes the largest 64-bit
 * integer). Positions of 2^53 or more are declined: SQLite's 64-bit arithmetic overflows there.
 */
export function substrChars(x: string, start: number, length: number | null): string {
  if (Math.abs(start) >= EXACT || (length !== null && Math.abs(length) >= EXACT)) throw sqlDeclined('a substr position beyond 2^53')
  // Characters are UTF-16 units in plain text: cut the string itself, not an array of characters.
  const c: string | string[] = plain(x) ? x : chars(x)
  let p1 = Math.trunc(start)
  let p2 = length === null ? Number.POSITIVE_INFINITY : Math.trunc(length)
  let negative = false
  if (p2 < 0) {
    p2 = -p2
    negative = true
  }
  if (p1 < 0) {
    p1 += c.length
    if (p1 < 0) {
      p2 += p1
      if (p2 < 0) p2 = 0
      p1 = 0
    }
  } else if (p1 > 0) p1--
  else if (p2 > 0) p2--
  if (negative) {
    p1 -= p2
    if (p1 < 0) {
      p2 += p1
      p1 = 0
    }
  }
  return typeof c === 'string' ? c.slice(p1, p1 + p2) : c.slice(p1, p1 + p2).join('')
}

/** SQLite's trim: characters of `set` removed from the start, the end, or both. */
export function trimChars(x: string, set: string, start: boolean, end: boolean): string {
  if (plain(x) && plain(set)) {
    let from = 0
    let to = x.length
    if (start) while (from < to && set.includes(x[from])) from++
    if (end) while (to > from && set.includes(x[to - 1])) to--
    return x.slice(from, to)
  }
  const c = chars(x)
  const drop = new Set(chars(set))
  let from = 0
  let to = c.length
  if (start) while (from < to && drop.has(c[from])) from++
  if (end) while (to > from && drop.has(c[to - 1])) to--
  return c.slice(from, to).join('')
}

/** SQLite's instr: the character position of the first `needle` in `hay`, 0 when none. */
export function instrChars(hay: string, needle: string): number {
  // One scan of `hay` serves both the check and the count: a prefix of plain text is plain.
  const simple = plain(hay)
  if (!simple) checked(hay)
  checked(needle)
  const at = hay.indexOf(needle)
  if (at < 0) return 0
  return (simple ? at : Array.from(hay.slice(0, at)).length) + 1
}

const NUMBER = { kind: 'value', name: 'X', types: ['int', 'bigint', 'float', 'date'] } as const
const TEXT = { kind: 'value', name: 'X', types: ['text'] } as const
const FLAG = { kind: 'value', name: 'E', types: ['int', 'float'], constant: true } as const

const textFn = (name: string, specs: FunctionDef['args'], kernel: FunctionDef['kernel'], doc: string): FunctionDef => ({
  name,
  args: specs,
  result: () => 'text',
  kernel,
  doc,
})
const floatFn = (name: string, specs: FunctionDef['args'], kernel: FunctionDef['kernel'], doc: string): FunctionDef => ({
  name,
  args: specs,
  result: () => 'float',
  kernel,
  doc,
})

function toText(args: readonly KernelArg[], rows: number, print: (v: number) => string | undefined): Column {
  const x = numAt(value(args, 0)!)
  const text = new Map<number, string>()
  return textResult(rows, false, (i) => {
    const v = x(i)
    if (v === null) return null
    let s = text.get(v)
    if (s === undefined) {
      s = print(v)
      if (s === undefined) throw sqlDeclined(`a real (${v}) whose text SQLite may print otherwise`)
      text.set(v, s)
    }
    return s
  })
}

/** A column of 64-bit integers as their digits, every one exact (null for any other argument). */
function bigintText(args: readonly KernelArg[], rows: number): Column | null {
  const v = value(args, 0)!
  if (isScalar(v) || (v as Column).type !== 'bigint') return null
  const data = (v as Column & { type: 'bigint' }).data
  return textResult(rows, false, (i) => (data[i] === NA_BIGINT ? null : data[i].toString()))
}

/** A number from each distinct text by `read`, declined where it is undefined. */
function fromText(args: readonly KernelArg[], rows: number, read: (s: string) => number | undefined): Column {
  const x = textAt(value(args, 0)!)
  const once = memo((s: string) => read(checked(s)))
  return floatResult(
    rows,
    (i) => {
      const s = x(i)
      if (s === null) return null
      const v = once(s)
      if (v === undefined) throw sqlDeclined('a text whose number SQLite may read otherwise')
      return v
    },
    soleTextColumn(args),
  )
}

/** Registry rows of the text and conversion kernels of compiled SQL. */
export const SQL_TEXT_KERNELS: readonly FunctionDef[] = [
  textFn('$itext', [NUMBER], (args, { rows }) => bigintText(args, rows) ?? toText(args, rows, integerText), '$itext(X): an SQL integer as text (SQL).'),
  textFn('$rtext', [NUMBER], (args, { rows }) => toText(args, rows, realText), "$rtext(X): an SQL real as text, as SQLite's %!.17g (SQL)."),
  floatFn(
    '$tointeger',
    [NUMBER],
    (args, { rows }) => {
      const x = numAt(value(args, 0)!)
      return floatResult(rows, (i) => {
        const v = x(i)
        if (v === null) return null
        if (Math.abs(v) >= EXACT) throw sqlDeclined('CAST AS INTEGER of a real beyond 2^53')
        return Math.trunc(v) + 0
      })
    },
    '$tointeger(X): CAST(real AS INTEGER), truncated toward zero (SQL).',
  ),
  floatFn('$textinteger', [TEXT], (args, { rows }) => fromText(args, rows, textToInteger), '$textinteger(X): CAST(text AS INTEGER) (SQL).'),
  floatFn('$textreal', [TEXT], (args, { rows }) => fromText(args, rows, textToReal), '$textreal(X): CAST(text AS REAL) (SQL).'),
  floatFn(
    '$textnumeric',
    [TEXT],
    (args, { rows }) => fromText(args, rows, (s) => textToNumeric(s)?.v),
    '$textnumeric(X): CAST(text AS NUMERIC), an integer or a real by row (SQL).',
  ),
  floatFn(
    '$round',
    [NUMBER, { ...NUMBER, name: 'N', optional: true }],
    (args, { rows }) => {
      const x = numAt(value(args, 0)!)
      const nArg = value(args, 1)
      const n: NumAt = nArg === null ? () => 0 : numAt(nArg)
      return floatResult(rows, (i) => {
        const v = x(i)
        const d = n(i)
        if (v === null || d === null) return null
        const r = sqliteRound(v, Math.trunc(Math.max(-1e9, Math.min(1e9, d))))
        if (r === undefined) throw sqlDeclined(`round(${v}, ${d}), whose digits SQLite may round otherwise`)
        return r
      })
    },
    "$round(X;N): SQLite's round(), half away from zero, a real (SQL).",
  ),
  textFn(
    '$substr',
    [TEXT, FLAG, { ...NUMBER, name: 'S' }, { ...NUMBER, name: 'L', optional: true }],
    (args, { rows }) => {
      const x = textAt(value(args, 0)!)
      const s = numAt(value(args, 2)!)
      const lArg = value(args, 3)
      const l: NumAt | null = lArg === null ? null : numAt(lArg)
      return textResult(
        rows,
        emptyOk(args, 1),
        (i) => {
          const t = x(i)
          const p = s(i)
          const n = l === null ? null : l(i)
          if (t === null || p === null || (l !== null && n === null)) return null
          return substrChars(t, p, n)
        },
        soleTextColumn(args),
      )
    },
    "$substr(X;E;S;L): SQLite's substr() on characters (SQL).",
  ),
  ...(['$trim', '$ltrim', '$rtrim'] as const).map((name) =>
    textFn(
      name,
      [TEXT, FLAG, { ...TEXT, name: 'C', optional: true }],
      (args, { rows }) => {
        const x = textAt(value(args, 0)!)
        const cArg = value(args, 2)
        const set: TextAt = cArg === null ? () => ' ' : textAt(cArg)
        const trim = (t: string, c: string): string => trimChars(t, c, name !== '$rtrim', name !== '$ltrim')
        return textResult(
          rows,
          emptyOk(args, 1),
          (i) => {
            const t = x(i)
            const c = set(i)
            return t === null || c === null ? null : trim(t, c)
          },
          soleTextColumn(args),
        )
      },
      `${name}(X;E;C): SQLite's ${name.slice(1)}() (SQL).`,
    ),
  ),
  textFn(
    '$replace',
    [TEXT, { ...TEXT, name: 'F' }, { ...TEXT, name: 'T' }],
    (args, { rows }) => {
      const [x, f, t] = [0, 1, 2].map((k) => textAt(value(args, k)!))
      // The compiler never passes an empty F (replace then returns X itself, number or text).
      return textResult(
        rows,
        true,
        (i) => {
          const a = x(i)
          const b = f(i)
          const c = t(i)
          return a === null || b === null || c === null ? null : checked(a).split(checked(b)).join(checked(c))
        },
        soleTextColumn(args),
      )
    },
    "$replace(X;F;T): SQLite's replace() (SQL).",
  ),
  floatFn(
    '$instr',
    [TEXT, { ...TEXT, name: 'Y' }],
    (args, { rows }) => {
      const x = textAt(value(args, 0)!)
      const y = textAt(value(args, 1)!)
      return floatResult(
        rows,
        (i) => {
          const a = x(i)
          const b = y(i)
          return a === null || b === null ? null : instrChars(a, b)
        },
        soleTextColumn(args),
      )
    },
    "$instr(X;Y): SQLite's instr(), a character position (SQL).",
  ),
  textFn(
    '$concat',
    [TEXT, { ...TEXT, name: 'Y' }],
    (args, { rows }) => {
      const x = textAt(value(args, 0)!)
      const y = textAt(value(args, 1)!)
      return textResult(
        rows,
        true,
        (i) => {
          const a = x(i)
          const b = y(i)
          return a === null || b === null ? null : a + b
        },
        soleTextColumn(args),
      )
    },
    "$concat(X;Y): SQL's X || Y of two texts, NULL when either is (SQL).",
  ),
]
