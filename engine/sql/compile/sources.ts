/**
 * What FROM and JOIN give a query to read: the columns of each item (a table, a subquery or a
 * WITH name) as the plan sees them, names resolved against them as SQLite resolves them, and a
 * join made a `<link>`.
 */
import type { Op } from '../../ast.js'
import type { ColumnSpec } from '../../../shared/table.js'
import type { Scope, SqlType, Uses, Val } from './expr.js'
import { outside, type SqlExpr, type SqlJoin } from './ir.js'
import { colRef, INT32, LOC } from './plan-kit.js'

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

/** A stored column's value: dates are SQLite integers the engine's arithmetic would treat as dates. */
export function storedColumn(name: string, spec: ColumnSpec): Val {
  const t: SqlType = spec.type === 'float' ? 'real' : spec.type === 'text' ? 'text' : 'int'
  const v: Val = { e: colRef(name), t, intCarried: t === 'int', bound: t === 'int' ? INT32 : t === 'real' ? Infinity : 0 }
  return spec.type === 'date' ? { ...v, date: true } : v
}

/** Where a name (`col` or `q.col`) is among the tables: exactly one column, or `outside`. */
function resolve(tables: readonly PlanTable[], name: string): { table: number; col: number } {
  const dot = name.lastIndexOf('.')
  const bare = name.slice(dot + 1).toLowerCase()
  const qualifier = dot >= 0 ? name.slice(0, dot).toLowerCase() : null
  const hits: { table: number; col: number }[] = []
  tables.forEach((t, table) => {
    if (qualifier !== null && t.qualifier !== qualifier) return
    t.cols.forEach((c, col) => {
      if (c.name !== null && c.name.toLowerCase() === bare) hits.push({ table, col })
    })
  })
  // None: not a column here; several: SQLite's "ambiguous column name" (or a subquery's repeated name).
  if (hits.length !== 1) throw outside(`the name ${name}`)
  return hits[0]
}

/** The tables' columns by name (SQL names are case-insensitive). */
export function tableScope(tables: readonly PlanTable[], uses: Uses): Scope {
  return {
    uses,
    match: () => null,
    column(name) {
      const at = resolve(tables, name)
      return tables[at.table].cols[at.col].val
    },
  }
}

/**
 * A join as a `<link>` to the joined item's worksheet (its table, after the operations of its
 * subquery, if any): a link brings the FIRST matching row, a join every one, so the link is
 * marked as SQL's (`sqlJoin`: a repeated key declines the plan at run time, and a NULL key
 * matches nothing, where a link matches N/A with N/A). ON must be equalities between a column of
 * the joined item and a column of an earlier one.
 * @param made the operations that make the joined item's worksheet, from its `<base>`
 */
export function linkOf(join: SqlJoin, tables: readonly PlanTable[], at: number, made: readonly Op[], suffix: string): Op {
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
  const sofar = tables.slice(0, at + 1)
  for (const c of conjuncts) {
    if (c.k !== 'cmp' || c.op !== '=' || c.l.k !== 'col' || c.r.k !== 'col') throw outside('a join condition other than equal columns')
    const sides = [c.l.name, c.r.name].map((name) => resolve(sofar, name))
    const theirs = sides.find((s) => s.table === at)
    const ours = sides.find((s) => s.table !== at)
    if (theirs === undefined || ours === undefined) throw outside('a join condition not between the joined item and an earlier one')
    const ourVal = tables[ours.table].cols[ours.col].val
    if ((tables[at].cols[theirs.col].val.t === 'text') !== (ourVal.t === 'text')) throw outside('a join of text with a number')
    col.push((ourVal.e as { name: string }).name)
    col2.push(tables[at].foreign[theirs.col])
  }
  return {
    kind: 'Link',
    table2: base.table,
    ops: made.slice(1),
    col,
    col2,
    cols: tables[at].foreign,
    suffix,
    type: join.kind === 'inner' ? 'select' : 'exact',
    label: '',
    loc: LOC,
    sqlJoin: true,
  }
}
