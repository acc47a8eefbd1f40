/**
 * A query of the subset (ir.ts) as the operations the macro language runs: `<base>` (or the
 * operations of a subquery in FROM), `<link>`s for joins, a `<sel>` for WHERE, `<willbe>`s for
 * computed values, a `<tabu>` for GROUP BY and the aggregates (groups in SQLite's order: keys
 * ascending, NULL first), a `<sel>` for HAVING, sorts and group functions for window functions
 * (window.ts), `<sort>` for ORDER BY, row-number selections for LIMIT and OFFSET, `<merge>` for
 * UNION ALL, and a `<colord>` of the result columns. Being operations, it splits over workers,
 * stops, and reports progress like any macro query.
 */
import type { Expr, Op, SortKey, Tcol } from '../../ast.js'
import type { ColumnSpec } from '../../../shared/table.js'
import { asDoubles, textOf, truth, value, type Scope, type Uses, type Val } from './expr.js'
import { commaJoinOrder } from './comma-joins.js'
import { ONE_ROW_PATH } from './one-row.js'
import { outside, type SqlExpr, type SqlJoin, type SqlQuery, type SqlSelect, type SqlSource, type SqlUnion } from './ir.js'
import {
  aggregatesOf,
  colRef,
  containsAggregate,
  containsWindow,
  forEachChild,
  INT32,
  LOC,
  META,
  Names,
  orderKeys,
  readsColumns,
  rowNumbers,
  sameExpr,
  tabu,
  willbe,
  windowsOf,
} from './plan-kit.js'
import { linkOf, storedSourceColumn, tableScope, type PlanTable, type SourceColumn } from './sources.js'
import { windowScope } from './window.js'

export interface SqlPlan {
  readonly ops: Op[]
  /** The result's columns in order, by engine name. */
  readonly columns: readonly string[]
  /**
   * Per result column, the name SQLite must give it for this reading of the query to be
   * SQLite's: the alias, or for `*` the column's name; null where SQLite names it by the
   * expression's text.
   */
  readonly aliases: readonly (string | null)[]
  /** Text is ordered somewhere (expr.ts, Uses): the caller checks the text's characters first. */
  readonly textOrder: boolean
  /** A SELECT without FROM reads the table of one row (one-row.ts). */
  readonly oneRow: boolean
}

/** What the planning of one query shares with its subqueries. */
interface Context {
  readonly specs: ReadonlyMap<string, readonly ColumnSpec[]>
  readonly names: Names
  readonly uses: Uses
  /** Whether a SELECT without FROM reads the table of one row. */
  readonly oneRow: { read: boolean }
}

/** A (sub)query planned: the operations that make its rows, from a `<base>`, and its columns. */
interface Planned {
  readonly ops: Op[]
  /** Its result columns: `val.e` is the column, `name` what an outer query may call it. */
  readonly cols: readonly SourceColumn[]
  /** As SqlPlan.aliases. */
  readonly aliases: readonly (string | null)[]
}

/** @param specs the columns of each table the query reads, by lower-cased path */
export function planQuery(query: SqlQuery, specs: ReadonlyMap<string, readonly ColumnSpec[]>): SqlPlan {
  const taken = new Set([...specs.values()].flatMap((cols) => cols.map((c) => c.name.toLowerCase())))
  const ctx: Context = { specs, names: new Names(taken), uses: { textOrder: false }, oneRow: { read: false } }
  const planned = planOf(query, ctx, true)
  const columns = planned.cols.map((c) => (c.val.e as { name: string }).name)
  const ops = [...planned.ops, { kind: 'Colord', cols: columns, hide: [], hard: false, loc: LOC } as Op]
  return { ops: linkingWhatIsRead(ops), columns, aliases: planned.aliases, textOrder: ctx.uses.textOrder, oneRow: ctx.oneRow.read }
}

/**
 * The plan with each join's `<link>` bringing only the joined columns the plan reads. A joined
 * column is named with its link's suffix (`brand_sqlj1`), which only its readers spell; a name
 * found anywhere keeps the column (a subquery's link may share the suffix: both then stay).
 */
