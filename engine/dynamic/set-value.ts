/**
 * The value a `<set y="…"/>` inside an event `<do>` gives its variable. The reference leaves the
 * reading open (§7.5); the rules, in order:
 *
 * 1. A value that is one `{…}` as a whole (`{@x}`, `{@x+1}`, `{strupcase(@name)}`) is the
 *    result of that block expression, as text. `{@x}` therefore copies x exactly.
 * 2. Otherwise every `{…}` is substituted first (the block machinery: `{@x}` pastes the text of x),
 *    so `{@x}+1` becomes `3+1` when x is 3.
 * 3. A result that reads as a number (`007`, `2.50`, `1e3`) is kept exactly as written.
 * 4. A result that parses as a block expression without bare names is evaluated: `3+1` → `4`,
 *    `@x*2` → twice x, `'NY'` → `NY`, `if(@n>1;'many';'one')`.
 * 5. Anything else — bare words such as `NY` or `Hello Bob`, or text that is not an expression —
 *    is plain text, kept as it is after substitution.
 *
 * Unknown variables, division by zero and arithmetic on text are errors (CHECK_ERROR at the
 * `<set>`), not plain text: a typo must not silently become a value. A value such as
 * `2024-01-05` outside braces is arithmetic (rule 4); write `'2024-01-05'`, `@d` or `{@d}`.
 */
import type { Expr } from '../ast.js'
import { evalScalar, formatScalar } from '../blocks/index.js'
import type { VarLookup } from '../blocks/index.js'
import { isNumericText } from '../blocks/scalar-value.js'
import { relocate, substitute } from '../blocks/substitute.js'
import { parseExpr } from '../expr/index.js'
import { AppError } from '../../shared/errors.js'
import type { SetStatement } from './model.js'

/**
 * Evaluates one `<set>` attribute over `vars`.
 * @throws AppError CHECK_ERROR / EXPR_ERROR positioned at the `<set>`
 */
export function evalSetValue(set: SetStatement, vars: VarLookup): string {
  const where = { loc: set.loc, what: `<set ${set.name}>`, trail: null }
  const text = substitute(set.expr, vars, where)
  if (isOneBraceGroup(set.expr) || text.trim() === '' || isNumericText(text)) return text
  let tree: Expr
  try {
    tree = parseExpr(text, { vars: true })
  } catch (err) {
    if (err instanceof AppError && err.code === 'EXPR_ERROR') return text
    throw err
  }
  if (hasBareName(tree)) return text
  try {
    return formatScalar(evalScalar(tree, vars))
  } catch (err) {
    throw relocate(err, `'${text.length > 60 ? `${text.slice(0, 60)}…` : text}'`, where)
  }
}

/** Whether the whole text is one `{…}` (surrounding spaces allowed): its first `{` closes at its last `}`. */
function isOneBraceGroup(text: string): boolean {
  const s = text.trim()
  if (!s.startsWith('{') || !s.endsWith('}')) return false
  let depth = 0
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '{') depth++
    else if (s[i] === '}' && --depth === 0) return i === s.length - 1
  }
  return false
}

/** A column name (or list of names) in the tree: the text is words, not an expression. */
function hasBareName(e: Expr): boolean {
  switch (e.kind) {
    case 'Col':
    case 'ColList':
      return true
    case 'List':
      return e.items.some(hasBareName)
    case 'Call':
      return e.args.some((a) => a !== null && hasBareName(a))
    case 'Neg':
    case 'Not':
      return hasBareName(e.operand)
    case 'Bin':
      return hasBareName(e.left) || hasBareName(e.right)
    default:
      return false
  }
}
