/**
 * Evaluates a checked expression over a worksheet, whole columns at a time. Constants stay
 * scalars (kernels take them as they are); G arguments become group indexes, S arguments masks
 * and O arguments row orders, computed here once so that kernels only compute.
 *
 * The expression comes from a checked operation (check/checked.ts): its functions exist, its
 * arities fit, and it holds no block variable, no column list outside a G or O argument and no
 * list of values where a column belongs. What the checker could not know is the columns past a
 * cross-tabulation, so a missing column is still told here.
 */
import { AppError, toPayload } from '../../shared/errors.js'
import { literalType, type Expr } from '../ast.js'
import { groupBy, scalarToColumn, sortPermutation, toBigint, toFloat } from '../columns/index.js'
import { truthy } from '../functions/logic.js'
import { NA_BIGINT, NA_INT, type Column, type IntColumn, type Scalar, type Value } from '../columns/types.js'
import { lookupFunction } from '../functions/index.js'
import type { KernelArg } from '../functions/types.js'
import { argSpec } from '../check/expr-types.js'
import { checkError } from '../check/errors.js'
import type { Worksheet } from './worksheet.js'
import { arithmetic } from '../functions/arith.js'
import { isColumn } from '../functions/args.js'
import { wideningKey } from '../expr/widening.js'
import { FallbackError } from '../task/outcome.js'

const OPERATOR_FUNCTION = { Neg: 'neg', Not: 'not' } as const

function columnOf(ws: Worksheet, name: string): Column {
  const col = ws.column(name)
  // Only past a cross-tabulation, whose columns depend on the data (check/schema.ts, `open`).
  if (!col) throw checkError(undefined, `Unknown column "${name}".`, { column: name })
  return col.data()
}

/** What the checker refuses reached the interpreter: a bug in the engine, not in the query. */
export const unchecked = (what: string): AppError => new AppError('INTERNAL', `The checker should have refused ${what}.`)

function namesOf(e: Expr): string[] | null {
  if (e.kind === 'Col') return [e.name]
  if (e.kind === 'ColList') return [...e.names]
  return null
}

const kindOf = (v: Value): string | undefined => (v as { kind?: string }).kind

/** A value as a full column: a constant is repeated on every row; null for a list. */
export function asColumn(v: Value, rows: number): Column | null {
  const kind = kindOf(v)
  if (kind === 'list') return null
  return kind === 'scalar' ? scalarToColumn(v as Scalar, rows) : (v as Column)
}

/** A 0/1 mask from a selection value: non-zero is 1, N/A is 0. */
export function toMask(v: Value, rows: number): Uint8Array {
  const col = asColumn(v, rows)
  const mask = new Uint8Array(rows)
  // The checker refuses text here, except on the columns a cross-tabulation makes from the data,
  // which it cannot know; an empty selection would be a wrong answer without an error.
  if (col?.type === 'text') throw new AppError('CHECK_ERROR', 'A selection must be a 0/1 expression, such as a comparison; this one gives text.')
  if (!col) return mask
  if (col.type === 'bigint') {
    const held = truthy(col, rows)
    for (let i = 0; i < rows; i++) mask[i] = held[i]
    return mask
  }
  const d = col.data
  if (col.type === 'float') for (let i = 0; i < rows; i++) mask[i] = d[i] !== 0 && d[i] === d[i] ? 1 : 0
  else for (let i = 0; i < rows; i++) mask[i] = d[i] !== 0 && d[i] !== NA_INT ? 1 : 0
  return mask
}

/**
 * A g_ function's S as a 0/1 mask. 1010data documents S as 0 or 1 on every row and any other
 * value as an error, so a 2, a -1, a 0.5 or an N/A is refused, naming the value, rather than
 * counted as selected (or not). (Not the row: a part of a query split over workers sees a range of
 * rows, and the message must be the same however the query ran.)
 */
export function selectionMask(v: Value, rows: number, fn: string): Uint8Array {
  const col = asColumn(v, rows)
  if (col === null || col.type === 'text')
    throw new AppError(
      'CHECK_ERROR',
      `${fn}(): the argument S must be 0 or 1 on every row, such as a comparison; this one gives ${col === null ? 'a list' : 'text'}.`,
    )
  const mask = new Uint8Array(rows)
  // A big integer is 0 or 1 exactly when its nearest float64 is: only the shown value may round.
  const d = col.type === 'bigint' ? toFloat(col).data : col.data
  const na = col.type === 'float' || col.type === 'bigint' ? Number.NaN : NA_INT
  for (let i = 0; i < rows; i++) {
    const x = d[i]
    if (x === 1) mask[i] = 1
    else if (x !== 0) {
      const shown = x === na || x !== x ? 'N/A' : String(x)
      throw new AppError(
        'CHECK_ERROR',
        `${fn}(): the argument S must be 0 or 1 on every row, but it is ${shown} on some; give a comparison (such as amount>0) or a column of 0s and 1s.`,
      )
    }
  }
  return mask
}

function hasNa(c: Column, rows: number): boolean {
  if (c.type === 'text') {
    for (let i = 0; i < rows; i++) if (c.codes[i] === 0) return true
  } else if (c.type === 'float') {
    for (let i = 0; i < rows; i++) if (c.data[i] !== c.data[i]) return true
  } else if (c.type === 'bigint') {
    for (let i = 0; i < rows; i++) if (c.data[i] === NA_BIGINT) return true
  } else for (let i = 0; i < rows; i++) if (c.data[i] === NA_INT) return true
  return false
}