function linkingWhatIsRead(ops: readonly Op[]): Op[] {
  const text = JSON.stringify(ops)
  const trim = (list: readonly Op[]): Op[] =>
    list.map((op) => {
      if (op.kind === 'Merge') return { ...op, ops: trim(op.ops) }
      if (op.kind !== 'Link' || op.sqlJoin !== true || op.cols === null) return op
      return { ...op, ops: trim(op.ops), cols: op.cols.filter((c) => text.includes(`"${c}${op.suffix}"`)) }
    })
  return trim(ops)
}

function planOf(query: SqlQuery, ctx: Context, top = false): Planned {
  return query.k === 'select' ? planSelect(query, ctx, top) : planUnion(query, ctx)
}

/**
 * A FROM item as a table of the query, and the operations that make it: a table's `<base>`, or
 * a subquery's operations. Item `index` > 0 is joined, its columns carrying the link's suffix.
 */
function planSource(source: SqlSource, alias: string | null, index: number, ctx: Context): { table: PlanTable; ops: Op[]; suffix: string } {
  const suffix = index === 0 ? '' : `_sqlj${index}`
  if (source.k === 'one row') {
    ctx.oneRow.read = true
    return { table: { qualifier: null, cols: [], foreign: [] }, ops: [{ kind: 'Base', table: ONE_ROW_PATH, loc: LOC }], suffix }
  }
  if (source.k === 'table') {
    const specs = ctx.specs.get(source.path.toLowerCase())
    if (specs === undefined) throw outside(`the table ${source.path}`)
    const foreign = specs.map((c) => c.name.toLowerCase())
    const qualifier = (alias ?? source.path.slice(source.path.lastIndexOf('.') + 1)).toLowerCase()
    const cols = specs.map((c, i) => storedSourceColumn(c.name, foreign[i] + suffix, c))
    return { table: { qualifier, cols, foreign }, ops: [{ kind: 'Base', table: source.path.toLowerCase(), loc: LOC }], suffix }
  }
  const inner = planOf(source.query, ctx)
  if (source.columns !== null && source.columns.length !== inner.cols.length) throw outside('a WITH column list of another length')
  const foreign = inner.cols.map((c) => (c.val.e as { name: string }).name)
  const cols = inner.cols.map((c, i) => ({ name: source.columns?.[i] ?? c.name, val: { ...c.val, e: colRef(foreign[i] + suffix) } }))
  return { table: { qualifier: (alias ?? source.name)?.toLowerCase() ?? null, cols, foreign }, ops: inner.ops, suffix }
}

