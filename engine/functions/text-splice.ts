/**
 * splice(L;D), row by row: the values of the list L joined with the delimiter D. The checker
 * (check/call-rewrites.ts) spreads L into one argument per item, so the kernel behind it,
 * `$splice(D;X1;X2;…)`, sees plain value arguments. Numbers read as valueText writes them.
 * A row where any item is N/A is N/A: the general rule for functions (no exception is
 * documented for splice), and it keeps a missing part from shifting the others, which would turn
 * a date taken apart and spliced back into a different, wrong number.
 */
import { textColumnFromStrings } from '../columns/index.js'
import type { Column } from '../columns/types.js'
import { TextBudget } from './text-limits.js'
import { valueText } from './value-text.js'

/** The items of each row joined with `delimiter`; N/A where any item is N/A. */
export function spliceRows(items: readonly Column[], delimiter: string, rows: number): Column {
  const out: string[] = new Array(rows)
  const parts: string[] = new Array(items.length)
  const budget = new TextBudget('splice', 'splice fewer or shorter values, or use a shorter delimiter')
  for (let r = 0; r < rows; r++) {
    let na = false
    let length = delimiter.length * (items.length - 1)
    for (let k = 0; k < items.length && !na; k++) {
      parts[k] = valueText(items[k], r)
      na = parts[k] === ''
      length += parts[k].length
    }
    if (na) {
      out[r] = ''
      continue
    }
    budget.add(length)
    out[r] = parts.join(delimiter)
  }
  return textColumnFromStrings(out)
}
