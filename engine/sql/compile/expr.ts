/**
 * SQL expressions (ir.ts) as the engine's expressions, with SQLite's semantics.
 *
 * Values: a number is an SQL integer or real; integers that arithmetic touches are carried as
 * doubles (exact below 2^53, which `bound` tracks and `$exact` checks beyond), a plain integer
 * column or literal stays an int column. NULL is the engine's N/A.
 *
 * Truth: SQL's logic has three values, the engine's comparisons two (N/A compares as a value
 * with `=`, and makes `<` false). So a condition is compiled twice, as "is TRUE" (`truth`) and
 * "is FALSE" (`falsity`), each a 0/1 column that is never N/A: NOT swaps them, AND and OR combine
 * them as De Morgan says, and a row where both are 0 is NULL. WHERE and HAVING keep the rows
 * whose condition is TRUE; a condition used as a value is 1, 0 or NULL from the two.
 */
import type { BinOp, Expr, Loc } from '../../ast.js'
import { outside, type CastTo, type SqlExpr } from './ir.js'

/**
 * An SQL type: integer, real, text, or `num` for a number whose type varies by row (CASE or
 * coalesce of integers and reals: SQLite types values, not columns). A NULL literal has none;
 * the contexts that allow one type it.
 */
export type SqlType = 'int' | 'real' | 'num' | 'text'

export interface Val {
  readonly e: Expr
  readonly t: SqlType
  /** True when `e` is an int (or date) column or constant: arithmetic converts it to doubles first. */
  readonly intCarried: boolean
  /** True for a date column, which the engine's own arithmetic treats as a date, not a number. */
  readonly date?: boolean
  /** For an integer: a bound on its magnitude. */
  readonly bound: number
  /**
   * A 64-bit integer (a `j` column, or a literal past 2^53): exact in the engine's own kernels
   * (comparisons, IN, ordering, grouping, links, count, output), which read it as it is; read as
   * doubles only through `$num`, which declines the plan where a value is past 2^53.
   */
  readonly wide?: boolean
}

/** What a plan's answer depends on beyond its operations, for the caller to check before running it. */
export interface Uses {
  /**
   * Text is ordered (compared with < or BETWEEN, sorted, grouped, min or max). The engine orders
   * text as JavaScript does (UTF-16 code units), SQLite by its UTF-8 bytes: the two agree unless
   * a text holds a character from U+E000 up or beyond U+FFFF, which the caller checks for.
   */
  textOrder: boolean
}

/** What names mean where an expression is compiled: the table's columns, or a grouped query's groups. */
export interface Scope {
  readonly uses: Uses
  /** A (sub)expression the scope answers itself (a GROUP BY key, an aggregate), or null. */
  match(x: SqlExpr): Val | null
  /** A column by name as written (`col` or `alias.col`). */
  column(name: string): Val
}

const LOC: Loc = { line: 1, col: 1 }
const INT32 = 2 ** 31
const EXACT = 2 ** 53

const num = (v: number, int: boolean): Expr => ({ kind: 'Num', value: v, int, loc: LOC })
const str = (v: string): Expr => ({ kind: 'Str', value: v, loc: LOC })
const call = (name: string, ...args: Expr[]): Expr => ({ kind: 'Call', name, args, loc: LOC })
const bin = (op: BinOp, left: Expr, right: Expr): Expr => ({ kind: 'Bin', op, left, right, loc: LOC })
const not = (operand: Expr): Expr => ({ kind: 'Not', operand, loc: LOC })
const and = (a: Expr, b: Expr): Expr => bin('&', a, b)
const or = (a: Expr, b: Expr): Expr => bin('|', a, b)
const notNull = (e: Expr): Expr => not(call('$isnull', e))
/** A NULL real: 0.0/0 is N/A in the engine. */
const nullReal = (): Expr => bin('/', num(0, false), num(0, false))
/** A NULL text: '' is text's N/A in the engine. */
const nullText = (): Expr => str('')

const isNumeric = (t: SqlType): boolean => t !== 'text'

/** The value as doubles. */
export function asDoubles(v: Val): Expr {
  if (!v.intCarried) return v.e
  // A literal past 2^53 has no exact double.
  if (v.wide === true && v.e.kind === 'Num') throw outside('arithmetic on an integer literal beyond 2^53')
  // An integer literal is written as a real one: the same double, and no column is made of it.
  if (v.e.kind === 'Num') return num(v.e.value, false)
  return call('$num', v.e)
}