function prepareArg(kind: string, arg: Expr | null, ws: Worksheet, fn: string): KernelArg {
  if (arg === null) return { kind: 'omitted' }
  switch (kind) {
    case 'group': {
      const cols = (namesOf(arg) ?? []).map((n) => columnOf(ws, n))
      return { kind: 'group', groups: groupBy(cols, ws.rows, null) }
    }
    case 'order': {
      const names = namesOf(arg) ?? []
      const keys = names.map((n) => ({ col: columnOf(ws, n), desc: false }))
      // 1010data refuses N/A in an ordering column, except g_splice's (which orders N/A first).
      if (fn !== 'g_splice') {
        const at = keys.findIndex((k) => hasNa(k.col, ws.rows))
        if (at >= 0)
          throw new AppError(
            'CHECK_ERROR',
            `${fn}(): the ordering column ${names[at]} (argument O) is N/A on some rows, and O must have a value on every row; select those rows away first, or order by another column.`,
          )
      }
      return { kind: 'order', order: sortPermutation(keys, ws.rows) }
    }
    case 'select':
      return { kind: 'select', mask: selectionMask(evalExpr(arg, ws), ws.rows, fn) }
    default:
      return { kind: 'value', value: evalExpr(arg, ws) }
  }
}

function call(name: string, args: readonly (Expr | null)[], ws: Worksheet): Column {
  // The checker found the function and fitted its arity, so every argument has its spec.
  const def = lookupFunction(name)!
  const prepared = args.map((a, i) => prepareArg(argSpec(def, i)!.kind, a, ws, name))
  return def.kernel(prepared, { rows: ws.rows })
}

type BinExpr = Expr & { kind: 'Bin' }

/** An operator; an int overflow of + - * is a fallback naming the operator, so that the query can run again with it wide. */
function binary(e: BinExpr, ws: Worksheet): Value {
  try {
    return call(e.op, [e.left, e.right], ws)
  } catch (err) {
    if (err instanceof AppError && err.detail.intOverflow === true && (e.op === '+' || e.op === '-' || e.op === '*')) {
      throw new FallbackError({ kind: 'widen', operator: wideningKey(e.loc, e.op), overflow: toPayload(err) })
    }
    throw err
  }
}

/** A wide + - *: int operands as big integers. */
function wideArithmetic(e: BinExpr, ws: Worksheet): Value {
  const operands = [evalExpr(e.left, ws), evalExpr(e.right, ws)].map(asBigint)
  return arithmetic(e.op as '+' | '-' | '*', operands[0], operands[1], ws.rows)
}

function asBigint(v: Value): Value {
  if (v.type !== 'int' && v.type !== 'date') return v
  if (isColumn(v)) return toBigint(v as IntColumn)
  if (v.kind === 'scalar') return { kind: 'scalar', type: 'bigint', value: v.value === NA_INT ? NA_BIGINT : BigInt(v.value) }
  return v
}

/** A list member as a number: an int's N/A (−2^31) and a big integer's as NaN, a big integer exactly. */
function listNumber(i: { type: string; value: number | bigint | string }): number | bigint {
  if (typeof i.value === 'bigint') return i.value === NA_BIGINT ? Number.NaN : i.value
  if ((i.type === 'int' || i.type === 'date') && i.value === NA_INT) return Number.NaN
  return i.value as number
}

export function evalExpr(e: Expr, ws: Worksheet): Value {
  switch (e.kind) {
    case 'Num': {
      const type = literalType(e)
      if (type === 'bigint') return { kind: 'scalar', type, value: BigInt(e.digits ?? e.value) }
      return { kind: 'scalar', type, value: e.value }
    }
    case 'Str':
      return { kind: 'scalar', type: 'text', value: e.value }
    case 'Date':
      return { kind: 'scalar', type: 'date', value: e.value }
    case 'Time':
      return { kind: 'scalar', type: 'int', value: e.value }
    case 'List': {
      const items = e.items.map((i) => evalExpr(i, ws)) as { kind: 'scalar'; type: string; value: number | bigint | string }[]
      const text = items.some((i) => i.type === 'text')
      const type = text
        ? 'text'
        : items.some((i) => i.type === 'float')
          ? 'float'
          : items.some((i) => i.type === 'bigint')
            ? 'bigint'
            : items.every((i) => i.type === 'date')
              ? 'date'
              : 'int'
      // Every member keeps its exact value (a big integer beside decimals too); N/A is NaN.
      const values = text ? items.map((i) => i.value) : items.map(listNumber)
      return { kind: 'list', type, values } as Value
    }
    case 'Col':
      return columnOf(ws, e.name)
    case 'ColList':
      throw unchecked('a list of columns outside a G or O argument')
    case 'Var':
      throw unchecked(`the block variable @${e.name}`)
    case 'Call':
      return call(e.name, e.args, ws)
    case 'Neg':
    case 'Not':
      return call(OPERATOR_FUNCTION[e.kind], [e.operand], ws)
    case 'Bin':
      return e.wide ? wideArithmetic(e, ws) : binary(e, ws)
  }
}
