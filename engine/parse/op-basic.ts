/** The one-element operations: base, willbe, colord, col, sort. */
import type { Op, SortKey, XmlElement } from '../ast.js'
import { attr, boolAttr, choiceAttr, metaPatch, nameList, newColumnName, normName, requiredAttr } from './attrs.js'
import { requiredExpr } from './expr-attr.js'
import { opError } from './op-errors.js'

/** `<base table>`: the stored table the pipeline starts from. */
export function buildBase(el: XmlElement): Op {
  return { kind: 'Base', table: normName(requiredAttr(el, 'table')), loc: el.loc }
}

/** `<willbe>`: a computed column; name and value are required. */
export function buildWillbe(el: XmlElement): Op {
  const name = newColumnName(el, 'name', requiredAttr(el, 'name'))
  return { kind: 'Willbe', name, value: requiredExpr(el, 'value'), meta: metaPatch(el), loc: el.loc }
}

/** `cols` absent = every column; wildcards (`c*`) are kept as written for the checker to match. */
export function buildColord(el: XmlElement): Op {
  return { kind: 'Colord', cols: nameList(el, 'cols') ?? null, hide: nameList(el, 'hide') ?? [], hard: boolAttr(el, 'hard') ?? false, loc: el.loc }
}

/** `<col>`: metadata of one column (never a rename). */
export function buildCol(el: XmlElement): Op {
  return { kind: 'ColMeta', name: normName(requiredAttr(el, 'name')), meta: metaPatch(el), loc: el.loc }
}

/** `col` + `dir`, or `cols` (a list, every key in the `dir` direction); dir defaults to up. */
export function buildSort(el: XmlElement): Op {
  const col = attr(el, 'col')
  const cols = nameList(el, 'cols')
  if (col !== undefined && cols !== undefined) throw opError(el, '<sort> takes either col or cols, not both')
  const names = col !== undefined ? [normName(col)] : cols
  if (!names || names.length === 0) throw opError(el, '<sort> needs a col attribute (or cols)', { attribute: 'col' })
  const dir = choiceAttr(el, 'dir', ['up', 'down'] as const, 'up')
  const keys: SortKey[] = names.map((c) => ({ col: c, dir }))
  return { kind: 'Sort', keys, loc: el.loc }
}
