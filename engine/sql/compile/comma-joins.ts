/**
 * `FROM a, b, c WHERE …` read as the inner joins it means: each item after the first is joined by
 * WHERE's equalities between one of its columns and a value of the items already joined, as
 * `JOIN … ON` would join it (sources.ts, linkOf). An inner join's ON and its WHERE select the same
 * rows, so those equalities move into the ON of the join they connect and the rest stay in WHERE.
 * Items are joined in FROM order where they can be, else as soon as an equality connects them
 * (`FROM a, b, c WHERE c.x = a.y AND b.x = c.y` joins c, then b). An item that no such equality
 * connects would be a cross join, which a link cannot make: the query runs on sql.js.
 */
import { outside, type SqlExpr } from './ir.js'
import { forEachChild } from './plan-kit.js'
import { tableOf, type PlanTable } from './sources.js'

export interface CommaJoinOrder {
  /** The FROM items (by their place in FROM) in the order they are joined; the first item first. */
  readonly order: readonly number[]
  /** The ON condition of each joined item, in `order` (without the first). */
  readonly ons: readonly SqlExpr[]
  /** WHERE without the equalities that became ON conditions; null when none is left. */
  readonly where: SqlExpr | null
}

/** @param tables the FROM items, in FROM order */
export function commaJoinOrder(tables: readonly PlanTable[], where: SqlExpr | null): CommaJoinOrder {
  let conjuncts = where === null ? [] : conjunctsOf(where)
  // Each equality's ways of joining, found once (names resolved once, not once per step).
  const links = new Map(conjuncts.map((c) => [c, joinsOf(c, tables)]))
  const order = [0]
  const ons: SqlExpr[] = []
  while (order.length < tables.length) {
    let joined = false
    for (let t = 1; t < tables.length && !joined; t++) {
      if (order.includes(t)) continue
      const on = conjuncts.filter((c) => links.get(c)!.some((j) => j.item === t && j.reads.every((r) => order.includes(r))))
      if (on.length === 0) continue
      order.push(t)
      ons.push(on.reduce((l, r): SqlExpr => ({ k: 'and', l, r })))
      conjuncts = conjuncts.filter((c) => !on.includes(c))
      joined = true
    }
    if (!joined) throw outside('a comma join of an item that no equality of WHERE connects to the others')
  }
  return { order, ons, where: conjuncts.length === 0 ? null : conjuncts.reduce((l, r): SqlExpr => ({ k: 'and', l, r })) }
}

function conjunctsOf(x: SqlExpr): SqlExpr[] {
  return x.k === 'and' ? [...conjunctsOf(x.l), ...conjunctsOf(x.r)] : [x]
}

/**
 * How `c` may join an item to others: an equality with a bare column of the item on one side and
 * on the other a value that reads columns of other items only (`reads`: joined before it). A
 * constant is a condition on the item alone, which WHERE keeps; text equal to a number is left to
 * WHERE too (the link declines it).
 */
function joinsOf(c: SqlExpr, tables: readonly PlanTable[]): { item: number; reads: number[] }[] {
  if (c.k !== 'cmp' || c.op !== '=') return []
  const out: { item: number; reads: number[] }[] = []
  for (const [side, other] of [
    [c.l, c.r],
    [c.r, c.l],
  ]) {
    if (side.k !== 'col') continue
    const item = tableOf(tables, side.name)
    const reads = tablesRead(other, tables)
    if (item === null || reads === null || reads.length === 0 || reads.includes(item)) continue
    if (other.k === 'col' && isText(side, tables) !== isText(other, tables)) continue
    out.push({ item, reads })
  }
  return out
}

/** The items whose columns `x` reads, or null when it reads a name that is no one item's. */
function tablesRead(x: SqlExpr, tables: readonly PlanTable[]): number[] | null {
  const read: number[] = []
  let unknown = false
  const visit = (e: SqlExpr): void => {
    if (e.k === 'col') {
      const t = tableOf(tables, e.name)
      if (t === null) unknown = true
      else read.push(t)
    } else if (e.k === 'agg' || e.k === 'win') unknown = true
    else forEachChild(e, visit)
  }
  visit(x)
  return unknown ? null : read
}

function isText(col: SqlExpr & { k: 'col' }, tables: readonly PlanTable[]): boolean {
  const t = tableOf(tables, col.name)!
  const bare = col.name.slice(col.name.lastIndexOf('.') + 1).toLowerCase()
  return tables[t].cols.some((c) => c.name?.toLowerCase() === bare && c.val.t === 'text')
}
