/**
 * Types an expression against a schema before any data is touched: every column and function
 * must exist, arities and argument kinds must fit, and the function's own rule decides the
 * result type. Returns the expression normalised for the interpreter (quoted dates beside date
 * operands become Date literals).
 */
import { literalType, type Expr } from '../ast.js'
import type { ColumnType } from '../../shared/table.js'
import { lookupFunction } from '../functions/index.js'
import type { ArgSpec, FunctionDef } from '../functions/types.js'
import { rewriteCall } from './call-rewrites.js'
import { asDateLiteral } from './date-literals.js'
import { exprCheckError } from './errors.js'
import { findCol, type Schema } from './schema.js'

export interface Typed {
  readonly expr: Expr
  readonly type: ColumnType
  /** True for juxtaposed constants ('NY' 'CA'), which only some arguments accept. */
  readonly list: boolean
}

const OPERATOR_FUNCTION: Record<string, string> = { Neg: 'neg', Not: 'not' }

/** The spec of argument i, following `repeatFrom` for variadic functions. */
export function argSpec(def: FunctionDef, i: number): ArgSpec | undefined {
  if (i < def.args.length) return def.args[i]
  if (def.repeatFrom === undefined) return undefined
  const span = def.args.length - def.repeatFrom
  return def.args[def.repeatFrom + ((i - def.repeatFrom) % span)]
}

function checkArity(def: FunctionDef, e: Expr & { kind: 'Call' }): void {
  const n = e.args.length
  // Optional arguments before a required one must still be written (empty): g_sum(;;x).
  const required = def.minArgs ?? def.args.reduce((last, a, i) => (a.optional ? last : i + 1), 0)
  const max = def.repeatFrom === undefined ? def.args.length : Infinity
  if (n < required || n > max) {
    const expected = max === Infinity ? `at least ${required}` : required === max ? `${max}` : `${required} to ${max}`
    throw exprCheckError(e.loc, `${e.name}() takes ${expected} argument${max === 1 ? '' : 's'}, got ${n}: ${def.doc}`, { function: e.name })
  }
}

const isConstant = (e: Expr): boolean =>
  e.kind === 'Num' || e.kind === 'Str' || e.kind === 'Date' || e.kind === 'Time' || e.kind === 'List' || (e.kind === 'Neg' && isConstant(e.operand))

function checkColumns(schema: Schema, names: readonly string[], e: Expr): void {
  for (const name of names) {
    if (!findCol(schema, name) && !schema.open) throw exprCheckError(e.loc, `Unknown column "${name}".`, { column: name })
  }
}

function typeArgument(schema: Schema, def: FunctionDef, spec: ArgSpec, arg: Expr | null, call: Expr & { kind: 'Call' }): Typed | null {
  if (arg === null) {
    if (!spec.optional) throw exprCheckError(call.loc, `${call.name}() needs its argument ${spec.name}: ${def.doc}`, { function: call.name })
    return null
  }
  if (spec.kind === 'group' || spec.kind === 'order') {
    if (arg.kind === 'Col') checkColumns(schema, [arg.name], arg)
    else if (arg.kind === 'ColList') checkColumns(schema, arg.names, arg)
    else throw exprCheckError(arg.loc, `${call.name}(): the argument ${spec.name} must name columns (such as "state city").`)
    return null
  }
  if (spec.constant && !isConstant(arg))
    throw exprCheckError(arg.loc, `${call.name}(): the argument ${spec.name} must be a constant, not a column or expression.`)
  const typed = typeExpr(arg, schema)
  if (typed.list && !spec.list) throw exprCheckError(arg.loc, `${call.name}(): the argument ${spec.name} cannot be a list of values.`)
  if (spec.kind === 'select' && typed.type === 'text')
    throw exprCheckError(arg.loc, `${call.name}(): the argument ${spec.name} must be a 0/1 column, not text.`)
  if (spec.types && !spec.types.includes(typed.type)) {
    // A whole number past 32 bits is a big integer: say that it is too large, not just its type.
    if (arg.kind === 'Num' && typed.type === 'bigint' && spec.types.includes('int'))
      throw exprCheckError(
        arg.loc,
        `${call.name}(): the argument ${spec.name} must be an int from -2147483647 to 2147483647, and ${arg.digits ?? arg.value} is past that range.`,
      )
    throw exprCheckError(arg.loc, `${call.name}(): the argument ${spec.name} must be ${spec.types.join(' or ')}, got ${typed.type}.`)
  }
  return typed
}

