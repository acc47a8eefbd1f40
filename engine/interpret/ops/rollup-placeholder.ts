/**
 * `<break placeholder="…">`: the constant a rollup shows in a break column where that break is
 * rolled up, instead of N/A. It must be a literal of the break's own type ('ALL' in single quotes
 * for text), so that the column keeps one type; the checker and the interpreter both ask here.
 */
import type { BreakSpec, Expr } from '../../ast.js'
import { checkError } from '../../check/errors.js'
import { NA_INT, type ColumnType } from '../../columns/types.js'

const INT_MIN = -(2 ** 31)
const INT_MAX = 2 ** 31 - 1

/** A number literal, negated or not; null for anything else. */
function numberOf(e: Expr): { value: number; int: boolean } | null {
  if (e.kind === 'Num') return { value: e.value, int: e.int }
  if (e.kind === 'Neg' && e.operand.kind === 'Num') return { value: -e.operand.value, int: e.operand.int }
  return null
}

const EXAMPLE: Record<ColumnType, string> = { text: `'ALL'`, int: '-1', bigint: '-1', float: '-1', date: '1/1/2000' }

/** The placeholder's value for a break column of `type`; CHECK_ERROR when it is not such a constant. */
export function placeholderValue(spec: BreakSpec & { placeholder: Expr }, type: ColumnType): number | string {
  const e = spec.placeholder
  const wrong = () =>
    checkError(spec.loc, `<break col="${spec.col}" placeholder> must be a ${type} constant, the type of the break column, e.g. placeholder="${EXAMPLE[type]}".`)
  if (type === 'text') {
    if (e.kind !== 'Str') throw wrong()
    return e.value
  }
  if (type === 'date') {
    if (e.kind !== 'Date') throw wrong()
    return e.value
  }
  const n = numberOf(e)
  if (n === null) throw wrong()
  // The int N/A is -2^31 itself: a placeholder there would read back as N/A. (A whole number past
  // 32 bits is a big integer literal, so the range is asked before the kind of literal.)
  if (type === 'int' && Number.isInteger(n.value) && (n.value < INT_MIN || n.value > INT_MAX || n.value === NA_INT))
    throw checkError(spec.loc, `<break col="${spec.col}" placeholder="${n.value}"> is outside the int range (-2147483647 to 2147483647).`)
  if ((type === 'int' || type === 'bigint') && !n.int) throw wrong()
  return n.value
}
