/** The stored tables a pipeline reads, so the caller can load (and authorise) them first. */
import type { Op } from '../ast.js'

/** Every table path read by `ops` (base, link, merge, nested pipelines included), in order, once each. */
export function tableRefs(ops: readonly Op[]): string[] {
  const seen = new Set<string>()
  const visit = (list: readonly Op[]): void => {
    for (const op of list) {
      if (op.kind === 'Base') seen.add(op.table)
      else if (op.kind === 'Link' || op.kind === 'Merge') {
        seen.add(op.table2)
        visit(op.ops)
      }
    }
  }
  visit(ops)
  return [...seen]
}