/**
 * True when the engine's own arithmetic may read the value in place as doubles: an int column
 * does (N/A as NaN); a date would be read as a date, and a 64-bit integer as its nearest double
 * even past 2^53, so those go through `$num`.
 */
const readInPlace = (v: Val): boolean => v.date !== true && v.wide !== true

/** True when `v` is a double in the engine (not int-carried, or a literal that asDoubles writes as a real). */
const engineDouble = (v: Val): boolean => !v.intCarried || v.e.kind === 'Num'

/**
 * Both operands of + - * of two integers, as doubles. The engine's operator reads an int (not
 * date) operand as doubles itself (N/A as NaN, as $num does) when the other is a double, so
 * only one side needs $num, and none when one is a literal.
 */
function doublePair(l: Val, r: Val): [Expr, Expr] {
  const inPlace = (v: Val): Expr => (v.intCarried && readInPlace(v) && v.e.kind !== 'Num' ? v.e : asDoubles(v))
  if (engineDouble(l) || engineDouble(r)) return [inPlace(l), inPlace(r)]
  if (readInPlace(r)) return [asDoubles(l), r.e]
  if (readInPlace(l)) return [l.e, asDoubles(r)]
  return [asDoubles(l), asDoubles(r)]
}

/**
 * @param lax the value's NULL may stand for the empty text too: where the two look alike (a
 *   result column), a text function may then give '' (the engine's N/A) instead of declining.
 */
export function value(x: SqlExpr, scope: Scope, lax = false): Val {
  const matched = scope.match(x)
  if (matched !== null) return matched
  switch (x.k) {
    case 'col':
      return scope.column(x.name)
    case 'int':
      if (x.digits !== undefined)
        return { e: { kind: 'Num', value: x.v, int: true, digits: x.digits, loc: LOC }, t: 'int', intCarried: true, bound: Math.abs(x.v), wide: true }
      return Math.abs(x.v) < INT32
        ? { e: num(x.v, true), t: 'int', intCarried: true, bound: Math.abs(x.v) }
        : { e: num(x.v, false), t: 'int', intCarried: false, bound: Math.abs(x.v) }
    case 'real':
      return { e: num(x.v, false), t: 'real', intCarried: false, bound: Infinity }
    case 'str':
      // '' is the engine's N/A, but a real empty text in SQL: only where the two look alike.
      if (x.v === '' && lax) return { e: nullText(), t: 'text', intCarried: false, bound: 0 }
      if (x.v === '') throw outside("the empty text ''")
      return { e: str(x.v), t: 'text', intCarried: false, bound: 0 }
    case 'null':
      return { e: nullText(), t: 'text', intCarried: false, bound: 0 }
    case 'neg': {
      const v = numeric(x.e, scope, 'unary minus')
      return { e: { kind: 'Neg', operand: asDoubles(v), loc: LOC }, t: v.t, intCarried: false, bound: v.bound }
    }
    case 'arith':
      return arithmetic(x.op, numeric(x.l, scope, x.op), numeric(x.r, scope, x.op))
    case 'case':
      return caseValue(x.whens, x.else, scope, lax)
    case 'call':
      return callValue(x.name, x.args, scope, lax)
    case 'cast':
      return castValue(x.e, x.to, scope, lax)
    case 'concat':
      return { e: call('$concat', textOf(x.l, scope, '||'), textOf(x.r, scope, '||')), t: 'text', intCarried: false, bound: 0 }
    case 'agg':
      throw outside('an aggregate here')
    case 'win':
      throw outside('a window function here')
    default:
      return booleanValue(x, scope)
  }
}

function numeric(x: SqlExpr, scope: Scope, what: string): Val {
  if (x.k === 'null') throw outside(`NULL in ${what}`)
  const v = value(x, scope)
  if (!isNumeric(v.t)) throw outside(`text in ${what}`)
  return v
}

