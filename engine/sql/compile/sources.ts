/**
 * What FROM and JOIN give a query to read: the columns of each item (a table, a subquery or a
 * WITH name) as the plan sees them, names resolved against them as SQLite resolves them, and a
 * join made a `<link>`.
 */
import type { Op } from '../../ast.js'
import type { ColumnSpec } from '../../../shared/table.js'
import { value, type Scope, type SqlType, type Uses, type Val } from './expr.js'
import { outside, type SqlExpr, type SqlJoin } from './ir.js'
import { colRef, INT32, LOC, willbe, type Names } from './plan-kit.js'

/** A column a FROM item offers: its SQL name (null when SQLite names it by its text), and its value. */
export interface SourceColumn {
  readonly name: string | null
  /** Its value in the query's worksheet: always a column (`Col`). */
  readonly val: Val
  /** A result column that is NULL written out (`SELECT NULL AS x`), of no type of its own. */
  readonly nullLiteral?: boolean
}

export interface PlanTable {
  /**
   * What `q.col` may call it (lower-cased): its alias, else a table's last path part or a WITH
   * name; null for a subquery without an alias.
   */
  readonly qualifier: string | null
  readonly cols: readonly SourceColumn[]
  /** Engine names of the columns in the worksheet the item is made in (a joined item's before the link's suffix). */
  readonly foreign: readonly string[]
}

/**
 * A stored column's value: dates are SQLite integers the engine's arithmetic would treat as dates;
 * a `j` column holds 64-bit integers, exact in the engine's kernels and read as doubles only
 * through `$num` (expr.ts `wide`).
 */
export function storedColumn(name: string, spec: ColumnSpec): Val {
  if (spec.type === 'bigint') return { e: colRef(name), t: 'int', intCarried: true, bound: BIG, wide: true }
  const t: SqlType = spec.type === 'float' ? 'real' : spec.type === 'text' ? 'text' : 'int'
  const v: Val = { e: colRef(name), t, intCarried: t === 'int', bound: t === 'int' ? INT32 : t === 'real' ? Infinity : 0 }
  return spec.type === 'date' ? { ...v, date: true } : v
}

/** The magnitude of a 64-bit integer is below this. */
const BIG = 2 ** 63

/** A table's column as a source column named `name`, read as `engineName`. */
export function storedSourceColumn(name: string, engineName: string, spec: ColumnSpec): SourceColumn {
  return { name, val: storedColumn(engineName, spec) }
}

type Place = { readonly table: number; readonly col: number }

/** The tables' columns by lower-cased bare name, made once per list of tables (a join of 64 resolves thousands of names). */
const placesByName = new WeakMap<readonly PlanTable[], ReadonlyMap<string, readonly Place[]>>()

function placesOf(tables: readonly PlanTable[]): ReadonlyMap<string, readonly Place[]> {
  let places = placesByName.get(tables)
  if (places === undefined) {
    const made = new Map<string, Place[]>()
    tables.forEach((t, table) =>
      t.cols.forEach((c, col) => {
        if (c.name === null) return
        const bare = c.name.toLowerCase()
        made.set(bare, [...(made.get(bare) ?? []), { table, col }])
      }),
    )
    places = made
    placesByName.set(tables, places)
  }
  return places
}

/** Where a name (`col` or `q.col`) is among the tables: exactly one column, or `outside`. */
function resolve(tables: readonly PlanTable[], name: string): Place {
  const dot = name.lastIndexOf('.')
  const bare = name.slice(dot + 1).toLowerCase()
  const qualifier = dot >= 0 ? name.slice(0, dot).toLowerCase() : null
  const hits = (placesOf(tables).get(bare) ?? []).filter((p) => qualifier === null || tables[p.table].qualifier === qualifier)
  // None: not a column here; several: SQLite's "ambiguous column name" (or a subquery's repeated name).
  if (hits.length !== 1) throw outside(`the name ${name}`)
  return hits[0]
}

/** Which of the tables a name (`col` or `q.col`) is a column of, or null when none or several. */
export function tableOf(tables: readonly PlanTable[], name: string): number | null {
  try {
    return resolve(tables, name).table
  } catch {
    return null
  }
}

/**
 * The tables' columns by name (SQL names are case-insensitive), a name resolved among all of them
 * (as SQLite resolves one: a name two items have is ambiguous) and read from the first `before` only.
 */