/** @param top the query itself (not a subquery, nor one SELECT of a UNION ALL): its values are only shown */
function planSelect(written: SqlSelect, ctx: Context, top = false): Planned {
  const { names } = ctx
  const sources = [planSource(written.source, written.alias, 0, ctx), ...written.joins.map((j, i) => planSource(j.source, j.alias, i + 1, ctx))]
  const fromTables = sources.map((s) => s.table)
  const qualifiers = fromTables.flatMap((t) => (t.qualifier === null ? [] : [t.qualifier]))
  if (new Set(qualifiers).size !== qualifiers.length) throw outside('two tables by the same name')
  const { select, order } = asJoins(written, fromTables)
  const tables = order.map((at) => fromTables[at])
  const ops: Op[] = [...sources[0].ops]
  select.joins.forEach((j, i) => {
    const joined = sources[order[i + 1]]
    ops.push(linkOf(j, tables, i + 1, joined.ops, joined.suffix, ops, names, ctx.uses, select.where))
  })
  const items = select.items.flatMap((item): Item[] =>
    item === 'star'
      ? fromTables.flatMap((t) => t.cols.map((c) => ({ expr: null, val: c.val, alias: c.name, star: true })))
      : [{ expr: item.expr, val: null, alias: item.alias, star: false }],
  )
  const exprs = items.flatMap((i) => (i.expr === null ? [] : [i.expr]))
  const rows = withShared(tableScope(tables, ctx.uses), select, exprs, ops, names)
  for (const x of [select.where, select.having, ...select.groupBy])
    if (x !== null && containsWindow(x)) throw outside('a window function outside the select list and ORDER BY')
  if (select.where !== null) {
    if (containsAggregate(select.where)) throw outside('an aggregate in WHERE')
    ops.push({ kind: 'Sel', cond: truth(select.where, rows), loc: LOC })
  }
  const aggs: SqlExpr[] = []
  for (const x of exprs) aggregatesOf(x, aggs)
  if (select.having !== null) aggregatesOf(select.having, aggs)
  for (const key of select.orderBy) aggregatesOf(key.expr, aggs)
  const grouped = select.groupBy.length > 0 || aggs.length > 0
  if (!grouped && select.having !== null) throw outside('HAVING without GROUP BY')
  if (grouped && items.some((i) => i.star)) throw outside('* in a grouped query')
  /** The tabulation's breaks, in whose order (up, NULL first) the groups come out. */
  const breaks: string[] = []
  let scope = grouped ? groupScope(select, items, aggs, rows, ops, names, breaks) : withSharedItems(rows, exprs, ops, names)
  if (select.having !== null) ops.push({ kind: 'Sel', cond: truth(select.having, scope), loc: LOC })

  const wins: (SqlExpr & { k: 'win' })[] = []
  for (const x of [...exprs, ...select.orderBy.map((o) => o.expr)]) windowsOf(x, wins)
  if (wins.length > 0) scope = windowScope(scope, wins, ops, names)

  // The result columns: a plain column keeps its name where it can, anything else is a willbe.
  const columns: string[] = []
  const cols: SourceColumn[] = []
  // A result column shows NULL and '' alike: its value may leave '' where it means the empty text
  // (not in a subquery, whose values the outer query reads, nor where rows are compared or ordered).
  const lax = top && !select.distinct && select.orderBy.length === 0
  for (const item of items) {
    const v = item.val ?? value(item.expr!, scope, lax)
    const name = v.e.kind === 'Col' && !columns.includes(v.e.name) ? v.e.name : names.next('c')
    if (name !== (v.e.kind === 'Col' ? v.e.name : null)) ops.push(willbe(name, v.e))
    columns.push(name)
    const sqlName = item.alias ?? (item.expr?.k === 'col' ? item.expr.name.slice(item.expr.name.lastIndexOf('.') + 1) : null)
    cols.push({ name: sqlName, val: { ...v, e: colRef(name) }, ...(item.expr?.k === 'null' ? { nullLiteral: true } : {}) })
  }
  if (select.distinct) {
    const cnt = names.next('n')
    ops.push(tabu(columns, 'none', [{ fun: 'cnt', source: null, weight: null, name: cnt, meta: META, loc: LOC }]))
  }
  if (select.orderBy.length > 0) {
    const keys: SortKey[] = []
    for (const key of select.orderBy) {
      const col = orderColumn(key.expr, items, cols, scope, ops, names, select.distinct)
      keys.push(...orderKeys(col, key.desc, key.nulls, ops, names))
    }
    // Groups already come out in the order of their keys: ORDER BY the leading keys, up, needs no sort.
    const sorted = keys.every((k, i) => k.dir === 'up' && k.col === breaks[i])
    if (!sorted) ops.push({ kind: 'Sort', keys, loc: LOC })
  }
  limitRows(select, ops)
  return { ops, cols, aliases: items.map((i) => i.alias) }
}

/**
 * The SELECT with its FROM items joined by JOIN … ON, and the order in which they are joined (by
 * their place in FROM): a comma join's items as comma-joins.ts orders them, WHERE's equalities
 * that join them become their ON conditions.
 */
function asJoins(select: SqlSelect, fromTables: readonly PlanTable[]): { select: SqlSelect & { joins: readonly SqlJoin[] }; order: readonly number[] } {
  const joins = select.joins
  if (!joins.some((j) => j.kind === 'comma')) return { select: { ...select, joins: joins as readonly SqlJoin[] }, order: fromTables.map((_, i) => i) }
  const { order, ons, where } = commaJoinOrder(fromTables, select.where)
  const inner = order.slice(1).map((at, i): SqlJoin => ({ kind: 'inner', source: joins[at - 1].source, alias: joins[at - 1].alias, on: ons[i] }))
  return { select: { ...select, joins: inner, where }, order }
}

