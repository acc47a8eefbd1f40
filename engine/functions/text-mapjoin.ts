/**
 * The kernel behind r_mapstring(C;S;X;D): `$mapjoin(D; S1; X1; S2; X2; …)`, one pair per column
 * of C (check/row-map.ts builds them). Row by row, the X of every column whose S is true there
 * (non-zero, not N/A), joined with D in the order of the columns; '' when none is. An N/A X
 * stands as an empty element, so the elements keep their places in the list. D is a constant
 * or a text column (its row's value), none when omitted.
 */
import { textColumnFromStrings } from '../columns/index.js'
import { NA_BIGINT, NA_INT, type Column } from '../columns/types.js'
import { TextBudget } from './text-limits.js'
import { valueText } from './value-text.js'

/** Whether row `r` of a selection column is true. */
function isTrue(s: Column, r: number): boolean {
  if (s.type === 'text') return s.codes[r] !== 0
  if (s.type === 'bigint') return s.data[r] !== 0n && s.data[r] !== NA_BIGINT
  const v = s.data[r]
  return v !== 0 && v === v && !(s.type !== 'float' && v === NA_INT)
}

/** The selected X values of each row joined with D. */
export function mapJoin(delimiter: Column | null, pairs: readonly (readonly [Column, Column])[], rows: number): Column {
  const out: string[] = new Array(rows)
  const parts: string[] = []
  const budget = new TextBudget('r_mapstring', 'select fewer columns with C or S, or use a shorter delimiter')
  for (let r = 0; r < rows; r++) {
    parts.length = 0
    let length = 0
    for (const [s, x] of pairs) {
      if (!isTrue(s, r)) continue
      const v = valueText(x, r)
      parts.push(v)
      length += v.length
    }
    const d = delimiter === null ? '' : valueText(delimiter, r)
    budget.add(length + d.length * Math.max(0, parts.length - 1))
    out[r] = parts.join(d)
  }
  return textColumnFromStrings(out)
}
