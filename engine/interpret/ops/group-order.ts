/**
 * Ordering of tabulation groups. Groups come in order of first appearance; `<break sort=…>`
 * sorts by that break (the first break in `breaks` is the most significant), with N/A first
 * unless `naorder="last"`.
 */
import type { BreakSpec } from '../../ast.js'
import { sortPermutation, type SortKey } from '../../columns/index.js'
import { NA_BIGINT, NA_INT, type Column } from '../../columns/types.js'

function naFlags(col: Column): Column {
  const n = col.type === 'text' ? col.codes.length : col.data.length
  const out = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    out[i] =
      col.type === 'text'
        ? col.codes[i] === 0
          ? 1
          : 0
        : col.type === 'float'
          ? col.data[i] !== col.data[i]
            ? 1
            : 0
          : col.type === 'bigint'
            ? col.data[i] === NA_BIGINT
              ? 1
              : 0
            : col.data[i] === NA_INT
              ? 1
              : 0
  }
  return { type: 'int', data: out }
}

/**
 * A permutation of groups, or null when no break asks for sorting.
 * @param values one column per break, one row per group (the group's break values)
 */
export function groupOrder(
  breaks: readonly string[],
  values: readonly Column[],
  specs: readonly BreakSpec[],
  count: number,
  defaultSort: 'up' | 'none' = 'none',
): Int32Array | null {
  const keys = groupOrderKeys(breaks, values, specs, defaultSort)
  return keys.length === 0 ? null : sortPermutation(keys, count)
}

/**
 * The sort keys of groupOrder (none when no break asks for sorting): also the last keys of a sort
 * that reads the groups right after the tabulation (tabu.ts tabulateForSorts), which then need
 * not be put in this order first.
 */
export function groupOrderKeys(
  breaks: readonly string[],
  values: readonly Column[],
  specs: readonly BreakSpec[],
  defaultSort: 'up' | 'none' = 'none',
): SortKey[] {
  const keys: SortKey[] = []
  breaks.forEach((b, i) => {
    const spec = specs.find((s) => s.col === b)
    const sort = spec?.sort ?? defaultSort
    if (sort === 'none') return
    const desc = sort === 'down'
    const naLast = (spec?.naorder ?? 'first') === 'last'
    // N/A is the smallest value; an extra key moves it where naorder wants it.
    if (naLast !== desc) keys.push({ col: naFlags(values[i]), desc: !naLast })
    keys.push({ col: values[i], desc })
  })
  return keys
}
