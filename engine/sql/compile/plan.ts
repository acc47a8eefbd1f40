/**
 * A SELECT of the subset (ir.ts) as the operations the macro language runs: `<base>`, a `<sel>`
 * for WHERE, `<willbe>`s for computed values, a `<tabu>` for GROUP BY and the aggregates (groups
 * in SQLite's order: keys ascending, NULL first), a `<sel>` for HAVING, `<sort>` for ORDER BY,
 * row-number selections for LIMIT and OFFSET, and a `<colord>` of the result columns. Being
 * operations, it splits over workers, stops, and reports progress like any macro query.
 */
import type { BreakSpec, Expr, Loc, Op, SortKey, Tcol } from '../../ast.js'
import type { ColumnSpec } from '../../../shared/table.js'
import { textOf, truth, value, type Scope, type SqlType, type Val } from './expr.js'
import { outside, type SqlExpr, type SqlJoin, type SqlSelect } from './ir.js'

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
}

const LOC: Loc = { line: 1, col: 1 }
const INT32 = 2 ** 31
const meta = {}

const sameExpr = (a: SqlExpr, b: SqlExpr): boolean => JSON.stringify(a) === JSON.stringify(b)

/** Whether an expression reads a column or an aggregate (else it is a constant). */
const readsColumns = (x: SqlExpr): boolean => JSON.stringify(x).includes('"k":"col"') || containsAggregate(x)

function containsAggregate(x: SqlExpr): boolean {
  const found: SqlExpr[] = []
  aggregatesOf(x, found)
  return found.length > 0
}

function aggregatesOf(x: SqlExpr, out: SqlExpr[]): void {
  if (x.k === 'agg') {
    if (x.arg !== null && containsAggregate(x.arg)) throw outside('an aggregate inside an aggregate')
    if (!out.some((a) => sameExpr(a, x))) out.push(x)
    return
  }
  for (const v of Object.values(x)) {
    if (Array.isArray(v)) for (const item of v) visitAny(item, out)
    else visitAny(v, out)
  }
}

function visitAny(v: unknown, out: SqlExpr[]): void {
  if (typeof v !== 'object' || v === null) return
  if ('k' in v) aggregatesOf(v as SqlExpr, out)
  else for (const w of Object.values(v)) visitAny(w, out)
}

/** A table of the query as the plan sees it: the engine names of its columns, by SQL name. */
interface PlanTable {
  readonly path: string
  /** What `q.col` may call it: its alias, else the last part of its path (case-insensitive). */
  readonly qualifier: string
  readonly specs: readonly ColumnSpec[]
  /** Engine name of each column, by lower-cased SQL name: a joined table's carry a suffix. */
  readonly engineNames: ReadonlyMap<string, string>
  /** The link's suffix for a joined table; '' for the first. */
  readonly suffix: string
}

function planTable(path: string, alias: string | null, specs: readonly ColumnSpec[], index: number): PlanTable {
  const suffix = index === 0 ? '' : `_sqlj${index}`
  const qualifier = (alias ?? path.slice(path.lastIndexOf('.') + 1)).toLowerCase()
  return { path, qualifier, specs, suffix, engineNames: new Map(specs.map((c) => [c.name.toLowerCase(), (c.name + suffix).toLowerCase()])) }
}

/** The tables' columns by lower-cased name (SQL names are case-insensitive); an unqualified name must be in one table. */
function tableScope(tables: readonly PlanTable[]): Scope {
  return {
    uses: { textOrder: false },
    match: () => null,
    column(name) {
      const dot = name.lastIndexOf('.')
      const bare = name.slice(dot + 1).toLowerCase()
      const candidates = dot >= 0 ? tables.filter((t) => t.qualifier === name.slice(0, dot).toLowerCase()) : tables.filter((t) => t.engineNames.has(bare))
      if (candidates.length !== 1) throw outside(`the name ${name}`)
      const t = candidates[0]
      const spec = t.specs.find((c) => c.name.toLowerCase() === bare)
      if (spec === undefined) throw outside(`the name ${name}`)
      const v = columnVal(
        t.engineNames.get(bare)!,
        spec.type === 'float' ? 'real' : spec.type === 'text' ? 'text' : 'int',
        spec.type !== 'float' && spec.type !== 'text',
      )
      return spec.type === 'date' ? { ...v, date: true } : v
    },
  }
}

/**
 * A join as a `<link>`: a link brings the FIRST matching row, a join every one, so the link is
 * marked as SQL's (`sqlJoin`: a repeated key declines the plan at run time, and a NULL key
 * matches nothing, where a link matches N/A with N/A). ON must be equalities between a column of
 * the joined table and a column of an earlier one.
 */
