/**
 * Whether an expression is row-wise: its value on a row depends on that row's values alone, so
 * it may be evaluated on any subset of the rows (a part of a split run, the candidates a
 * selection has left, the rows of a smaller linked table) with the same answer on each row.
 * The functions that qualify are the registry's (isRowWise), an allow-list: a new function is
 * not row-wise until its family is listed there.
 */
import type { Expr } from '../ast.js'
import { isRowWise } from './registry.js'

/** True when `e` (null: an omitted argument) is row-wise; adds the columns it reads to `names`. */
export function rowWiseExpr(e: Expr | null, names: Set<string> = new Set()): boolean {
  if (e === null) return true
  switch (e.kind) {
    case 'Num':
    case 'Str':
    case 'Date':
    case 'Time':
      return true
    case 'List':
      return e.items.every((i) => rowWiseExpr(i, names))
    case 'Col':
      names.add(e.name)
      return true
    case 'ColList':
    case 'Var':
      return false
    case 'Neg':
      return isRowWise('neg') && rowWiseExpr(e.operand, names)
    case 'Not':
      return isRowWise('not') && rowWiseExpr(e.operand, names)
    case 'Bin':
      return isRowWise(e.op) && rowWiseExpr(e.left, names) && rowWiseExpr(e.right, names)
    case 'Call':
      return isRowWise(e.name) && e.args.every((a) => rowWiseExpr(a, names))
  }
}