function arithmetic(op: '+' | '-' | '*' | '/' | '%', l: Val, r: Val): Val {
  if (l.t === 'int' && r.t === 'int') {
    // $idiv and $imod read int operands themselves, and answer an int column when both are ints.
    // ($idiv and $imod read a 64-bit operand as doubles, and answer doubles.)
    const ints = l.intCarried && r.intCarried && l.wide !== true && r.wide !== true
    if (op === '/') return { e: call('$idiv', l.e, r.e), t: 'int', intCarried: ints, bound: l.bound }
    if (op === '%') return { e: call('$imod', l.e, r.e), t: 'int', intCarried: ints, bound: Math.min(l.bound, r.bound) }
    const [a, b] = doublePair(l, r)
    const bound = op === '*' ? l.bound * r.bound : l.bound + r.bound
    const e = bin(op, a, b)
    return bound > EXACT ? { e: call('$exact', e), t: 'int', intCarried: false, bound: EXACT } : { e, t: 'int', intCarried: false, bound }
  }
  // SQLite's % takes the integer parts of reals: not worth compiling. An integer or a real row by
  // row would make / integer division on some rows and not others.
  if (op === '%') throw outside('% of a real')
  if (l.t === 'num' || r.t === 'num') {
    if (op === '/') throw outside('/ of a number that is an integer on some rows and a real on others')
    // Integer rows stay exact below 2^53 as they are computed, and are checked beyond.
    if (l.t !== 'real' && r.t !== 'real') return { e: call('$exact', bin(op, asDoubles(l), asDoubles(r))), t: 'num', intCarried: false, bound: Infinity }
  }
  // With a real on one side the engine's own operators are SQLite's: an int column is read in
  // place as doubles (N/A as NaN), and a division by zero is N/A. Dates are numbers only here.
  const side = (v: Val): Expr => (readInPlace(v) ? v.e : asDoubles(v))
  return { e: bin(op, side(l), side(r)), t: 'real', intCarried: false, bound: Infinity }
}

/** A condition used as a value: 1, 0, or NULL when neither TRUE nor FALSE. */
function booleanValue(x: SqlExpr, scope: Scope): Val {
  return { e: call('if', truth(x, scope), num(1, false), falsity(x, scope), num(0, false), nullReal()), t: 'int', intCarried: false, bound: 1 }
}

/** One result type for several values (CASE branches, coalesce): NULL takes the others' type. */
function unify(vals: readonly (Val | null)[], what: string): { t: SqlType; exprs: Expr[] } {
  const typed = vals.filter((v): v is Val => v !== null)
  if (typed.length === 0) throw outside(`${what} of only NULL`)
  const text = typed.some((v) => v.t === 'text')
  if (text && !typed.every((v) => v.t === 'text')) throw outside(`${what} mixing text and numbers`)
  if (text) return { t: 'text', exprs: vals.map((v) => (v === null ? nullText() : v.e)) }
  const t: SqlType = typed.every((v) => v.t === 'int') ? 'int' : typed.every((v) => v.t === 'real') ? 'real' : 'num'
  return { t, exprs: vals.map((v) => (v === null ? nullReal() : asDoubles(v))) }
}

const orNull = (x: SqlExpr, scope: Scope, lax = false): Val | null => (x.k === 'null' ? null : value(x, scope, lax))

function caseValue(whens: readonly { when: SqlExpr; then: SqlExpr }[], otherwise: SqlExpr | null, scope: Scope, lax = false): Val {
  const branches = [...whens.map((w) => orNull(w.then, scope, lax)), otherwise === null ? null : orNull(otherwise, scope, lax)]
  const { t, exprs } = unify(branches, 'CASE')
  const args: Expr[] = []
  whens.forEach((w, i) => args.push(truth(w.when, scope), exprs[i]))
  args.push(exprs[exprs.length - 1])
  return { e: call('if', ...args), t, intCarried: false, bound: boundOf(branches, t) }
}

const boundOf = (vals: readonly (Val | null)[], t: SqlType): number => (t === 'int' ? Math.max(0, ...vals.map((v) => v?.bound ?? 0)) : Infinity)

/**
 * A value as text, as SQLite converts it for a text function: text as it is, an integer in
 * decimal, a real as SQLite prints it ($rtext declines what it cannot print as SQLite would).
 */
export function textOf(x: SqlExpr, scope: Scope, what: string, lax = false): Expr {
  if (x.k === 'null') throw outside(`NULL in ${what}`)
  const v = value(x, scope, lax)
  if (v.t === 'text') return v.e
  if (v.t === 'num') throw outside(`${what} of a number that is an integer on some rows and a real on others`)
  return call(v.t === 'int' ? '$itext' : '$rtext', v.e)
}

