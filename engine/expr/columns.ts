/**
 * The column names an expression refers to, for the checker to resolve before any data is read.
 * Function names are not columns, so a call contributes only what its arguments name.
 */
import type { Expr } from '../ast.js'

/** Every Col and ColList name in `e`, once each, in order of first appearance (lower case). */
export function exprColumns(e: Expr): string[] {
  const seen = new Set<string>()
  collect(e, seen)
  return [...seen]
}

function collect(e: Expr, out: Set<string>): void {
  switch (e.kind) {
    case 'Col':
      out.add(e.name)
      return
    case 'ColList':
      for (const n of e.names) out.add(n)
      return
    case 'Call':
      for (const a of e.args) if (a) collect(a, out)
      return
    case 'Neg':
    case 'Not':
      collect(e.operand, out)
      return
    case 'Bin':
      collect(e.left, out)
      collect(e.right, out)
      return
    case 'List':
      for (const item of e.items) collect(item, out)
      return
    case 'Num':
    case 'Str':
    case 'Date':
    case 'Time':
    case 'Var':
      return
    default:
      return assertNever(e)
  }
}

function assertNever(x: never): never {
  throw new Error(`exprColumns: unexpected node ${JSON.stringify(x)}`)
}
