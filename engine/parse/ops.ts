/**
 * Expanded elements → the Op pipeline of engine/ast.ts, one builder per operation. Builders read
 * attributes leniently (unknown ones ignored, empty ones "not given") and parse expression
 * attributes with parseExpr.
 */
import type { Op, XmlElement } from '../ast.js'
import { buildBase, buildCol, buildColord, buildSort, buildWillbe } from './op-basic.js'
import { buildLink, buildMerge } from './op-link.js'
import type { NestedOps } from './op-link.js'
import { opError } from './op-errors.js'
import { buildCols } from './op-cols.js'
import { buildSel } from './op-sel.js'
import { buildTable } from './op-table.js'
import { buildTabu } from './op-tabu.js'

type Builder = (el: XmlElement, nested: NestedOps) => Op | null

const BUILDERS: Readonly<Record<string, Builder>> = {
  base: buildBase,
  table: buildTable,
  sel: buildSel,
  willbe: buildWillbe,
  colord: buildColord,
  col: buildCol,
  cols: buildCols,
  sort: buildSort,
  tabu: buildTabu,
  link: buildLink,
  merge: buildMerge,
  note: () => null,
}

/** Elements that only make sense inside another one: a better message than "unknown". */
const CHILD_ONLY: Readonly<Record<string, string>> = {
  tcol: '<tabu>',
  break: '<tabu>',
  rollup: '<tabu>',
  and: '<sel>',
  or: '<sel>',
}

/** Elements that are valid in the language but not data operations this engine runs. */
const NOT_OPERATIONS: Readonly<Record<string, string>> = {
  dynamic: 'belongs to a dynamic instance and is not a data operation',
  widget: 'belongs to a dynamic instance and is not a data operation',
  layout: 'belongs to a dynamic instance and is not a data operation',
  do: 'belongs to a dynamic instance and is not a data operation',
  directory:
    'is not supported: it lists a folder of the catalogue as a worksheet, and queries here read only tables; list a folder with the get_names_in_dir transaction of api/dbm ({"cmd": ["get_names_in_dir", {"path": "pub.demo"}]})',
}

const SUPPORTED = Object.keys(BUILDERS).join(', ')

/**
 * Builds the operations of a block-expanded element list, in order.
 * @throws AppError CHECK_ERROR for unknown elements and bad attributes, EXPR_ERROR for expressions
 */
export function toOps(elements: readonly XmlElement[]): Op[] {
  const ops: Op[] = []
  for (const el of elements) {
    const builder = Object.hasOwn(BUILDERS, el.name) ? BUILDERS[el.name] : undefined
    if (!builder) throw unknownElement(el)
    const op = builder(el, toOps)
    if (op) ops.push(op)
  }
  return ops
}

function unknownElement(el: XmlElement): Error {
  const parent = Object.hasOwn(CHILD_ONLY, el.name) ? CHILD_ONLY[el.name] : undefined
  if (parent) return opError(el, `<${el.name}> is only allowed inside ${parent}`)
  const why = Object.hasOwn(NOT_OPERATIONS, el.name) ? NOT_OPERATIONS[el.name] : undefined
  if (why) return opError(el, `<${el.name}> ${why}`)
  return opError(el, `unknown operation <${el.name}>; supported operations: ${SUPPORTED}`)
}