/** CAST(x AS …) by the affinity of the type name. */
function castValue(x: SqlExpr, to: CastTo, scope: Scope, lax: boolean): Val {
  if (x.k === 'null') throw outside('CAST of NULL')
  if (to === 'text') return { e: textOf(x, scope, 'CAST', lax), t: 'text', intCarried: false, bound: 0 }
  const v = value(x, scope)
  if (v.t === 'text') {
    const fn = to === 'integer' ? '$textinteger' : to === 'real' ? '$textreal' : '$textnumeric'
    return { e: call(fn, v.e), t: to === 'integer' ? 'int' : to === 'real' ? 'real' : 'num', intCarried: false, bound: EXACT }
  }
  // A number to NUMERIC is itself (a real stays a real, even a whole one).
  if (to === 'numeric' || (to === 'integer' && v.t === 'int') || (to === 'real' && v.t === 'real')) return v
  if (to === 'real') return { e: asDoubles(v), t: 'real', intCarried: false, bound: Infinity }
  return { e: call('$tointeger', asDoubles(v)), t: 'int', intCarried: false, bound: EXACT }
}

/** A position or length argument: a number (a real is truncated toward zero). */
const position = (x: SqlExpr, scope: Scope, what: string): Expr => numeric(x, scope, what).e

const arity = (name: string, args: readonly SqlExpr[], min: number, max: number): void => {
  if (args.length < min || args.length > max) throw outside(`${name} with ${args.length} arguments`)
}

const text = (e: Expr): Val => ({ e, t: 'text', intCarried: false, bound: 0 })
const flag = (lax: boolean): Expr => num(lax ? 1 : 0, true)

function callValue(name: string, args: readonly SqlExpr[], scope: Scope, lax = false): Val {
  switch (name) {
    case 'round': {
      arity(name, args, 1, 2)
      const x = numeric(args[0], scope, 'round')
      const digits = args.length === 2 ? [position(args[1], scope, 'round')] : []
      return { e: call('$round', x.e, ...digits), t: 'real', intCarried: false, bound: Infinity }
    }
    case 'substr': {
      arity(name, args, 2, 3)
      const rest = args.slice(1).map((a) => position(a, scope, 'substr'))
      return text(call('$substr', textOf(args[0], scope, 'substr', lax), flag(lax), ...rest))
    }
    case 'trim':
    case 'ltrim':
    case 'rtrim': {
      arity(name, args, 1, 2)
      const chars = args.length === 2 ? [textOf(args[1], scope, name)] : []
      return text(call(`$${name}`, textOf(args[0], scope, name, lax), flag(lax), ...chars))
    }
    case 'replace': {
      arity(name, args, 3, 3)
      // An empty text to replace gives back X itself (a number stays a number): not compiled.
      return text(call('$replace', textOf(args[0], scope, name, lax), textOf(args[1], scope, name), textOf(args[2], scope, name)))
    }
    case 'instr':
      arity(name, args, 2, 2)
      return { e: call('$instr', textOf(args[0], scope, name), textOf(args[1], scope, name)), t: 'int', intCarried: false, bound: INT32 }
    case 'abs': {
      if (args.length !== 1) throw outside('abs with other than one argument')
      const v = numeric(args[0], scope, 'abs')
      return { e: call('abs', asDoubles(v)), t: v.t, intCarried: false, bound: v.bound }
    }
    case 'coalesce':
    case 'ifnull': {
      if (args.length < 2 || (name === 'ifnull' && args.length !== 2)) throw outside(`${name} with ${args.length} arguments`)
      const vals = args.map((a) => orNull(a, scope))
      const { t, exprs } = unify(vals, name)
      const parts: Expr[] = []
      for (let i = 0; i < exprs.length - 1; i++) parts.push(notNull(exprs[i]), exprs[i])
      parts.push(exprs[exprs.length - 1])
      return { e: call('if', ...parts), t, intCarried: false, bound: boundOf(vals, t) }
    }
    case 'iif': {
      // iif(c, a, b) is CASE WHEN c THEN a ELSE b END.
      if (args.length !== 3) throw outside(`iif with ${args.length} arguments`)
      return caseValue([{ when: args[0], then: args[1] }], args[2], scope, lax)
    }
    case 'nullif': {
      if (args.length !== 2) throw outside('nullif with other than two arguments')
      return caseValue([{ when: { k: 'cmp', op: '=', l: args[0], r: args[1] }, then: { k: 'null' } }], args[0], scope)
    }
    case 'lower':
    case 'upper':
    case 'length': {
      if (args.length !== 1) throw outside(`${name} with other than one argument`)
      // lower('') and upper('') are '': laxness passes through; length('') is 0, not NULL.
      const v = value(args[0], scope, lax && name !== 'length')
      if (v.t !== 'text') throw outside(`${name} of a number`)
      if (name === 'length') return { e: call('$length', v.e), t: 'int', intCarried: false, bound: INT32 }
      return { e: call(`$${name}`, v.e), t: 'text', intCarried: false, bound: 0 }
    }
  }
  throw outside(`the function ${name}`)
}