function limitRows(q: { readonly limit: number | null; readonly offset: number }, ops: Op[]): void {
  if (q.limit !== null) ops.push(rowNumbers('<=', q.offset + q.limit))
  if (q.offset > 0) ops.push(rowNumbers('>', q.offset))
}

/**
 * `a UNION ALL b …`: each SELECT's columns renamed alike (u0, u1, …) and kept alone, the later
 * ones `<merge>`d below the first (matched by name), then ORDER BY, which names result columns
 * by number or by the first SELECT's names, and LIMIT.
 */
function planUnion(u: SqlUnion, ctx: Context): Planned {
  const arms = u.arms.map((a) => planSelect(a, ctx))
  const width = arms[0].cols.length
  if (arms.some((a) => a.cols.length !== width)) throw outside('UNION ALL of SELECTs with different numbers of columns')
  const out = arms[0].cols.map(() => ctx.names.next('u'))
  const vals = out.map((name, c) =>
    unionVal(
      arms.map((a) => a.cols[c]),
      name,
    ),
  )
  const renamed = (a: Planned): Op[] => [
    ...a.cols.map((c, i) => willbe(out[i], armValue(c, vals[i]))),
    { kind: 'Colord', cols: out, hide: [], hard: true, loc: LOC },
  ]
  const ops: Op[] = [...arms[0].ops, ...renamed(arms[0])]
  for (const arm of arms.slice(1)) {
    const base = arm.ops[0]
    if (base?.kind !== 'Base') throw outside('a compound SELECT of something without a table')
    ops.push({ kind: 'Merge', table2: base.table, ops: [...arm.ops.slice(1), ...renamed(arm)], loc: LOC })
  }
  const cols = out.map((name, i) => ({ name: arms[0].cols[i].name, val: vals[i].val }))
  if (u.orderBy.length > 0) {
    const keys: SortKey[] = []
    for (const key of u.orderBy) {
      const at = unionColumn(key.expr, arms[0].cols)
      if (cols[at].val.t === 'text') ctx.uses.textOrder = true
      keys.push(...orderKeys(out[at], key.desc, key.nulls, ops, ctx.names))
    }
    ops.push({ kind: 'Sort', keys, loc: LOC })
  }
  limitRows(u, ops)
  return { ops, cols, aliases: arms[0].aliases }
}

const doubles = (v: Val): Expr => (v.intCarried ? { kind: 'Call', name: '$num', args: [v.e], loc: LOC } : v.e)

/** One SELECT's column as the UNION ALL's: a NULL written out takes the column's kind. */
function armValue(c: SourceColumn, union: { val: Val; asDoubles: boolean }): Expr {
  if (c.nullLiteral === true && union.val.t !== 'text') return { kind: 'Bin', op: '/', left: zero, right: zero, loc: LOC }
  return union.asDoubles ? doubles(c.val) : c.val.e
}

const zero: Expr = { kind: 'Num', value: 0, int: false, loc: LOC }

/**
 * One column of a UNION ALL from its value in each SELECT: text in all or numbers in all (a NULL
 * written out fits either, as SQLite's values carry their own types).
 */
function unionVal(cols: readonly SourceColumn[], name: string): { val: Val; asDoubles: boolean } {
  const typed = cols.filter((c) => c.nullLiteral !== true).map((c) => c.val)
  const vals = typed.length > 0 ? typed : cols.map((c) => c.val)
  const text = vals.some((v) => v.t === 'text')
  if (text && !vals.every((v) => v.t === 'text')) throw outside('UNION ALL of text and numbers in one column')
  const t = vals.every((v) => v.t === vals[0].t) ? vals[0].t : 'num'
  // Int columns merge with int columns; with anything else (a NULL written out too), all as doubles.
  // 64-bit integers merge only with 64-bit integers.
  const wide = vals.every((v) => v.wide === true)
  const ints = vals.every((v) => v.intCarried && (v.wide === true) === wide) && typed.length === cols.length
  const val: Val = {
    e: colRef(name),
    t,
    intCarried: ints,
    bound: Math.max(...vals.map((v) => v.bound)),
    ...(vals.every((v) => v.date) ? { date: true } : {}),
    ...(ints && wide ? { wide: true } : {}),
  }
  return { val, asDoubles: !text && !ints }
}