function linkOf(join: SqlJoin, tables: readonly PlanTable[], at: number): Op {
  const joined = tables[at]
  const scope = tableScope(tables.slice(0, at + 1))
  /** Which of the tables so far a name means (as tableScope resolves it). */
  const owner = (name: string): number => {
    const dot = name.lastIndexOf('.')
    const bare = name.slice(dot + 1).toLowerCase()
    return tables.slice(0, at + 1).findIndex((t) => (dot >= 0 ? t.qualifier === name.slice(0, dot).toLowerCase() : t.engineNames.has(bare)))
  }
  const conjuncts: SqlExpr[] = []
  const flatten = (x: SqlExpr): void => {
    if (x.k === 'and') {
      flatten(x.l)
      flatten(x.r)
    } else conjuncts.push(x)
  }
  flatten(join.on)
  const col: string[] = []
  const col2: string[] = []
  for (const c of conjuncts) {
    if (c.k !== 'cmp' || c.op !== '=' || c.l.k !== 'col' || c.r.k !== 'col') throw outside('a join condition other than equal columns')
    const sides = [c.l.name, c.r.name].map((name) => ({ v: scope.column(name), mine: owner(name) === at }))
    const theirs = sides.find((x) => x.mine)
    const ours = sides.find((x) => !x.mine)
    if (theirs === undefined || ours === undefined) throw outside('a join condition not between the joined table and an earlier one')
    if ((theirs.v.t === 'text') !== (ours.v.t === 'text')) throw outside('a join of text with a number')
    col.push((ours.v.e as { name: string }).name)
    // The foreign worksheet's own names (its columns carry no suffix there).
    col2.push((theirs.v.e as { name: string }).name.slice(0, -joined.suffix.length))
  }
  return {
    kind: 'Link',
    table2: joined.path,
    ops: [],
    col,
    col2,
    cols: joined.specs.map((c) => c.name.toLowerCase()),
    suffix: joined.suffix,
    type: join.kind === 'inner' ? 'select' : 'exact',
    label: '',
    loc: LOC,
    sqlJoin: true,
  }
}

function columnVal(name: string, t: SqlType, intCarried: boolean): Val {
  return { e: { kind: 'Col', name: name.toLowerCase(), loc: LOC }, t, intCarried, bound: t === 'int' ? INT32 : t === 'real' ? Infinity : 0 }
}

/** @param specs the columns of each table the query reads, by lower-cased path */
export function planSelect(select: SqlSelect, specs: ReadonlyMap<string, readonly ColumnSpec[]>): SqlPlan {
  const specsOf = (path: string): readonly ColumnSpec[] => {
    const found = specs.get(path.toLowerCase())
    if (found === undefined) throw outside(`the table ${path}`)
    return found
  }
  const tables = [planTable(select.table.toLowerCase(), select.alias, specsOf(select.table), 0)]
  select.joins.forEach((j, i) => tables.push(planTable(j.table.toLowerCase(), j.alias, specsOf(j.table), i + 1)))
  if (new Set(tables.map((t) => t.qualifier)).size !== tables.length) throw outside('two tables by the same name')
  const names = new Names(new Set(tables.flatMap((t) => [...t.engineNames.values()])))
  const ops: Op[] = [{ kind: 'Base', table: tables[0].path, loc: LOC }]
  select.joins.forEach((j, i) => ops.push(linkOf(j, tables, i + 1)))
  const items = select.items.flatMap((item) =>
    item === 'star'
      ? tables.flatMap((t) => t.specs.map((s) => ({ expr: { k: 'col', name: `${t.qualifier}.${s.name}` } as SqlExpr, alias: s.name, star: true })))
      : [{ ...item, star: false }],
  )
  const rows = withShared(tableScope(tables), select, items, ops, names)
  if (select.where !== null) {
    if (containsAggregate(select.where)) throw outside('an aggregate in WHERE')
    ops.push({ kind: 'Sel', cond: truth(select.where, rows), loc: LOC })
  }
  const aggs: SqlExpr[] = []
  for (const item of items) aggregatesOf(item.expr, aggs)
  if (select.having !== null) aggregatesOf(select.having, aggs)
  for (const key of select.orderBy) aggregatesOf(key.expr, aggs)
  const grouped = select.groupBy.length > 0 || aggs.length > 0
  if (!grouped && select.having !== null) throw outside('HAVING without GROUP BY')
  const scope = grouped ? groupScope(select, items, aggs, rows, ops, names) : rows

  if (select.having !== null) ops.push({ kind: 'Sel', cond: truth(select.having, scope), loc: LOC })

  // The result columns: a plain column keeps its name where it can, anything else is a willbe.
  const columns: string[] = []
  const resultVals: Val[] = []
  // A result column shows NULL and '' alike: its value may leave '' where it means the empty text.
  const lax = !select.distinct && select.orderBy.length === 0
  for (const item of items) {
    const v = value(item.expr, scope, lax)
    const name = v.e.kind === 'Col' && !columns.includes(v.e.name) ? v.e.name : names.next('c')
    if (name !== (v.e.kind === 'Col' ? v.e.name : null)) ops.push(willbe(name, v.e))
    columns.push(name)
    resultVals.push(v)
  }
  if (select.distinct) {
    const cnt = names.next('n')
    ops.push(tabu(columns, 'none', [{ fun: 'cnt', source: null, weight: null, name: cnt, meta, loc: LOC }]))
  }
  if (select.orderBy.length > 0) {
    const keys: SortKey[] = []
    for (const key of select.orderBy) {
      const col = orderColumn(key.expr, items, resultVals, columns, scope, ops, names, select.distinct)
      const nullsDefault = key.desc ? 'last' : 'first'
      if (key.nulls !== null && key.nulls !== nullsDefault) {
        const isNull = names.next('z')
        ops.push(willbe(isNull, { kind: 'Call', name: '$isnull', args: [{ kind: 'Col', name: col, loc: LOC }], loc: LOC }))
        keys.push({ col: isNull, dir: key.nulls === 'last' ? 'up' : 'down' })
      }
      keys.push({ col, dir: key.desc ? 'down' : 'up' })
    }
    ops.push({ kind: 'Sort', keys, loc: LOC })
  }
  if (select.limit !== null) ops.push(rowNumbers('<=', select.offset + select.limit))
  if (select.offset > 0) ops.push(rowNumbers('>', select.offset))
  ops.push({ kind: 'Colord', cols: columns, hide: [], hard: false, loc: LOC })
  return { ops, columns, aliases: items.map((i) => i.alias), textOrder: rows.uses.textOrder }
}