/** Both sides of a comparison, of one kind (numbers or text). */
function comparable(op: string, l: SqlExpr, r: SqlExpr, scope: Scope): [Val, Val] {
  if (l.k === 'null' || r.k === 'null') throw outside('a comparison with NULL')
  const a = value(l, scope)
  const b = value(r, scope)
  // SQLite compares text and numbers by type affinity rules: left to sql.js.
  if ((a.t === 'text') !== (b.t === 'text')) throw outside('a comparison of text with a number')
  if (a.t === 'text' && op !== '=' && op !== '<>') scope.uses.textOrder = true
  return [a, b]
}

const isEmptyText = (x: SqlExpr): boolean => x.k === 'str' && x.v === ''
const FLIPPED = { '=': '=', '<>': '<>', '<': '>', '<=': '>=', '>': '<', '>=': '<=' } as const

/**
 * `x op ''` (or `'' op x`) with x a text column, as whether it holds where x is not NULL. A column
 * is never the empty text: a stored one's N/A is NULL in the SQLite image, and a subquery's was
 * computed where a kernel declines an empty text (engine/functions/sql/text.ts). A text that is not empty is greater than '', so
 * the answer is the same on every row that is not NULL, and NULL on the others.
 */
function emptyTextComparison(x: SqlExpr & { k: 'cmp' }, scope: Scope): { v: Val; holds: boolean } | null {
  const left = isEmptyText(x.l)
  if (left === isEmptyText(x.r)) return null
  const other = left ? x.r : x.l
  if (other.k === 'null') throw outside('a comparison with NULL')
  const v = value(other, scope)
  if (v.t !== 'text') throw outside('a comparison of text with a number')
  // Only a column: a function's value may be an empty text, which its kernel declines only when
  // it is computed, and a comparison that holds nowhere would never compute it.
  if (v.e.kind !== 'Col') throw outside("a comparison of a computed text with ''")
  const op = left ? FLIPPED[x.op] : x.op
  return { v, holds: op === '<>' || op === '>' || op === '>=' }
}

const isLiteral = (x: SqlExpr): boolean => x.k === 'int' || x.k === 'real' || (x.k === 'str' && x.v !== '')

/**
 * coalesce(a, c) or ifnull(a, c) with c a number literal, as a condition: a's truth where a is
 * not NULL, c's where it is. So it is TRUE where a is TRUE, or (c true) where a is not FALSE;
 * FALSE where a is FALSE, or (c false) where a is not TRUE: no value of a is made.
 */
function coalesced(x: SqlExpr): { a: SqlExpr; c: boolean } | null {
  if (x.k !== 'call' || (x.name !== 'coalesce' && x.name !== 'ifnull') || x.args.length !== 2) return null
  const [a, c] = x.args
  if (a.k === 'null' || (c.k !== 'int' && c.k !== 'real')) return null
  return { a, c: c.v !== 0 }
}