/** A compound's ORDER BY term: a result column's number, or a name of the first SELECT's (SQLite looks there first). */
function unionColumn(x: SqlExpr, first: readonly SourceColumn[]): number {
  if (x.k === 'int') {
    if (x.v < 1 || x.v > first.length) throw outside('ORDER BY a column number out of range')
    return x.v - 1
  }
  if (x.k === 'col' && !x.name.includes('.')) {
    const at = first.findIndex((c) => c.name !== null && c.name.toLowerCase() === x.name.toLowerCase())
    if (at >= 0 && first.findIndex((c, i) => i > at && c.name !== null && c.name.toLowerCase() === x.name.toLowerCase()) < 0) return at
  }
  throw outside('a compound ORDER BY other than result columns')
}

/** A select list item: an expression, or a column `*` stands for (its value already known). */
interface Item {
  readonly expr: SqlExpr | null
  readonly val: Val | null
  readonly alias: string | null
  readonly star: boolean
}

/**
 * The row scope with the computed values that WHERE shares with the rest of the query
 * (`WHERE amount / qty > 40` and `avg(amount / qty)`) made once, as willbes before the WHERE,
 * instead of once for the condition and again for the result.
 */
function withShared(rows: Scope, select: SqlSelect, exprs: readonly SqlExpr[], ops: Op[], names: Names): Scope {
  if (select.where === null) return rows
  const elsewhere = new Set<string>()
  const collect = (x: SqlExpr): void => {
    if (isComputed(x)) elsewhere.add(JSON.stringify(x))
    forEachChild(x, collect)
  }
  for (const x of [...exprs, ...select.groupBy, ...select.orderBy.map((o) => o.expr)]) collect(x)
  if (select.having !== null) collect(select.having)
  return hoisting(rows, [select.where], (x, key) => isComputed(x) && elsewhere.has(key) && !containsAggregate(x), ops, names)
}

/**
 * The row scope with the computed values that several select-list items share (`qty * price` in
 * `qty * price AS gross, qty * price - amount AS net`) made once, as willbes after the WHERE.
 */
function withSharedItems(rows: Scope, exprs: readonly SqlExpr[], ops: Op[], names: Names): Scope {
  const seen = new Map<string, number>()
  const count = (x: SqlExpr): void => {
    if (isComputed(x) && !containsAggregate(x) && !containsWindow(x)) seen.set(JSON.stringify(x), (seen.get(JSON.stringify(x)) ?? 0) + 1)
    forEachChild(x, count)
  }
  for (const x of exprs) count(x)
  return hoisting(rows, exprs, (_, key) => (seen.get(key) ?? 0) > 1, ops, names)
}

/**
 * `base` with the subexpressions of `roots` that `wanted` picks made once each, as willbes, where
 * they first appear (outermost first), and found by `match` after.
 */
function hoisting(base: Scope, roots: readonly SqlExpr[], wanted: (x: SqlExpr, key: string) => boolean, ops: Op[], names: Names): Scope {
  const shared = new Map<string, Val>()
  const scope: Scope = { ...base, match: (x) => shared.get(JSON.stringify(x)) ?? base.match(x) }
  const hoist = (x: SqlExpr): void => {
    const key = JSON.stringify(x)
    if (!shared.has(key) && wanted(x, key)) {
      const v = value(x, scope)
      // Already a column (made by an earlier hoisting): read it as it is.
      if (v.e.kind === 'Col') {
        shared.set(key, v)
        return
      }
      const name = names.next('e')
      ops.push(willbe(name, v.e))
      shared.set(key, { ...v, e: colRef(name) })
      return
    }
    forEachChild(x, hoist)
  }
  for (const x of roots) hoist(x)
  return scope
}

