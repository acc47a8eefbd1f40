/**
 * A canonical text form of an expression: every operator application fully parenthesised in
 * prefix form, so tests can state a tree in one line and error messages can show how an
 * expression was understood. `~x=1 & y` shows as `(~ (& (= x 1) y))`.
 */
import type { Expr } from '../ast.js'

/**
 * Formats `e` canonically: `(op left right)`, `(- x)`, `(~ x)`, lists `['NY' 'CA']`, column
 * lists `[state city]`, calls `g_sum(g, _, x)` with `_` for an omitted argument, dates
 * `2003-03-15`, times `13:45:00`, decimals always with a point (`1.0`), variables `@name`.
 */
export function showExpr(e: Expr): string {
  switch (e.kind) {
    case 'Num':
      if (e.digits !== undefined) return e.digits
      return e.int || !Number.isInteger(e.value) ? String(e.value) : e.value.toFixed(1)
    case 'Str':
      return `'${e.value.replaceAll("'", "''")}'`
    case 'Date':
      return `${pad(Math.floor(e.value / 10000), 4)}-${pad(Math.floor(e.value / 100) % 100, 2)}-${pad(e.value % 100, 2)}`
    case 'Time':
      return `${pad(Math.floor(e.value / 10000), 2)}:${pad(Math.floor(e.value / 100) % 100, 2)}:${pad(e.value % 100, 2)}`
    case 'List':
      return `[${e.items.map(showExpr).join(' ')}]`
    case 'Col':
      return e.name
    case 'ColList':
      return `[${e.names.join(' ')}]`
    case 'Call':
      return `${e.name}(${e.args.map((a) => (a ? showExpr(a) : '_')).join(', ')})`
    case 'Neg':
      return `(- ${showExpr(e.operand)})`
    case 'Not':
      return `(~ ${showExpr(e.operand)})`
    case 'Bin':
      return `(${e.op} ${showExpr(e.left)} ${showExpr(e.right)})`
    case 'Var':
      return `@${e.name}`
    default:
      return assertNever(e)
  }
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0')

function assertNever(x: never): never {
  throw new Error(`showExpr: unexpected node ${JSON.stringify(x)}`)
}