/**
 * Quoted dates become dates when another value argument is a date, or, for a comparison, any
 * whole number (a computed year(d)*10000+101, an int column of an inline table): 1010data keeps
 * dates as plain yyyymmdd ints, so the stored type cannot be what decides.
 */
function coerceDates(def: FunctionDef, args: readonly (Typed | null)[]): (Typed | null)[] {
  const datesHere = (t: ColumnType): boolean => t === 'date' || (def.comparesValues === true && t === 'int')
  if (!args.some((a) => a !== null && !a.list && datesHere(a.type))) return [...args]
  return args.map((a) => {
    if (a === null || a.type !== 'text') return a
    const expr = asDateLiteral(a.expr)
    return expr === a.expr ? a : { ...a, expr, type: 'date' }
  })
}

function typeCall(
  schema: Schema,
  name: string,
  args: readonly (Expr | null)[],
  e: Expr,
): { types: (ColumnType | null)[]; args: (Expr | null)[]; def: FunctionDef; call: Expr & { kind: 'Call' } } {
  const def = lookupFunction(name)
  const call = { kind: 'Call', name, args, loc: e.loc } as const
  if (!def) throw exprCheckError(e.loc, `Unknown function "${name}".`, { function: name })
  checkArity(def, call)
  const typed = coerceDates(
    def,
    args.map((a, i) => typeArgument(schema, def, argSpec(def, i)!, a, call)),
  )
  return { def, call, types: typed.map((t) => t?.type ?? null), args: args.map((a, i) => typed[i]?.expr ?? a) }
}

function resultOf(def: FunctionDef, types: (ColumnType | null)[], e: Expr, what: string): ColumnType {
  const r = def.result(types)
  if (typeof r === 'object') throw exprCheckError(e.loc, `${what}: ${r.error}`)
  return r
}

export function typeExpr(e: Expr, schema: Schema): Typed {
  switch (e.kind) {
    case 'Num':
      return { expr: e, type: literalType(e), list: false }
    case 'Str':
      return { expr: e, type: 'text', list: false }
    case 'Date':
      return { expr: e, type: 'date', list: false }
    case 'Time':
      return { expr: e, type: 'int', list: false }
    case 'List': {
      const notConstant = e.items.find((i) => !isConstant(i))
      if (notConstant)
        throw exprCheckError(
          notConstant.loc,
          "Only constants can stand side by side as a list (such as 'NY' 'CA'), except in the L of splice(L;D); put an operator or a ';' between these values.",
        )
      const types = new Set(e.items.map((i) => typeExpr(i, schema).type))
      if (types.has('text') && types.size > 1) throw exprCheckError(e.loc, 'A list cannot mix text and numbers.')
      const type = types.has('text')
        ? 'text'
        : types.has('float')
          ? 'float'
          : types.has('bigint')
            ? 'bigint'
            : types.has('date') && types.size === 1
              ? 'date'
              : 'int'
      return { expr: e, type, list: true }
    }
    case 'Col': {
      const col = findCol(schema, e.name)
      if (!col) {
        if (schema.open) return { expr: e, type: 'float', list: false }
        throw exprCheckError(e.loc, `Unknown column "${e.name}".`, { column: e.name })
      }
      return { expr: e, type: col.type, list: false }
    }
    case 'ColList':
      throw exprCheckError(e.loc, `A list of columns (${e.names.join(' ')}) is only allowed as a G or O argument of a group function.`)
    case 'Var':
      throw exprCheckError(e.loc, `@${e.name} is a block variable: write {@${e.name}} to substitute its value.`)
    case 'Call': {
      const rewritten = rewriteCall(e, schema)
      if (rewritten !== e) return typeExpr(rewritten, schema)
      const t = typeCall(schema, e.name, e.args, e)
      return { expr: { ...e, args: t.args }, type: resultOf(t.def, t.types, e, `${e.name}()`), list: false }
    }
    case 'Neg':
    case 'Not': {
      const t = typeCall(schema, OPERATOR_FUNCTION[e.kind], [e.operand], e)
      return { expr: { ...e, operand: t.args[0]! }, type: resultOf(t.def, t.types, e, e.kind === 'Neg' ? 'Unary minus' : '~'), list: false }
    }
    case 'Bin': {
      const t = typeCall(schema, e.op, [e.left, e.right], e)
      // A wide operator computes its int operands as big integers (expr/widening.ts).
      const types = e.wide ? t.types.map((x) => (x === 'int' || x === 'date' ? 'bigint' : x)) : t.types
      return { expr: { ...e, left: t.args[0]!, right: t.args[1]! }, type: resultOf(t.def, types, e, `The operator ${e.op}`), list: false }
    }
  }
}
