/**
 * Reads one SELECT over one table out of the tree that sqlparser-rs (through
 * @guanmingchiu/sqlparser-ts, its SQLite dialect) makes of the query, into the subset's form
 * (ir.ts). The tree is walked as plain data: any node this file does not know, in any place,
 * makes the query `outside` the subset, so a newer parser can only send more queries to sql.js,
 * never answer one differently.
 *
 * Where the parser's reading of SQLite's grammar is not SQLite's, the form is refused here: a
 * comparison directly inside another without parentheses (SQLite ranks `<` above `=`, the parser
 * ranks them alike), and literals SQLite would read differently (too large, not finite, hex).
 */
import { init, parse as parseSql } from '@guanmingchiu/sqlparser-ts'
import { castAffinity } from './cast-types.js'
import { BIGINT_MAX } from '../../../shared/table.js'
import {
  outside,
  type AggFn,
  type ArithOp,
  type CmpOp,
  type OrderKey,
  type SelectItem,
  type SqlExpr,
  type SqlCommaJoin,
  type SqlJoin,
  type SqlQuery,
  type SqlSelect,
  type SqlSource,
  type WinFn,
} from './ir.js'

type Node = Record<string, unknown>

let ready: Promise<void> | null = null

/** Loads the parser (WebAssembly) once; every later call resolves at once. */
export function loadSqlParser(): Promise<void> {
  ready ??= init()
  return ready
}

const isNode = (x: unknown): x is Node => typeof x === 'object' && x !== null && !Array.isArray(x)

/** The one key of a tagged node (`{ Select: {...} }` → ['Select', {...}]), or a bare tag. */
function tagOf(x: unknown): [string, unknown] {
  if (typeof x === 'string') return [x, null]
  if (!isNode(x)) throw outside('an unexpected form')
  const keys = Object.keys(x)
  if (keys.length !== 1) throw outside('an unexpected form')
  return [keys[0], x[keys[0]]]
}

const emptyList = (x: unknown): boolean => x === undefined || x === null || (Array.isArray(x) && x.length === 0)

function field(n: Node, key: string): unknown {
  return n[key]
}

/**
 * The query as the subset reads it: a SELECT, or SELECTs joined by UNION ALL, reading tables,
 * subqueries and WITH names; or `outside` the subset. The parser must have been loaded
 * (loadSqlParser).
 */
export function readStatement(sql: string): SqlQuery {
  let statements: unknown
  try {
    statements = parseSql(sql, 'sqlite')
  } catch {
    throw outside('the parser does not read it')
  }
  if (!Array.isArray(statements) || statements.length !== 1) throw outside('not one statement')
  const [kind, query] = tagOf(statements[0])
  if (kind !== 'Query') throw outside('not a query')
  return readQuery(query, new Map())
}

/** The queries WITH names stand for, by lower-cased name (SQLite's names are case-insensitive). */
type Ctes = ReadonlyMap<string, { readonly name: string; readonly query: SqlQuery; readonly columns: readonly string[] | null }>

