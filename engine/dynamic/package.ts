/**
 * The `data_` of `<do action_="dbm">`: the transaction's parameters as a package (reference §7.2).
 * Three spellings are read, after `{@var}` substitution:
 *
 * - `{pkg('path' 'depth';'pub' 1)}`: keys, then values, as two lists of the same length;
 * - `{path:'pub'; depth:1}`: the literal form, `key:value` pairs separated by `;` or `,`, each
 *   value a block expression (`'text'`, a number, `@var`, a list);
 * - `{"path": "pub"}`: a JSON object, the body api/dbm takes, so a call can move between the two
 *   unchanged (`{@var}` inside its strings is substituted).
 *
 * Values become JSON: numbers stay numbers, texts strings, lists arrays.
 */
import type { Expr, Loc } from '../ast.js'
import { evalScalar, type Scalar, type VarLookup } from '../blocks/index.js'
import { ScalarError } from '../blocks/errors.js'
import { substitute } from '../blocks/substitute.js'
import { parseExpr } from '../expr/index.js'
import { AppError } from '../../shared/errors.js'
import { dynamicError } from './errors.js'

const KEY = /^\s*(?:'([^']*)'|"([^"]*)"|([A-Za-z_][A-Za-z0-9_]*))\s*:/

/**
 * Reads a `data_` text into an object of parameters ({} for an empty text).
 * @throws AppError CHECK_ERROR positioned at the `<do>` for a text that is none of the forms
 */
export function readPackage(text: string, vars: VarLookup, loc: Loc): Record<string, unknown> {
  const where = { loc, what: '<do data_>', trail: null }
  const trimmed = text.trim()
  if (trimmed === '') return {}
  if (/^\{\s*"/.test(trimmed) || trimmed === '{}') return jsonPackage(trimmed, vars, loc)
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) throw unreadable(loc, text)
  // Inner `{@x}` first, as everywhere: the package itself is read here, not by the block evaluator.
  const inner = substitute(trimmed.slice(1, -1), vars, where).trim()
  if (/^pkg\s*\(/.test(inner)) return pkgCall(inner, vars, loc)
  return literal(inner, vars, loc)
}

function jsonPackage(text: string, vars: VarLookup, loc: Loc): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw unreadable(loc, text)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw unreadable(loc, text)
  const where = { loc, what: '<do data_>', trail: null }
  const fill = (v: unknown): unknown => (typeof v === 'string' ? substitute(v, vars, where) : Array.isArray(v) ? v.map(fill) : v)
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]))
}

function pkgCall(text: string, vars: VarLookup, loc: Loc): Record<string, unknown> {
  const tree = parse(text, loc)
  if (tree.kind !== 'Call' || tree.name !== 'pkg' || tree.args.length !== 2 || tree.args.some((a) => a === null)) {
    throw dynamicError(loc, `data_ "{${text}}": pkg takes two lists, the keys and the values, as pkg('path' 'depth';'pub' 1)`)
  }
  const keys = items(evaluate(tree.args[0] as Expr, vars, loc))
  const values = items(evaluate(tree.args[1] as Expr, vars, loc))
  if (keys.length !== values.length) throw dynamicError(loc, `data_ "{${text}}": pkg has ${keys.length} key(s) but ${values.length} value(s)`)
  return Object.fromEntries(keys.map((k, i) => [String(k), values[i]]))
}

/** `key:expr; key:expr` — split at `;` or `,` outside quotes and parentheses. */
function literal(text: string, vars: VarLookup, loc: Loc): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const part of splitTopLevel(text)) {
    if (part.trim() === '') continue
    const m = KEY.exec(part)
    if (!m) throw dynamicError(loc, `data_: "${part.trim()}" is not key:value (write {path:'pub'; depth:1})`)
    out[m[1] ?? m[2] ?? m[3]] = json(evaluate(parse(part.slice(m[0].length), loc), vars, loc))
  }
  return out
}

function splitTopLevel(text: string): string[] {
  const parts: string[] = []
  let depth = 0
  let quote: string | null = null
  let start = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (quote !== null) {
      if (c === quote) quote = null
    } else if (c === "'" || c === '"') quote = c
    else if (c === '(') depth++
    else if (c === ')') depth--
    else if ((c === ';' || c === ',') && depth === 0) {
      parts.push(text.slice(start, i))
      start = i + 1
    }
  }
  parts.push(text.slice(start))
  return parts
}

function parse(text: string, loc: Loc): Expr {
  try {
    return parseExpr(text, { vars: true })
  } catch (err) {
    if (err instanceof AppError) throw dynamicError(loc, `data_: ${err.message}`)
    throw err
  }
}

function evaluate(e: Expr, vars: VarLookup, loc: Loc): Scalar {
  try {
    return evalScalar(e, vars)
  } catch (err) {
    if (err instanceof ScalarError) throw dynamicError(loc, `data_: ${err.message}`)
    throw err
  }
}

function items(v: Scalar): (string | number)[] {
  return v.kind === 'list' ? v.items.map((a) => a.value) : [v.value]
}

function json(v: Scalar): unknown {
  return v.kind === 'list' ? v.items.map((a) => a.value) : v.value
}

function unreadable(loc: Loc, text: string): AppError {
  return dynamicError(
    loc,
    `data_="${text.length > 60 ? `${text.slice(0, 60)}…` : text}" is not a package: write {pkg('path';'pub')}, {path:'pub'} or a JSON object`,
  )
}