/**
 * The row scope with the computed values that WHERE shares with the rest of the query
 * (`WHERE amount / qty > 40` and `avg(amount / qty)`) made once, as willbes before the WHERE,
 * instead of once for the condition and again for the result.
 */
function withShared(rows: Scope, select: SqlSelect, items: readonly { expr: SqlExpr }[], ops: Op[], names: Names): Scope {
  if (select.where === null) return rows
  const elsewhere = new Set<string>()
  const collect = (x: SqlExpr): void => {
    if (isComputed(x)) elsewhere.add(JSON.stringify(x))
    forEachChild(x, collect)
  }
  for (const x of [...items.map((i) => i.expr), ...select.groupBy, ...select.orderBy.map((o) => o.expr)]) collect(x)
  if (select.having !== null) collect(select.having)
  const shared = new Map<string, Val>()
  const scope: Scope = { ...rows, match: (x) => shared.get(JSON.stringify(x)) ?? null }
  const hoist = (x: SqlExpr): void => {
    const key = JSON.stringify(x)
    if (isComputed(x) && elsewhere.has(key) && !shared.has(key) && !containsAggregate(x)) {
      const v = value(x, rows)
      const name = names.next('e')
      ops.push(willbe(name, v.e))
      shared.set(key, { ...v, e: { kind: 'Col', name, loc: LOC } })
      return
    }
    forEachChild(x, hoist)
  }
  hoist(select.where)
  return scope
}

/** A value worth computing once: arithmetic, a function, a CASE. */
const isComputed = (x: SqlExpr): boolean => x.k === 'arith' || x.k === 'neg' || x.k === 'call' || x.k === 'case'

function forEachChild(x: SqlExpr, f: (child: SqlExpr) => void): void {
  for (const v of Object.values(x)) {
    if (Array.isArray(v)) for (const item of v) visitChild(item, f)
    else visitChild(v, f)
  }
}

function visitChild(v: unknown, f: (child: SqlExpr) => void): void {
  if (typeof v !== 'object' || v === null) return
  if ('k' in v) f(v as SqlExpr)
  else for (const w of Object.values(v)) visitChild(w, f)
}

/** Names for the plan's own columns, none of them a column of the table. */
class Names {
  private n = 0
  constructor(private readonly taken: ReadonlySet<string>) {}
  next(kind: string): string {
    for (;;) {
      const name = `sql_${kind}${this.n++}`
      if (!this.taken.has(name)) return name
    }
  }
}

const willbe = (name: string, e: Expr): Op => ({ kind: 'Willbe', name, value: e, meta, loc: LOC })

function rowNumbers(op: '<=' | '>', n: number): Op {
  const bound: Expr = { kind: 'Num', value: n, int: n < INT32, loc: LOC }
  return { kind: 'Sel', cond: { kind: 'Bin', op, left: { kind: 'Call', name: 'i_', args: [], loc: LOC }, right: bound, loc: LOC }, loc: LOC }
}

function tabu(breaks: readonly string[], sort: 'up' | 'none', tcols: Tcol[]): Op {
  const breakSpecs: BreakSpec[] = breaks.map((col) => ({ col, sort, naorder: 'first', loc: LOC }))
  return { kind: 'Tabu', breaks, cbreaks: [], breakSpecs, tcols, label: '', loc: LOC }
}