export function tableScope(tables: readonly PlanTable[], uses: Uses, before = tables.length): Scope {
  return {
    uses,
    match: () => null,
    column(name) {
      const at = resolve(tables, name)
      if (at.table >= before) throw outside(`the name ${name}, of an item not joined yet`)
      return tables[at.table].cols[at.col].val
    },
  }
}

/**
 * Whether WHERE is never true on a row that joined item `at` did not match, whose columns are
 * then all NULL: one of its conjuncts compares, matches (IN a non-empty list, BETWEEN, LIKE) or
 * orders a bare column of that item, which is NULL there, so the conjunct is NULL, not true.
 */
function rejectsUnmatched(where: SqlExpr | null, tables: readonly PlanTable[], at: number): boolean {
  const ofJoined = (x: SqlExpr): boolean => x.k === 'col' && tableOf(tables, x.name) === at
  const rejects = (x: SqlExpr): boolean => {
    switch (x.k) {
      case 'and':
        return rejects(x.l) || rejects(x.r)
      case 'cmp':
        return ofJoined(x.l) || ofJoined(x.r)
      case 'in':
        return x.list.length > 0 && ofJoined(x.e)
      case 'between':
      case 'like':
        return ofJoined(x.e)
      default:
        return false
    }
  }
  return where !== null && rejects(where)
}

/** A key the engine holds as integers: an int or 64-bit column or literal, not doubles. */
const intKey = (v: Val): boolean => v.t === 'int' && v.intCarried && v.date !== true

/**
 * A join as a `<link>` to the joined item's worksheet (its table, after the operations of its
 * subquery, if any): a link brings the FIRST matching row, a join every one, so the link is
 * marked as SQL's (`sqlJoin`: a repeated key declines the plan at run time, and a NULL key
 * matches nothing, where a link matches N/A with N/A). ON must be equalities between a column of
 * the joined item and a value of the earlier ones (a column, or an expression, computed first
 * as a column of its own: `t.yrmo = o.placed / 100`).
 * @param made the operations that make the joined item's worksheet, from its `<base>`
 * @param ops where a computed key's willbe goes, before the link
 */
export function linkOf(
  join: SqlJoin,
  tables: readonly PlanTable[],
  at: number,
  made: readonly Op[],
  suffix: string,
  ops: Op[],
  names: Names,
  uses: Uses,
  where: SqlExpr | null,
): Op {
  const base = made[0]
  if (base?.kind !== 'Base') throw outside('a join to something without a table')
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
  const earlier = tableScope(tables, uses, at)
  /** The side that is a column of the joined item, or null. */
  const joinedColumn = (x: SqlExpr): number | null => {
    if (x.k !== 'col') return null
    const where = resolve(tables, x.name)
    return where.table === at ? where.col : null
  }
  for (const c of conjuncts) {
    if (c.k !== 'cmp' || c.op !== '=') throw outside('a join condition other than equalities')
    const left = joinedColumn(c.l)
    const right = joinedColumn(c.r)
    if ((left === null) === (right === null)) throw outside('a join condition not between the joined item and the earlier ones')
    const theirs = (left ?? right)!
    // The other side reads the earlier items only (a name of the joined item is not in their scope).
    const ours = value(left === null ? c.l : c.r, earlier)
    const their = tables[at].cols[theirs].val
    if ((their.t === 'text') !== (ours.t === 'text')) throw outside('a join of text with a number')
    // The engine links a 64-bit key with an int key exactly, with doubles only within 2^53 (else an error, not a decline).
    if ((their.wide === true || ours.wide === true) && !(intKey(their) && intKey(ours))) throw outside('a join of a 64-bit integer with a computed or real key')
    let key = ours.e.kind === 'Col' ? ours.e.name : null
    if (key === null) {
      key = names.next('k')
      ops.push(willbe(key, ours.e))
    }
    col.push(key)
    col2.push(tables[at].foreign[theirs])
  }
  return {
    kind: 'Link',
    table2: base.table,
    ops: made.slice(1),
    col,
    col2,
    cols: tables[at].foreign,
    suffix,
    // An inner join drops the rows that match nothing, unless WHERE will (then keeping them until
    // WHERE costs nothing, and selecting the matched ones costs a pass over every column).
    type: join.kind === 'inner' && !rejectsUnmatched(where, tables, at) ? 'select' : 'exact',
    label: '',
    loc: LOC,
    sqlJoin: true,
  }
}