function readQuery(query: unknown, outer: Ctes): SqlQuery {
  if (!isNode(query)) throw outside('not a query')
  for (const [key, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue
    if (!['body', 'order_by', 'limit_clause', 'locks', 'pipe_operators', 'with', 'fetch', 'for_clause', 'settings', 'format_clause'].includes(key))
      throw outside(`query part ${key}`)
  }
  if (!emptyList(query.locks) || !emptyList(query.pipe_operators) || (query.fetch ?? null) !== null || (query.for_clause ?? null) !== null)
    throw outside('a query clause')
  const ctes = readWith(query.with, outer)
  const { limit, offset } = readLimit(query.limit_clause)
  const orderBy = readOrderBy(query.order_by)
  const [bodyKind, body] = tagOf(query.body)
  if (bodyKind === 'Select' && isNode(body)) return { k: 'select', ...readStatementBody(body, ctes), orderBy, limit, offset }
  if (bodyKind === 'SetOperation' && isNode(body)) return { k: 'union', arms: readUnionArms(body, ctes), orderBy, limit, offset }
  throw outside('not a plain SELECT')
}

/** `WITH a AS (…), b(x, y) AS (…)`: each name sees those before it (not RECURSIVE). */
function readWith(w: unknown, outer: Ctes): Ctes {
  if (w === undefined || w === null) return outer
  if (!isNode(w) || w.recursive !== false || !Array.isArray(w.cte_tables)) throw outside('WITH RECURSIVE')
  const ctes = new Map(outer)
  const mine = new Set<string>()
  for (const cte of w.cte_tables) {
    if (!isNode(cte) || !isNode(cte.alias) || !isNode(cte.alias.name)) throw outside('a WITH form')
    for (const [key, v] of Object.entries(cte)) {
      if (v === undefined || v === null) continue
      if (!['alias', 'query', 'closing_paren_token'].includes(key)) throw outside(`a WITH option ${key}`)
    }
    const name = identValue(cte.alias.name)
    const columns = emptyList(cte.alias.columns)
      ? null
      : (cte.alias.columns as unknown[]).map((c) => {
          if (!isNode(c) || !isNode(c.name) || Object.entries(c).some(([key, v]) => key !== 'name' && v !== null && v !== undefined))
            throw outside('a WITH column form')
          return identValue(c.name)
        })
    // SQLite refuses a name given twice in one WITH; sql.js says so.
    if (mine.has(name.toLowerCase())) throw outside('a WITH name given twice')
    mine.add(name.toLowerCase())
    ctes.set(name.toLowerCase(), { name, query: readQuery(cte.query, ctes), columns })
  }
  return ctes
}

/** The SELECTs of `a UNION ALL b UNION ALL c` (the parser nests them to the left). */
function readUnionArms(op: Node, ctes: Ctes): SqlSelect[] {
  for (const [key, v] of Object.entries(op)) {
    if (v === undefined || v === null) continue
    if (!['left', 'op', 'set_quantifier', 'right'].includes(key)) throw outside(`a compound SELECT part ${key}`)
  }
  if (op.op !== 'Union' || op.set_quantifier !== 'All') throw outside('a compound SELECT other than UNION ALL')
  const arm = (x: unknown): SqlSelect[] => {
    const [kind, body] = tagOf(x)
    if (kind === 'SetOperation' && isNode(body)) return readUnionArms(body, ctes)
    if (kind === 'Select' && isNode(body)) return [{ k: 'select', ...readStatementBody(body, ctes), orderBy: [], limit: null, offset: 0 }]
    throw outside('a compound SELECT of something other than SELECTs')
  }
  return [...arm(op.left), ...arm(op.right)]
}

const ALLOWED_SELECT_KEYS = new Set([
  'top_before_distinct',
  'projection',
  'from',
  'lateral_views',
  'selection',
  'connect_by',
  'group_by',
  'cluster_by',
  'distribute_by',
  'sort_by',
  'named_window',
  'window_before_qualify',
  'flavor',
  'having',
  'distinct',
  'span',
  'select_token',
  'optimizer_hints',
])

function readStatementBody(s: Node, ctes: Ctes): Omit<SqlSelect, 'k' | 'orderBy' | 'limit' | 'offset'> {
  for (const [key, value] of Object.entries(s)) {
    if (value === undefined || value === null) continue
    if (!ALLOWED_SELECT_KEYS.has(key)) throw outside(`SELECT part ${key}`)
    if (['lateral_views', 'cluster_by', 'distribute_by', 'sort_by', 'named_window', 'connect_by', 'optimizer_hints'].includes(key) && !emptyList(value))
      throw outside(`SELECT part ${key}`)
  }
  if (s.flavor !== 'Standard' || s.top_before_distinct !== false) throw outside('a SELECT form')
  const distinct = readDistinct(s.distinct)
  const { source, alias, joins } = readFrom(s.from, ctes)
  const items = readProjection(s.projection)
  const where = s.selection === undefined || s.selection === null ? null : readExpr(s.selection)
  const groupBy = readGroupBy(s.group_by)
  const having = s.having === undefined || s.having === null ? null : readExpr(s.having)
  return { source, alias, joins, distinct, items, where, groupBy, having }
}

function readDistinct(d: unknown): boolean {
  if (d === undefined || d === null) return false
  if (d === 'Distinct') return true
  if (d === 'All') return false
  throw outside('DISTINCT ON')
}

function readFrom(from: unknown, ctes: Ctes): { source: SqlSource; alias: string | null; joins: SqlJoin[] | SqlCommaJoin[] } {
  if (emptyList(from)) return { source: { k: 'one row' }, alias: null, joins: [] }
  if (!Array.isArray(from) || !from.every(isNode)) throw outside('a FROM form')
  if (from.length > 1) {
    // `FROM a, b, c`: SQLite reads `a, b JOIN c` as `(a, b) JOIN c`; only items without JOINs here.
    if (from.some((twj) => !emptyList(twj.joins))) throw outside('a comma join beside a JOIN')
    const [first, ...rest] = from.map((twj) => readRelation(twj.relation, ctes))
    return { ...first, joins: rest.map((r): SqlCommaJoin => ({ kind: 'comma', ...r })) }
  }
  const twj = from[0]
  const first = readRelation(twj.relation, ctes)
  const joins = (Array.isArray(twj.joins) ? twj.joins : []).map((j: unknown): SqlJoin => {
    if (!isNode(j) || (j.global ?? false) !== false) throw outside('a join form')
    const [kind, constraint] = tagOf(j.join_operator)
    const joinKind = kind === 'Join' || kind === 'Inner' ? 'inner' : kind === 'Left' || kind === 'LeftOuter' ? 'left' : null
    if (joinKind === null) throw outside(`a ${kind} join`)
    const [how, on] = tagOf(constraint)
    if (how !== 'On') throw outside(`a join ${how}`)
    return { kind: joinKind, ...readRelation(j.relation, ctes), on: readExpr(on) }
  })
  return { ...first, joins }
}

/** A table (or a WITH name), or a subquery, with its alias. */
function readRelation(relation: unknown, ctes: Ctes): { source: SqlSource; alias: string | null } {
  const [kind, t] = tagOf(relation)
  if (kind === 'Derived' && isNode(t)) {
    for (const [key, value] of Object.entries(t)) {
      if (value === undefined || value === null) continue
      if (!['lateral', 'subquery', 'alias'].includes(key)) throw outside(`a subquery option ${key}`)
    }
    if (t.lateral !== false) throw outside('a LATERAL subquery')
    return { source: { k: 'query', query: readQuery(t.subquery, ctes), name: null, columns: null }, alias: readAlias(t.alias) }
  }
  if (kind !== 'Table' || !isNode(t)) throw outside('FROM something other than a table or a subquery')
  for (const [key, value] of Object.entries(t)) {
    if (key === 'name' || key === 'alias' || value === undefined || value === null) continue
    if (key === 'with_ordinality' ? value !== false : !emptyList(value)) throw outside(`a table option ${key}`)
  }
  const path = objectName(t.name)
  const cte = Array.isArray(t.name) && t.name.length === 1 ? ctes.get(path.toLowerCase()) : undefined
  const source: SqlSource = cte === undefined ? { k: 'table', path } : { k: 'query', query: cte.query, name: cte.name, columns: cte.columns }
  return { source, alias: readAlias(t.alias) }
}

function readAlias(a: unknown): string | null {
  if (a === undefined || a === null) return null
  if (!isNode(a) || !emptyList(a.columns) || !isNode(a.name)) throw outside('a table alias form')
  return identValue(a.name)
}

/** `a.b.c` from its parts; a quoted part may itself hold dots (`"pub.demo.sales"`). */
function objectName(name: unknown): string {
  if (!Array.isArray(name) || name.length === 0) throw outside('a table name form')
  return name
    .map((part) => {
      const [kind, ident] = tagOf(part)
      if (kind !== 'Identifier' || !isNode(ident)) throw outside('a table name form')
      return identValue(ident)
    })
    .join('.')
}

function identValue(ident: Node): string {
  if (typeof ident.value !== 'string') throw outside('an identifier form')
  // A bracketed or back-quoted name is SQLite's too, but not worth a special case here.
  if (ident.quote_style !== undefined && ident.quote_style !== null && ident.quote_style !== '"') throw outside('a quoted name')
  return ident.value
}

function readProjection(p: unknown): (SelectItem | 'star')[] {
  if (!Array.isArray(p) || p.length === 0) throw outside('an empty select list')
  return p.map((item): SelectItem | 'star' => {
    const [kind, body] = tagOf(item)
    if (kind === 'Wildcard') {
      if (isNode(body) && Object.entries(body).some(([key, v]) => key !== 'wildcard_token' && v !== null && v !== undefined && !emptyList(v)))
        throw outside('a wildcard option')
      return 'star'
    }
    if (kind === 'UnnamedExpr') return { expr: readExpr(body), alias: null }
    if (kind === 'ExprWithAlias' && isNode(body) && isNode(body.alias)) return { expr: readExpr(body.expr), alias: identValue(body.alias) }
    throw outside(`a select item ${kind}`)
  })
}

function readGroupBy(g: unknown): SqlExpr[] {
  if (g === undefined || g === null) return []
  const [kind, body] = tagOf(g)
  if (kind !== 'Expressions' || !Array.isArray(body) || body.length !== 2 || !Array.isArray(body[0]) || !emptyList(body[1])) throw outside('a GROUP BY form')
  return (body[0] as unknown[]).map(readExpr)
}

function readOrderBy(o: unknown): OrderKey[] {
  if (o === undefined || o === null) return []
  if (!isNode(o) || (o.interpolate ?? null) !== null) throw outside('an ORDER BY form')
  const [kind, exprs] = tagOf(o.kind)
  if (kind !== 'Expressions' || !Array.isArray(exprs)) throw outside('ORDER BY ALL')
  return exprs.map(readOrderKey)
}

function readOrderKey(e: unknown): OrderKey {
  if (!isNode(e) || (e.with_fill ?? null) !== null) throw outside('an ORDER BY form')
  const opts = isNode(e.options) ? e.options : {}
  const asc = opts.asc ?? null
  const nullsFirst = opts.nulls_first ?? null
  if ((asc !== null && typeof asc !== 'boolean') || (nullsFirst !== null && typeof nullsFirst !== 'boolean')) throw outside('an ORDER BY option')
  return { expr: readExpr(e.expr), desc: asc === false, nulls: nullsFirst === null ? null : nullsFirst ? 'first' : 'last' }
}

function readLimit(l: unknown): { limit: number | null; offset: number } {
  if (l === undefined || l === null) return { limit: null, offset: 0 }
  const [kind, body] = tagOf(l)
  if (kind !== 'LimitOffset' || !isNode(body) || !emptyList(body.limit_by)) throw outside('a LIMIT form')
  const limit = body.limit === undefined || body.limit === null ? null : integerLiteral(body.limit, 'LIMIT')
  let offset = 0
  if (body.offset !== undefined && body.offset !== null) {
    if (!isNode(body.offset) || body.offset.rows !== 'None') throw outside('an OFFSET form')
    offset = integerLiteral(body.offset.value, 'OFFSET')
  }
  // SQLite reads a negative LIMIT as no limit, and a negative OFFSET as 0.
  return { limit: limit !== null && limit < 0 ? null : limit, offset: Math.max(0, offset) }
}

/** −n of an integer literal, its digits too. */
const negated = (x: SqlExpr & { k: 'int' }): SqlExpr =>
  x.digits === undefined ? { k: 'int', v: -x.v } : { k: 'int', v: -x.v, digits: x.digits.startsWith('-') ? x.digits.slice(1) : `-${x.digits}` }

function integerLiteral(e: unknown, what: string): number {
  const x = readExpr(e)
  const v = x.k === 'int' ? x.v : x.k === 'neg' && x.e.k === 'int' ? -x.e.v : null
  if (v === null) throw outside(`${what} other than a whole number`)
  return v
}

const ARITH: Readonly<Record<string, ArithOp>> = { Plus: '+', Minus: '-', Multiply: '*', Divide: '/', Modulo: '%' }
const CMP: Readonly<Record<string, CmpOp>> = { Eq: '=', NotEq: '<>', Lt: '<', LtEq: '<=', Gt: '>', GtEq: '>=' }

const binaryOp = (e: unknown): string | null => {
  if (!isNode(e)) return null
  const [kind, body] = tagOf(e)
  return kind === 'BinaryOp' && isNode(body) && typeof body.op === 'string' ? body.op : null
}
const isConcat = (e: unknown): boolean => binaryOp(e) === 'StringConcat'
const isArith = (e: unknown): boolean => (binaryOp(e) ?? '') in ARITH

const isComparison = (e: unknown): boolean => {
  if (!isNode(e)) return false
  const [kind, body] = tagOf(e)
  if (kind === 'BinaryOp' && isNode(body)) return typeof body.op === 'string' && body.op in CMP
  return ['IsNull', 'IsNotNull', 'Between', 'InList', 'Like'].includes(kind)
}

export function readExpr(node: unknown): SqlExpr {
  const [kind, body] = tagOf(node)
  switch (kind) {
    case 'Identifier':
      if (!isNode(body)) break
      return { k: 'col', name: identValue(body) }
    case 'CompoundIdentifier': {
      if (!Array.isArray(body) || body.length !== 2 || !body.every(isNode)) break
      // table.column (or alias.column): the table part is checked by the planner.
      return { k: 'col', name: `${identValue(body[0])}.${identValue(body[1])}` }
    }
    case 'Value':
      if (!isNode(body)) break
      return readValue(body.value)
    case 'Nested':
      return readExpr(body)
    case 'UnaryOp': {
      if (!isNode(body)) break
      const e = readExpr(body.expr)
      if (body.op === 'Minus') return e.k === 'int' ? negated(e) : e.k === 'real' ? { k: 'real', v: -e.v } : { k: 'neg', e }
      if (body.op === 'Plus') return e
      if (body.op === 'Not') return { k: 'not', e }
      break
    }
    case 'BinaryOp': {
      if (!isNode(body) || typeof body.op !== 'string') break
      const op = body.op
      if (op === 'And' || op === 'Or') return { k: op === 'And' ? 'and' : 'or', l: readExpr(body.left), r: readExpr(body.right) }
      if (op in ARITH) {
        // SQLite ranks || above * and /, the parser alike: without parentheses, not compiled.
        if (isConcat(body.left) || isConcat(body.right)) throw outside('|| beside arithmetic without parentheses')
        return { k: 'arith', op: ARITH[op], l: readExpr(body.left), r: readExpr(body.right) }
      }
      if (op === 'StringConcat') {
        if (isArith(body.left) || isArith(body.right)) throw outside('|| beside arithmetic without parentheses')
        return { k: 'concat', l: readExpr(body.left), r: readExpr(body.right) }
      }
      if (op in CMP) {
        if (isComparison(body.left) || isComparison(body.right)) throw outside('a comparison of a comparison without parentheses')
        return { k: 'cmp', op: CMP[op], l: readExpr(body.left), r: readExpr(body.right) }
      }
      break
    }
    case 'IsNull':
    case 'IsNotNull':
      return { k: 'isnull', not: kind === 'IsNotNull', e: readExpr(body) }
    case 'Between': {
      if (!isNode(body) || typeof body.negated !== 'boolean') break
      if ([body.expr, body.low, body.high].some(isComparison)) throw outside('a comparison inside BETWEEN without parentheses')
      return { k: 'between', not: body.negated, e: readExpr(body.expr), lo: readExpr(body.low), hi: readExpr(body.high) }
    }
    case 'InList': {
      if (!isNode(body) || typeof body.negated !== 'boolean' || !Array.isArray(body.list)) break
      if (isComparison(body.expr)) throw outside('a comparison inside IN without parentheses')
      return { k: 'in', not: body.negated, e: readExpr(body.expr), list: body.list.map(readExpr) }
    }
    case 'Like': {
      if (!isNode(body) || typeof body.negated !== 'boolean' || body.any !== false || (body.escape_char ?? null) !== null) break
      if (isComparison(body.expr)) throw outside('a comparison inside LIKE without parentheses')
      const pattern = readExpr(body.pattern)
      if (pattern.k !== 'str') throw outside('a LIKE pattern that is not a quoted text')
      return { k: 'like', not: body.negated, e: readExpr(body.expr), pattern: pattern.v }
    }
    case 'Case':
      if (!isNode(body)) break
      return readCase(body)
    case 'Function':
      if (!isNode(body)) break
      return readFunction(body)
    case 'Cast':
      if (!isNode(body) || body.kind !== 'Cast' || body.array !== false || (body.format ?? null) !== null) break
      return { k: 'cast', e: readExpr(body.expr), to: castAffinity(body.data_type) }
    case 'Substring':
      // substr(x, s[, n]) and substring(x, s[, n]); not the FROM … FOR form, which SQLite lacks.
      if (!isNode(body) || body.special !== true || body.substring_from === undefined || body.substring_from === null) break
      return {
        k: 'call',
        name: 'substr',
        args: [body.expr, body.substring_from, ...(body.substring_for === undefined || body.substring_for === null ? [] : [body.substring_for])].map(readExpr),
      }
    case 'Trim': {
      // trim(x[, chars]); not TRIM(BOTH … FROM x), which SQLite lacks.
      if (!isNode(body) || (body.trim_where ?? null) !== null || (body.trim_what ?? null) !== null) break
      const chars = body.trim_characters ?? null
      if (chars !== null && (!Array.isArray(chars) || chars.length !== 1)) break
      return { k: 'call', name: 'trim', args: [readExpr(body.expr), ...(chars === null ? [] : [readExpr(chars[0])])] }
    }
  }
  throw outside(`the expression form ${kind}`)
}

function readValue(v: unknown): SqlExpr {
  if (v === 'Null') return { k: 'null' }
  const [kind, body] = tagOf(v)
  if (kind === 'SingleQuotedString' && typeof body === 'string') return { k: 'str', v: body }
  if (kind === 'Number' && Array.isArray(body) && typeof body[0] === 'string' && body[1] === false) {
    const text = body[0]
    if (/^[0-9]+$/.test(text)) {
      const v = Number(text)
      if (Number.isSafeInteger(v)) return { k: 'int', v }
      // Beyond 2^53 a literal keeps its digits (SQLite's integers are 64-bit); beyond 2^63 − 1 SQLite reads a real.
      const digits = text.replace(/^0+(?=.)/, '')
      if (BigInt(digits) > BIGINT_MAX) throw outside('an integer literal beyond 2^63 − 1')
      return { k: 'int', v, digits }
    }
    if (/^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(text)) {
      const v = Number(text)
      if (!Number.isFinite(v)) throw outside('a number literal too large')
      return { k: 'real', v }
    }
  }
  throw outside(`the literal ${kind}`)
}

function readCase(c: Node): SqlExpr {
  if (!Array.isArray(c.conditions) || c.conditions.length === 0) throw outside('a CASE form')
  const operand = c.operand === undefined || c.operand === null ? null : readExpr(c.operand)
  const whens = c.conditions.map((w: unknown) => {
    if (!isNode(w)) throw outside('a CASE form')
    const when = readExpr(w.condition)
    return { when: operand === null ? when : ({ k: 'cmp', op: '=', l: operand, r: when } as const), then: readExpr(w.result) }
  })
  const otherwise = c.else_result === undefined || c.else_result === null ? null : readExpr(c.else_result)
  return { k: 'case', whens, else: otherwise }
}

const AGGREGATES: ReadonlySet<string> = new Set<AggFn>(['count', 'sum', 'total', 'avg', 'min', 'max', 'group_concat'])
const WINDOWED: ReadonlySet<string> = new Set<WinFn>(['sum', 'count', 'avg', 'row_number', 'rank', 'lag', 'lead'])
const SCALARS: ReadonlySet<string> = new Set([
  'abs',
  'coalesce',
  'ifnull',
  'iif',
  'nullif',
  'lower',
  'upper',
  'length',
  'round',
  'ltrim',
  'rtrim',
  'replace',
  'instr',
])

function readFunction(f: Node): SqlExpr {
  for (const key of ['filter', 'null_treatment']) if ((field(f, key) ?? null) !== null) throw outside(`a function with ${key}`)
  if (!emptyList(f.within_group) || f.uses_odbc_syntax !== false || f.parameters !== 'None') throw outside('a function form')
  if (!Array.isArray(f.name) || f.name.length !== 1) throw outside('a qualified function name')
  const [nameKind, ident] = tagOf(f.name[0])
  if (nameKind !== 'Identifier' || !isNode(ident) || (ident.quote_style ?? null) !== null) throw outside('a function name form')
  const name = String(ident.value).toLowerCase()
  const [argsKind, list] = tagOf(f.args)
  if (argsKind !== 'List' || !isNode(list) || !emptyList(list.clauses) || !Array.isArray(list.args)) throw outside('a function argument form')
  const distinct = list.duplicate_treatment === 'Distinct'
  if (list.duplicate_treatment !== undefined && list.duplicate_treatment !== null && !distinct && list.duplicate_treatment !== 'All')
    throw outside('a function argument form')
  const star = list.args.length === 1 && isNode(list.args[0]) && list.args[0].Unnamed === 'Wildcard'
  if ((f.over ?? null) !== null) {
    if (!WINDOWED.has(name) || distinct) throw outside(`the window function ${name}`)
    return readWindow(name as WinFn, star ? [] : list.args.map(readArg), star, f.over)
  }
  if (AGGREGATES.has(name)) {
    const fn = name as AggFn
    if (star) {
      if (fn !== 'count' || distinct) throw outside(`${name}(*)`)
      return { k: 'agg', fn, arg: null, distinct: false }
    }
    if (fn === 'group_concat' && list.args.length === 2 && !distinct)
      return { k: 'agg', fn, arg: readArg(list.args[0]), distinct, sep: separator(readArg(list.args[1])) }
    // SQLite's min() and max() with several arguments are scalar functions, not aggregates.
    if (list.args.length !== 1) throw outside(`${name} with ${list.args.length} arguments`)
    if (distinct && fn !== 'count') throw outside(`${name}(DISTINCT …)`)
    return { k: 'agg', fn, arg: readArg(list.args[0]), distinct }
  }
  if (!SCALARS.has(name) || distinct || star) throw outside(`the function ${name}`)
  return { k: 'call', name, args: list.args.map(readArg) }
}

/** `fn(args) OVER (PARTITION BY … ORDER BY …)`, with the default frame only. */
function readWindow(fn: WinFn, args: SqlExpr[], star: boolean, over: unknown): SqlExpr {
  const [kind, spec] = tagOf(over)
  if (kind !== 'WindowSpec' || !isNode(spec)) throw outside('a named window')
  for (const [key, v] of Object.entries(spec)) {
    if (v === undefined || v === null) continue
    if (!['partition_by', 'order_by'].includes(key)) throw outside(`a window with ${key}`)
  }
  const arity: Readonly<Record<WinFn, [number, number]>> = {
    sum: [1, 1],
    avg: [1, 1],
    count: [0, 1],
    row_number: [0, 0],
    rank: [0, 0],
    lag: [1, 3],
    lead: [1, 3],
  }
  const [min, max] = arity[fn]
  if (args.length < min || args.length > max || (star && fn !== 'count') || (fn === 'count' && args.length === 0 && !star))
    throw outside(`${fn} with these arguments`)
  const partition = Array.isArray(spec.partition_by) ? spec.partition_by.map(readExpr) : []
  const order = Array.isArray(spec.order_by) ? spec.order_by.map(readOrderKey) : []
  return { k: 'win', fn, args, partition, order }
}

/** group_concat's separator: a quoted text ('' too), or NULL, which SQLite reads as ''. */
function separator(x: SqlExpr): string {
  if (x.k === 'str') return x.v
  if (x.k === 'null') return ''
  throw outside('a group_concat separator other than a quoted text')
}

function readArg(a: unknown): SqlExpr {
  if (!isNode(a) || !isNode(a.Unnamed) || Object.keys(a).length !== 1) throw outside('a function argument form')
  const [kind, e] = tagOf(a.Unnamed)
  if (kind !== 'Expr') throw outside('a function argument form')
  return readExpr(e)
}
