/**
 * Integers widen instead of overflowing, optimistically. An int `+ - *` runs on 32-bit ints (the
 * fast, common case); when one of its results leaves the 32-bit range the run ends in a fallback
 * naming the operator's key (engine/task/outcome.ts), the operator is marked wide in the query's
 * operations, and the query is checked and run again: a wide operator computes in big integers,
 * and the checker types it (and all that depends on it) as such, so types stay true within every
 * run. The gateway remembers the marks per query text, so later runs of the same query start wide.
 */
import type { Expr, Loc } from '../ast.js'

/**
 * A binary operator's key: its position and symbol. Operators of one chain (`a+b+c`) share a
 * position; marking both wide is harmless (big integers are exact), only wider than needed.
 */
export const wideningKey = (loc: Loc, op: string): string => `${loc.line}:${loc.col}:${op}`

/**
 * A copy of `tree` (operations or expressions, plain data) in which the `+ - *` operators with
 * one of `keys` are wide. Untouched subtrees are shared, not copied.
 */
export function markWide<T>(tree: T, keys: ReadonlySet<string>): T {
  if (keys.size === 0) return tree
  const visit = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      const out = v.map(visit)
      return out.some((x, i) => x !== v[i]) ? out : v
    }
    if (v === null || typeof v !== 'object') return v
    const o = v as Record<string, unknown>
    let copy: Record<string, unknown> | null = null
    for (const [k, x] of Object.entries(o)) {
      const y = visit(x)
      if (y !== x) (copy ??= { ...o })[k] = y
    }
    const node = (copy ?? o) as Expr
    if (node.kind === 'Bin' && '+-*'.includes(node.op) && keys.has(wideningKey(node.loc, node.op)) && !node.wide) return { ...node, wide: true }
    return node
  }
  return visit(tree) as T
}