/**
 * ORDER BY's term as a column: a result column by number or alias (SQLite looks there first),
 * else the expression computed. After DISTINCT only result columns are left.
 */
function orderColumn(
  x: SqlExpr,
  items: readonly { expr: SqlExpr; alias: string | null }[],
  vals: readonly Val[],
  columns: readonly string[],
  scope: Scope,
  ops: Op[],
  names: Names,
  distinct: boolean,
): string {
  const result = (at: number): string => {
    if (vals[at].t === 'text') scope.uses.textOrder = true
    return columns[at]
  }
  if (x.k === 'int') {
    if (x.v < 1 || x.v > columns.length) throw outside('ORDER BY a column number out of range')
    return result(x.v - 1)
  }
  if (x.k === 'col' && !x.name.includes('.')) {
    const at = items.findIndex((i) => i.alias !== null && i.alias.toLowerCase() === x.name.toLowerCase())
    if (at >= 0) return result(at)
  }
  const same = items.findIndex((i) => sameExpr(i.expr, x))
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
function groupScope(
  select: SqlSelect,
  items: readonly { expr: SqlExpr; alias: string | null }[],
  aggs: readonly SqlExpr[],
  rows: Scope,
  ops: Op[],
  names: Names,
): Scope {
  const keyExprs = select.groupBy.map((g) => groupKeyExpr(g, items, rows))
  const keyVals: Val[] = []
  const breaks: string[] = []
  for (const k of keyExprs) {
    if (containsAggregate(k)) throw outside('an aggregate in GROUP BY')
    const v = value(k, rows)
    // Groups come out in key order.
    if (v.t === 'text') rows.uses.textOrder = true
    const name = v.e.kind === 'Col' && !breaks.includes(v.e.name) ? v.e.name : names.next('g')
    if (v.e.kind !== 'Col' || name !== v.e.name) ops.push(willbe(name, v.e))
    breaks.push(name)
    keyVals.push({ ...v, e: { kind: 'Col', name, loc: LOC } })
  }
  if (select.joins.length > 0 && aggs.some((a) => a.k === 'agg' && a.fn === 'group_concat'))
    throw outside('group_concat over a join (its order would be the join’s)')
  const tcols: Tcol[] = []
  const aggVals = aggs.map((a) => aggregate(a as SqlExpr & { k: 'agg' }, rows, tcols, names))
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
function groupKeyExpr(g: SqlExpr, items: readonly { expr: SqlExpr; alias: string | null }[], rows: Scope): SqlExpr {
  if (g.k === 'int') {
    if (g.v < 1 || g.v > items.length) throw outside('GROUP BY a column number out of range')
    return items[g.v - 1].expr
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
      return items[at].expr
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
    tcols.push({ fun, source, weight: null, name, meta, loc: LOC })
    return { kind: 'Col', name, loc: LOC }
  }
  if (a.arg === null) return { e: tcol('cnt', null), t: 'int', intCarried: true, bound: INT32 }
  if (a.arg.k === 'null') throw outside(`${a.fn}(NULL)`)
  if (a.fn === 'group_concat') {
    // The separator rides as the weight, a text constant ('' is the engine's N/A, and reads as '').
    const sep: Expr = { kind: 'Str', value: a.sep ?? ',', loc: LOC }
    const name = names.next('a')
    tcols.push({ fun: '$group_concat', source: textOf(a.arg, rows, 'group_concat'), weight: sep, name, meta, loc: LOC })
    return { e: { kind: 'Col', name, loc: LOC }, t: 'text', intCarried: false, bound: 0 }
  }
  const v = value(a.arg, rows)
  switch (a.fn) {
    case 'count':
      return { e: tcol(a.distinct ? 'ucnt' : 'cntnna', v.e), t: 'int', intCarried: true, bound: INT32 }
    case 'min':
    case 'max': {
      if (v.t === 'text') rows.uses.textOrder = true
      const col = tcol(a.fn, v.e)
      return { ...v, e: col }
    }
  }
  if (v.t === 'text') throw outside(`${a.fn} of text`)
  if (a.fn === 'avg') return { e: tcol('avg', v.e), t: 'real', intCarried: false, bound: Infinity }
  if (a.fn === 'total') return { e: tcol('sum', v.e), t: 'real', intCarried: false, bound: Infinity }
  // sum() of no values is NULL; of integers, an integer (exact below 2^53, else declined).
  const sum = tcol('$sum', v.e)
  return {
    e: v.t === 'real' ? sum : { kind: 'Call', name: '$exact', args: [sum], loc: LOC },
    t: v.t,
    intCarried: false,
    bound: v.t === 'int' ? 2 ** 53 : Infinity,
  }
}
