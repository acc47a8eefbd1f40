/**
 * r_mapstring(C;S;X;D), rewritten per column before typing. For each column c that C names (a
 * list of names, a quoted pattern such as 'd*', or every visible column when omitted), S and X
 * are copied with the system variables replaced: rcv_ by the column, rcn_ by its name and rct_ by
 * its type code ('a' text, 'f' decimal, 'i' integer or date). The call becomes
 * `$mapjoin(D; S1; X1; S2; X2; …)` (text-mapjoin.ts), an ordinary call the rest of the engine
 * knows. A per-column S that is a comparison of constants (rct_='a', rcn_<>'id') is settled here,
 * so a column it leaves out is never typed: r_mapstring('d*';rct_='a';strupcase(rcv_);',') may
 * match numeric columns that strupcase could not take.
 */
import type { Expr, Loc } from '../ast.js'
import type { ColumnType } from '../../shared/table.js'
import { matchesPattern } from '../interpret/patterns.js'
import { exprCheckError } from './errors.js'
import { findCol, type Schema, type SchemaCol } from './schema.js'

type Call = Expr & { kind: 'Call' }

const SYSTEM: ReadonlySet<string> = new Set(['rcv_', 'rcn_', 'rct_'])

const TYPE_CODE: Readonly<Record<ColumnType, string>> = { text: 'a', float: 'f', int: 'i', bigint: 'j', date: 'i' }

function columnsOf(c: Expr | null, schema: Schema, loc: Loc): SchemaCol[] {
  if ((c === null || c.kind === 'Str') && schema.open)
    throw exprCheckError(loc, 'r_mapstring(): after a cross-tabulation the columns are known only from the data; name the columns in C.')
  if (c === null) return schema.cols.filter((col) => col.visible)
  if (c.kind === 'Str') {
    const pattern = c.value.toLowerCase()
    return schema.cols.filter((col) => col.visible && matchesPattern(col.name, pattern))
  }
  const names = c.kind === 'Col' ? [c.name] : c.kind === 'ColList' ? c.names : null
  if (names === null) throw exprCheckError(c.loc, "r_mapstring(): C must name columns (a b c) or be a quoted pattern such as 'd*'.")
  return names.map((name) => {
    const col = findCol(schema, name)
    if (!col) throw exprCheckError(c.loc, `Unknown column "${name}".`, { column: name })
    return col
  })
}

/** `e` with rcv_, rcn_ and rct_ replaced for column `col`. */
function forColumn(e: Expr, col: SchemaCol): Expr {
  switch (e.kind) {
    case 'Col':
      if (e.name === 'rcv_') return { kind: 'Col', name: col.name, loc: e.loc }
      if (e.name === 'rcn_') return { kind: 'Str', value: col.name, loc: e.loc }
      if (e.name === 'rct_') return { kind: 'Str', value: TYPE_CODE[col.type], loc: e.loc }
      return e
    case 'Call':
      return { ...e, args: e.args.map((a) => (a === null ? null : forColumn(a, col))) }
    case 'List':
      return { ...e, items: e.items.map((i) => forColumn(i, col)) }
    case 'ColList':
      // splice(rcn_ rcv_;'=') parses as names side by side: a list once they are replaced.
      if (!e.names.some((n) => SYSTEM.has(n))) return e
      return { kind: 'List', items: e.names.map((name) => forColumn({ kind: 'Col', name, loc: e.loc }, col)), loc: e.loc }
    case 'Neg':
    case 'Not':
      return { ...e, operand: forColumn(e.operand, col) }
    case 'Bin':
      return { ...e, left: forColumn(e.left, col), right: forColumn(e.right, col) }
    default:
      return e
  }
}

const constantOf = (e: Expr): string | number | null => (e.kind === 'Str' || e.kind === 'Num' ? e.value : null)

/** S settled when it compares constants only (with & | ~ around): true, false, or null when it depends on the rows. */
function settled(e: Expr): boolean | null {
  if (e.kind === 'Not') {
    const v = settled(e.operand)
    return v === null ? null : !v
  }
  if (e.kind !== 'Bin') return null
  if (e.op === '&' || e.op === '|') {
    const [a, b] = [settled(e.left), settled(e.right)]
    if (e.op === '&') return a === false || b === false ? false : a === true && b === true ? true : null
    return a === true || b === true ? true : a === false && b === false ? false : null
  }
  const [a, b] = [constantOf(e.left), constantOf(e.right)]
  if (a === null || b === null || typeof a !== typeof b) return null
  if (e.op === '=') return a === b
  if (e.op === '<>') return a !== b
  return null
}

/** r_mapstring(C;S;X;D) → $mapjoin(D; S1; X1; …). */
export function rowMapCall(e: Call, schema: Schema): Call {
  if (e.args.length > 4) throw exprCheckError(e.loc, `r_mapstring() takes 4 arguments (C;S;X;D), got ${e.args.length}.`, { function: e.name })
  const [c = null, s = null, x = null, d = null] = e.args
  const pairs: (Expr | null)[] = []
  for (const col of columnsOf(c, schema, e.loc)) {
    const keep = s === null ? true : settled(forColumn(s, col))
    if (keep === false) continue
    const one: Expr = { kind: 'Num', value: 1, int: true, loc: e.loc }
    pairs.push(keep === true ? one : forColumn(s!, col), x === null ? { kind: 'Col', name: col.name, loc: e.loc } : forColumn(x, col))
  }
  return { kind: 'Call', name: '$mapjoin', args: [d, ...pairs], loc: e.loc }
}