/** A value worth computing once: arithmetic, a function, a CASE. */
const isComputed = (x: SqlExpr): boolean => x.k === 'arith' || x.k === 'neg' || x.k === 'call' || x.k === 'case'

/**
 * ORDER BY's term as a column: a result column by number or alias (SQLite looks there first),
 * else the expression computed. After DISTINCT only result columns are left.
 */
function orderColumn(x: SqlExpr, items: readonly Item[], cols: readonly SourceColumn[], scope: Scope, ops: Op[], names: Names, distinct: boolean): string {
  const result = (at: number): string => {
    if (cols[at].val.t === 'text') scope.uses.textOrder = true
    return (cols[at].val.e as { name: string }).name
  }
  if (x.k === 'int') {
    if (x.v < 1 || x.v > cols.length) throw outside('ORDER BY a column number out of range')
    return result(x.v - 1)
  }
  if (x.k === 'col' && !x.name.includes('.')) {
    const at = items.findIndex((i) => i.alias !== null && i.alias.toLowerCase() === x.name.toLowerCase())
    if (at >= 0) return result(at)
  }
  const same = items.findIndex((i) => i.expr !== null && sameExpr(i.expr, x))
  if (same >= 0) return result(same)
  if (distinct) throw outside('ORDER BY a term not in the result of SELECT DISTINCT')
  // SQLite reads some constant expressions as a column number (it folds `(2.25 IS NOT NULL)` to
  // 1, the first result column): a constant term is left to it.
  if (!readsColumns(x)) throw outside('ORDER BY a constant')
  const v = value(x, scope)
  if (v.t === 'text') scope.uses.textOrder = true
  if (v.e.kind === 'Col') return v.e.name
  const name = names.next('o')
  ops.push(willbe(name, v.e))
  return name
}

/**
 * The grouped query's scope: the GROUP BY keys (by number, by alias, or as expressions) and
 * the aggregates as columns of a `<tabu>`, added to `ops`. A column that is not a key cannot be
 * read after grouping (SQLite would take it from an arbitrary row).
 */
/** @param breaks filled with the tabulation's break columns */
function groupScope(select: SqlSelect, items: readonly Item[], aggs: readonly SqlExpr[], rows: Scope, ops: Op[], names: Names, breaks: string[]): Scope {
  const keyExprs = select.groupBy.map((g) => groupKeyExpr(g, items, rows))
  const keyVals: Val[] = []
  for (const k of keyExprs) {
    if (containsAggregate(k)) throw outside('an aggregate in GROUP BY')
    const v = value(k, rows)
    // Groups come out in key order.
    if (v.t === 'text') rows.uses.textOrder = true
    const name = v.e.kind === 'Col' && !breaks.includes(v.e.name) ? v.e.name : names.next('g')
    if (v.e.kind !== 'Col' || name !== v.e.name) ops.push(willbe(name, v.e))
    breaks.push(name)
    keyVals.push({ ...v, e: colRef(name) })
  }
  // group_concat visits rows in the table's order; over a join or a subquery the order would be theirs.
  if ((select.joins.length > 0 || select.source.k !== 'table') && aggs.some((a) => a.k === 'agg' && a.fn === 'group_concat'))
    throw outside('group_concat over a join or a subquery')
  const tcols: Tcol[] = []
  const aggVals = aggs.map((a) => aggregate(a as SqlExpr & { k: 'agg' }, rows, tcols, names))
  // A GROUP BY without aggregates still groups: a <tabu> needs a summary, so it counts (unread).
  if (tcols.length === 0) tcols.push({ fun: 'cnt', source: null, weight: null, name: names.next('n'), meta: META, loc: LOC })
  ops.push(tabu(breaks, 'up', tcols))
  return {
    uses: rows.uses,
    match(x) {
      const key = keyExprs.findIndex((k) => sameExpr(k, x))
      if (key >= 0) return keyVals[key]
      const agg = aggs.findIndex((a) => sameExpr(a, x))
      return agg >= 0 ? aggVals[agg] : null
    },
    column(name) {
      const v = rows.column(name)
      const key = keyVals.findIndex((_, i) => {
        const k = keyExprs[i]
        return k.k === 'col' && (rows.column(k.name).e as { name: string }).name === (v.e as { name: string }).name
      })
      if (key < 0) throw outside(`the column ${name}, neither grouped nor aggregated`)
      return keyVals[key]
    },
  }
}

