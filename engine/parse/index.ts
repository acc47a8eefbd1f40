/**
 * Query text → operation pipeline: parseXml (lenient XML), expandBlocks (the macro pre-pass),
 * toOps (elements → Op). Each stage can be used and tested on its own.
 */
import type { Op } from '../ast.js'
import { expandBlocks } from '../blocks/index.js'
import { toOps } from './ops.js'
import { parseXml } from './xml.js'

export { parseXml, MAX_XML_DEPTH } from './xml.js'
export { toOps } from './ops.js'
export { tableRefs } from './table-refs.js'

/**
 * Parses a macro-language query into its operations.
 * @param vars dynamic variables, the outermost scope of `{@name}` substitution
 * @throws AppError PARSE_ERROR, CHECK_ERROR or EXPR_ERROR with `{ line, col }` in the detail
 */
export function parseQuery(text: string, vars: Readonly<Record<string, string>> = {}): Op[] {
  return toOps(expandBlocks(parseXml(text), vars))
}
