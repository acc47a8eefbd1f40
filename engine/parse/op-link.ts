/**
 * `<link>` and `<merge>`: both read another table, and their child elements are that table's own
 * pipeline, applied before linking or appending.
 */
import type { LinkType, Op, XmlElement } from '../ast.js'
import { attr, boolAttr, nameList, normName, requiredAttr } from './attrs.js'
import { opError } from './op-errors.js'

/** Builds the operations of a nested pipeline. */
export type NestedOps = (elements: readonly XmlElement[]) => Op[]

const LINK_TYPES: readonly LinkType[] = ['exact', 'select', 'include', 'exclude', 'asof', 'expand']

/**
 * Parts of <link> whose meaning 1010data's documentation names but never states: refused with
 * what is missing rather than guessed, since a wrong guess would give wrong rows without a word.
 */
const SIDE_REFUSED =
  '<link type="side"> is not supported: 1010data\'s documentation lists the type without saying how rows are paired; link on key columns (or on a row number made with <willbe name="r" value="i_()"/> on both sides)'
const SHIFT_REFUSED = (shift: string): string =>
  `<link shift="${shift}"> is not supported: 1010data's documentation does not say which rows a shift pairs (only shift="0", the plain match, is accepted); to pair a row with a neighbour of its match, link on a key computed with <willbe> (such as i_() plus or minus the shift)`

/** `<link>`: col2 defaults to col, type to exact; side and shift≠0 are refused. */
export function buildLink(el: XmlElement, nested: NestedOps): Op {
  const table2 = normName(requiredAttr(el, 'table2'))
  const col = nameList(el, 'col') ?? []
  if (col.length === 0) throw opError(el, '<link> needs a col attribute', { attribute: 'col' })
  const col2 = nameList(el, 'col2') ?? col
  if (col2.length !== col.length)
    throw opError(el, `<link> pairs col (${col.length} column${col.length === 1 ? '' : 's'}) with col2 (${col2.length}): give as many of each`)
  const shift = attr(el, 'shift')?.trim()
  if (shift !== undefined && !/^[+-]?0+$/.test(shift)) throw opError(el, SHIFT_REFUSED(shift), { attribute: 'shift' })
  const suffix = normName(attr(el, 'suffix') ?? '')
  if (!/^[a-z0-9_]*$/.test(suffix)) throw opError(el, `<link suffix="${suffix}"> may only hold letters, digits and '_'`, { attribute: 'suffix' })
  return {
    kind: 'Link',
    table2,
    ops: nested(childElements(el)),
    col,
    col2,
    cols: nameList(el, 'cols') ?? null,
    suffix,
    type: linkType(el),
    label: attr(el, 'label') ?? '',
    loc: el.loc,
    ...(boolAttr(el, 'keepcols') === true ? { keepcols: true } : {}),
  }
}

/**
 * `<merge table2>`: the rows of table2 (after its own pipeline) appended. A bare `<merge/>` (seen in
 * 1010data users' queries after a link to a multi-part table, which it makes one worksheet) changes
 * nothing here, where every table is one worksheet already: no operation.
 */
export function buildMerge(el: XmlElement, nested: NestedOps): Op | null {
  if (attr(el, 'table2') === undefined && el.children.length === 0) return null
  return { kind: 'Merge', table2: normName(requiredAttr(el, 'table2')), ops: nested(childElements(el)), loc: el.loc }
}

function linkType(el: XmlElement): LinkType {
  const type = attr(el, 'type')?.trim().toLowerCase() ?? 'exact'
  if ((LINK_TYPES as readonly string[]).includes(type)) return type as LinkType
  if (type === 'side') throw opError(el, SIDE_REFUSED, { attribute: 'type' })
  throw opError(el, `<link type> must be ${LINK_TYPES.join(', ')}, not '${type}'`, { attribute: 'type' })
}

function childElements(el: XmlElement): XmlElement[] {
  return el.children.map((child) => {
    if (child.kind === 'Text') throw opError(el, `unexpected text inside <${el.name}>: expected operations on ${el.attrs.table2}`)
    return child
  })
}