/** GROUP BY's term: a result column by number, or by alias when no table column has that name. */
function groupKeyExpr(g: SqlExpr, items: readonly Item[], rows: Scope): SqlExpr {
  if (g.k === 'int') {
    if (g.v < 1 || g.v > items.length) throw outside('GROUP BY a column number out of range')
    return items[g.v - 1].expr!
  }
  if (g.k === 'col' && !g.name.includes('.')) {
    const at = items.findIndex((i) => i.alias !== null && i.alias.toLowerCase() === g.name.toLowerCase())
    if (at >= 0) {
      let isColumn = true
      try {
        rows.column(g.name)
      } catch {
        isColumn = false
      }
      if (isColumn) throw outside('GROUP BY a name that is both a column and an alias')
      return items[at].expr!
    }
  }
  // As in ORDER BY, SQLite may read a constant expression as a column number.
  if (!readsColumns(g)) throw outside('GROUP BY a constant')
  return g
}

/** An aggregate as tabu columns, and its value read from them. */
function aggregate(a: SqlExpr & { k: 'agg' }, rows: Scope, tcols: Tcol[], names: Names): Val {
  const tcol = (fun: string, source: Expr | null): Expr => {
    const name = names.next('a')
    tcols.push({ fun, source, weight: null, name, meta: META, loc: LOC })
    return colRef(name)
  }
  if (a.arg === null) return { e: tcol('cnt', null), t: 'int', intCarried: true, bound: INT32 }
  if (a.arg.k === 'null') throw outside(`${a.fn}(NULL)`)
  if (a.fn === 'group_concat') {
    // The separator rides as the weight, a text constant ('' is the engine's N/A, and reads as '').
    const sep: Expr = { kind: 'Str', value: a.sep ?? ',', loc: LOC }
    const name = names.next('a')
    tcols.push({ fun: '$group_concat', source: textOf(a.arg, rows, 'group_concat'), weight: sep, name, meta: META, loc: LOC })
    return { e: colRef(name), t: 'text', intCarried: false, bound: 0 }
  }
  const v = value(a.arg, rows)
  switch (a.fn) {
    case 'count':
      return { e: tcol(a.distinct ? 'ucnt' : 'cntnna', v.e), t: 'int', intCarried: true, bound: INT32 }
    case 'min':
    case 'max': {
      if (v.t === 'text') rows.uses.textOrder = true
      // A tabulation's extremes of 64-bit integers are exact within 2^53 only (else refused): past it, declined.
      const col = tcol(a.fn, v.wide === true ? { kind: 'Call', name: '$exact', args: [v.e], loc: LOC } : v.e)
      return { ...v, e: col }
    }
  }
  if (v.t === 'text') throw outside(`${a.fn} of text`)
  // Summaries read a 64-bit integer as its nearest double: $num declines past 2^53 instead.
  const source = v.wide === true ? asDoubles(v) : v.e
  if (a.fn === 'avg') return { e: tcol('avg', source), t: 'real', intCarried: false, bound: Infinity }
  if (a.fn === 'total') return { e: tcol('sum', source), t: 'real', intCarried: false, bound: Infinity }
  // sum() of no values is NULL; of integers, an integer (exact below 2^53, else declined).
  const sum = tcol('$sum', source)
  return {
    e: v.t === 'real' ? sum : { kind: 'Call', name: '$exact', args: [sum], loc: LOC },
    t: v.t,
    intCarried: false,
    bound: v.t === 'int' ? 2 ** 53 : Infinity,
  }
}