/** 0/1, never N/A: 1 where the condition is TRUE. */
export function truth(x: SqlExpr, scope: Scope): Expr {
  switch (x.k) {
    case 'and':
      return and(truth(x.l, scope), truth(x.r, scope))
    case 'or':
      return or(truth(x.l, scope), truth(x.r, scope))
    case 'not':
      return falsity(x.e, scope)
    case 'cmp': {
      const empty = emptyTextComparison(x, scope)
      if (empty !== null) return empty.holds ? notNull(empty.v.e) : num(0, true)
      const [a, b] = comparable(x.op, x.l, x.r, scope)
      // The engine's `<` (and kin) is already 0 for N/A; its `=` finds N/A equal to N/A, so it
      // needs the guard unless one side is a literal, which N/A never equals.
      if (x.op === '=') return isLiteral(x.l) || isLiteral(x.r) ? bin('=', a.e, b.e) : and(bin('=', a.e, b.e), notNull(a.e))
      if (x.op === '<>') return and(and(bin('<>', a.e, b.e), notNull(a.e)), notNull(b.e))
      return bin(x.op, a.e, b.e)
    }
    case 'isnull': {
      const v = x.e.k === 'null' ? null : value(x.e, scope)
      const isNull = v === null ? num(1, true) : call('$isnull', v.e)
      return x.not ? not(isNull) : isNull
    }
    case 'between': {
      const both = and(truth({ k: 'cmp', op: '>=', l: x.e, r: x.lo }, scope), truth({ k: 'cmp', op: '<=', l: x.e, r: x.hi }, scope))
      return x.not ? or(falsity({ k: 'cmp', op: '>=', l: x.e, r: x.lo }, scope), falsity({ k: 'cmp', op: '<=', l: x.e, r: x.hi }, scope)) : both
    }
    case 'in':
      return membership(x.e, x.list, !x.not, scope)
    case 'like': {
      const v = value(x.e, scope)
      if (v.t !== 'text') throw outside('LIKE on a number')
      if (x.pattern === '') throw outside("LIKE ''")
      const like = call('$like', v.e, str(x.pattern))
      return x.not ? and(not(like), notNull(v.e)) : like
    }
    default: {
      const fallback = coalesced(x)
      if (fallback !== null) return fallback.c ? not(falsity(fallback.a, scope)) : truth(fallback.a, scope)
      // A number as a condition: TRUE when not 0.
      const v = numeric(x, scope, 'a condition')
      return and(bin('<>', v.e, num(0, true)), notNull(v.e))
    }
  }
}

/** 0/1, never N/A: 1 where the condition is FALSE. */
export function falsity(x: SqlExpr, scope: Scope): Expr {
  switch (x.k) {
    case 'and':
      return or(falsity(x.l, scope), falsity(x.r, scope))
    case 'or':
      return and(falsity(x.l, scope), falsity(x.r, scope))
    case 'not':
      return truth(x.e, scope)
    case 'cmp': {
      const empty = emptyTextComparison(x, scope)
      if (empty !== null) return empty.holds ? num(0, true) : notNull(empty.v.e)
      const [a, b] = comparable(x.op, x.l, x.r, scope)
      if (x.op === '=') return and(and(bin('<>', a.e, b.e), notNull(a.e)), notNull(b.e))
      if (x.op === '<>') return and(bin('=', a.e, b.e), notNull(a.e))
      const opposite = { '<': '>=', '<=': '>', '>': '<=', '>=': '<' } as const
      return bin(opposite[x.op], a.e, b.e)
    }
    case 'isnull':
      // IS NULL is never NULL: FALSE exactly when not TRUE.
      return not(truth(x, scope))
    case 'between':
      return truth({ ...x, not: !x.not }, scope)
    case 'in':
      return membership(x.e, x.list, x.not, scope)
    case 'like':
      return truth({ ...x, not: !x.not }, scope)
    default: {
      const fallback = coalesced(x)
      if (fallback !== null) return fallback.c ? falsity(fallback.a, scope) : not(truth(fallback.a, scope))
      const v = numeric(x, scope, 'a condition')
      return bin('=', v.e, num(0, true))
    }
  }
}

/**
 * 1 where `e` is (or, `member` false, is not) one of the literals; 0 where `e` is NULL either way,
 * but for the empty list, which SQLite answers without looking at `e`: `x IN ()` is FALSE and
 * `x NOT IN ()` TRUE, a NULL `x` included.
 * The literals must be of e's kind and none NULL (a NULL in the list makes "not in" NULL).
 */
function membership(x: SqlExpr, list: readonly SqlExpr[], member: boolean, scope: Scope): Expr {
  const v = value(x, scope)
  if (list.length === 0) return num(member ? 0 : 1, true)
  const items = list.map((item) => {
    if (item.k === 'int' || item.k === 'real') {
      if (v.t === 'text') throw outside('IN mixing text and numbers')
      if (item.k === 'int' && item.digits !== undefined) return value(item, scope).e
      return num(item.v, item.k === 'int' && Math.abs(item.v) < INT32)
    }
    if (item.k === 'str' && item.v !== '') {
      if (v.t !== 'text') throw outside('IN mixing text and numbers')
      return str(item.v)
    }
    throw outside('IN with other than literals')
  })
  const right: Expr = items.length === 1 ? items[0] : { kind: 'List', items, loc: LOC }
  // N/A equals no literal: membership needs no guard, its negation does.
  return member ? bin('=', v.e, right) : and(bin('<>', v.e, right), notNull(v.e))
}
