/**
 * Calls the checker rewrites into others before typing them, so that the interpreter, the
 * parallel path and everything after the checker only ever meet ordinary calls:
 * - splice(L;D) → $splice(D;X1;X2;…): L is a list of columns (`name state`), of constants or a
 *   single expression, spread into one value argument per item (text-splice.ts).
 * - t_f(…) → g_f(…) with G, S and O omitted: 1010data's t_ functions are the g_ functions over
 *   the table's own grouping, with no selection; our tables carry no grouping of their own, so
 *   that is one group (the reference's recommendation), in worksheet order.
 * - r_mapstring(C;S;X;D) → $mapjoin(D;S1;X1;…), one S and X per column (row-map.ts).
 * - r_mappkg / r_mapjson are refused by name: they build packages, which this engine has not.
 */
import type { Expr } from '../ast.js'
import { lookupFunction } from '../functions/index.js'
import type { FunctionDef } from '../functions/types.js'
import { exprCheckError } from './errors.js'
import { rowMapCall } from './row-map.js'
import type { Schema } from './schema.js'

type Call = Expr & { kind: 'Call' }

const UNSUPPORTED: Readonly<Record<string, string>> = {
  r_mappkg: 'r_mappkg() builds a package (a key-value map per row), and packages are not supported here; r_mapstring(C;S;X;D) builds the same values as text.',
  r_mapjson: 'r_mapjson() builds the JSON of a package, and packages are not supported here; r_mapstring(C;S;X;D) builds the values as delimited text.',
}

function spliceCall(e: Call): Call {
  if (e.args.length !== 2)
    throw exprCheckError(e.loc, `splice() takes 2 arguments (L;D), got ${e.args.length}: splice(name state;', ') joins name and state with ', '.`)
  const [list, delimiter] = e.args
  if (list === null) throw exprCheckError(e.loc, "splice() needs its argument L, the values to join: splice(name state;', ').")
  const items: Expr[] =
    list.kind === 'ColList' ? list.names.map((name) => ({ kind: 'Col', name, loc: list.loc })) : list.kind === 'List' ? [...list.items] : [list]
  return { kind: 'Call', name: '$splice', args: [delimiter, ...items], loc: e.loc }
}

/** `t_rank(X)` from g_rank(G;S;O;X): the signature left once G, S and O are gone. */
const tSignature = (name: string, g: FunctionDef): string =>
  `${name}(${g.args
    .filter((a) => a.kind === 'value')
    .map((a) => a.name)
    .join(';')})`

function tCall(e: Call, g: FunctionDef): Call {
  const valueSpecs = g.args.filter((a) => a.kind === 'value')
  const required = valueSpecs.filter((a) => !a.optional).length
  if (e.args.length < required || e.args.length > valueSpecs.length)
    throw exprCheckError(
      e.loc,
      `${e.name}() takes the arguments ${tSignature(e.name, g)} (those of g_${e.name.slice(2)} without G, S and O), got ${e.args.length}.`,
      {
        function: e.name,
      },
    )
  let next = 0
  const args = g.args.map((a) => (a.kind === 'value' ? (e.args[next++] ?? null) : null))
  return { kind: 'Call', name: g.name, args, loc: e.loc }
}

/** The call to type in place of `e` (`e` itself when it is not rewritten). */
export function rewriteCall(e: Call, schema: Schema): Call {
  if (Object.hasOwn(UNSUPPORTED, e.name)) throw exprCheckError(e.loc, UNSUPPORTED[e.name], { function: e.name })
  if (e.name === 'splice') return spliceCall(e)
  if (e.name === 'r_mapstring') return rowMapCall(e, schema)
  if (e.name.startsWith('t_') && !lookupFunction(e.name)) {
    const g = lookupFunction(`g_${e.name.slice(2)}`)
    if (g && g.repeatFrom === undefined && g.args.some((a) => a.kind === 'group')) return tCall(e, g)
  }
  return e
}
