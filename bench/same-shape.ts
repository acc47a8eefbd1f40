/**
 * The same-shape variants (SAME_SHAPE in queries.ts) checked against the answer of the all-rows
 * query they ask again: a `cols` answer must hold the very columns of the all-rows answer (same
 * count of values, same sum, same order of the sort keys), a `sum` answer one row whose values
 * are those columns' sums. With every target's answer also checked against the reference, this
 * is what makes sure neither side skips work: a side that returned a lazy or pruned column would
 * give other sums here.
 */
import { close, type Digest } from './digest.js'
import type { SameShapeQuery } from './queries.js'

/** Differences between a variant's digest and the all-rows digest, as readable lines; empty when they agree. */
export function compareWithAllRows(q: SameShapeQuery, variant: Digest, allRows: Digest): string[] {
  const out: string[] = []
  const expectedRows = q.shape === 'cols' ? allRows.rows : 1
  if (variant.rows !== expectedRows)
    out.push(`rows ${variant.rows}, expected ${expectedRows} (${q.shape === 'cols' ? 'as many as the all-rows answer' : 'one row of sums'})`)
  if (variant.columns.length !== q.parentColumns.length) out.push(`${variant.columns.length} columns, expected ${q.parentColumns.length}`)
  q.parentColumns.forEach((name, i) => {
    const v = variant.columns[i]
    const p = allRows.columns.find((c) => c.name === name)
    if (!v) return
    if (!p) {
      out.push(`the all-rows answer has no column ${name}`)
      return
    }
    if (q.shape === 'cols') {
      if (v.name !== name) out.push(`column ${i + 1} is ${v.name}, expected ${name}`)
      if (v.nonNull !== p.nonNull) out.push(`${name}: ${v.nonNull} non-N/A values, the all-rows answer has ${p.nonNull}`)
      if (!close(v.sum, p.sum)) out.push(`${name}: sum ${v.sum}, the all-rows answer has ${p.sum}`)
    } else if (!close(v.sum, p.sum)) {
      out.push(`${v.name}: ${v.sum}, the sum of ${name} in the all-rows answer is ${p.sum}`)
    }
  })
  if (q.shape === 'cols') {
    variant.ordered.forEach((s, i) => {
      if (!close(s, allRows.ordered[i]))
        out.push(`order key #${i + 1}: weighted sum ${s}, the all-rows answer has ${allRows.ordered[i]} (rows in another order)`)
    })
  }
  return out
}
