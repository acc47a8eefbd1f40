/**
 * Selections that keep the first N rows and nothing else (`i_()<=N`, `i_()<N`, or written the
 * other way round). A sort followed by one needs only those rows in order, which costs a pass
 * over the keys and a sort of a few candidates instead of a sort of every row (a top-N,
 * columns/radix.ts). The selection still runs after it and keeps all of them.
 */
import type { Expr } from '../ast.js'
import type { CheckedOp } from '../check/index.js'

const isRowNumber = (e: Expr): boolean => e.kind === 'Call' && e.name === 'i_' && e.args.length === 0

/** N when `op` keeps exactly the worksheet's first N rows, else null. */
export function firstRowsKept(op: CheckedOp | undefined): number | null {
  if (op?.kind !== 'Sel' || op.cond.kind !== 'Bin') return null
  const { op: cmp, left, right } = op.cond
  // `N >= i_()` reads as `i_() <= N`.
  const flipped: Record<string, string> = { '>=': '<=', '>': '<' }
  const [rel, bound] = isRowNumber(left) ? [cmp, right] : isRowNumber(right) ? [flipped[cmp], left] : [undefined, undefined]
  if (bound?.kind !== 'Num') return null
  // Row numbers are 1, 2, …: `<= 10.5` keeps 10 rows, `< 10` keeps 9, `< 10.5` keeps 10.
  if (rel === '<=') return Math.max(Math.floor(bound.value), 0)
  if (rel === '<') return Math.max(Math.ceil(bound.value) - 1, 0)
  return null
}
