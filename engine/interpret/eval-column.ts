/**
 * An expression evaluated to a whole column, as willbes and summaries read their values: once per
 * dictionary entry where it reads one text column (per-entry.ts), else row by row (eval.ts).
 * Apart from eval.ts so that per-entry.ts, which evaluates through eval.ts, is not imported by it.
 */
import type { Expr } from '../ast.js'
import type { Column } from '../columns/types.js'
import { asColumn, evalExpr, unchecked } from './eval.js'
import { columnPerEntry } from './per-entry.js'
import type { Worksheet } from './worksheet.js'

/** Evaluates to a full column (a constant is repeated on every row). */
export function evalColumn(e: Expr, ws: Worksheet): Column {
  const perEntry = columnPerEntry(e, ws)
  if (perEntry !== null) return perEntry
  const col = asColumn(evalExpr(e, ws), ws.rows)
  if (col === null) throw unchecked('a list of values where a column belongs')
  return col
}
