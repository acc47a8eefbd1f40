/**
 * What every part of the planner (plan.ts, sources.ts, window.ts) builds with: operations of the
 * macro language made by hand, names for the plan's own columns, and walks over SQL expressions.
 */
import type { BreakSpec, Expr, Loc, Op, SortKey, Tcol } from '../../ast.js'
import { outside, type SqlExpr } from './ir.js'

export const LOC: Loc = { line: 1, col: 1 }
export const INT32 = 2 ** 31
export const META = {}

export const colRef = (name: string): Expr => ({ kind: 'Col', name, loc: LOC })
export const callOf = (name: string, ...args: (Expr | null)[]): Expr => ({ kind: 'Call', name, args, loc: LOC })
export const willbe = (name: string, e: Expr): Op => ({ kind: 'Willbe', name, value: e, meta: META, loc: LOC })

/** Keeps the rows whose number (1-based, i_) is `op` n: LIMIT and OFFSET. */
export function rowNumbers(op: '<=' | '>', n: number): Op {
  const bound: Expr = { kind: 'Num', value: n, int: n < INT32, loc: LOC }
  return { kind: 'Sel', cond: { kind: 'Bin', op, left: callOf('i_'), right: bound, loc: LOC }, loc: LOC }
}

export function tabu(breaks: readonly string[], sort: 'up' | 'none', tcols: Tcol[]): Op {
  const breakSpecs: BreakSpec[] = breaks.map((col) => ({ col, sort, naorder: 'first', loc: LOC }))
  return { kind: 'Tabu', breaks, cbreaks: [], breakSpecs, tcols, label: '', loc: LOC }
}

/** Names for the plan's own columns, none of them a column of a table. */
export class Names {
  private n = 0
  constructor(private readonly taken: ReadonlySet<string>) {}
  next(kind: string): string {
    for (;;) {
      const name = `sql_${kind}${this.n++}`
      if (!this.taken.has(name)) return name
    }
  }
}

/**
 * The sort keys of one ORDER BY term over column `col`. The engine's sort puts N/A first going up
 * and last going down, as SQLite orders NULL; NULLS FIRST or LAST against that adds a key before.
 */
export function orderKeys(col: string, desc: boolean, nulls: 'first' | 'last' | null, ops: Op[], names: Names): SortKey[] {
  const keys: SortKey[] = []
  if (nulls !== null && nulls !== (desc ? 'last' : 'first')) {
    const isNull = names.next('z')
    ops.push(willbe(isNull, callOf('$isnull', colRef(col))))
    keys.push({ col: isNull, dir: nulls === 'last' ? 'up' : 'down' })
  }
  keys.push({ col, dir: desc ? 'down' : 'up' })
  return keys
}

/**
 * Each expression's text, made once: a query of n aggregates compares every expression the plan
 * reads with each of them (ClickBench's Q30 has 90), and making the texts again for every pair
 * took 60 ms of a 70 ms compile. Expressions are immutable, so a text never goes stale.
 */
const texts = new WeakMap<SqlExpr, string>()

function textOf(x: SqlExpr): string {
  let t = texts.get(x)
  if (t === undefined) texts.set(x, (t = JSON.stringify(x)))
  return t
}

export const sameExpr = (a: SqlExpr, b: SqlExpr): boolean => a === b || textOf(a) === textOf(b)

/** Whether an expression reads a column or an aggregate (else it is a constant). */
export const readsColumns = (x: SqlExpr): boolean => JSON.stringify(x).includes('"k":"col"') || containsAggregate(x)

export function containsAggregate(x: SqlExpr): boolean {
  const found: SqlExpr[] = []
  aggregatesOf(x, found)
  return found.length > 0
}

/** The distinct aggregates in `x`, added to `out` (window functions' arguments included). */
export function aggregatesOf(x: SqlExpr, out: SqlExpr[]): void {
  if (x.k === 'agg') {
    if (x.arg !== null && containsAggregate(x.arg)) throw outside('an aggregate inside an aggregate')
    if (!out.some((a) => sameExpr(a, x))) out.push(x)
    return
  }
  forEachChild(x, (child) => aggregatesOf(child, out))
}

/** The distinct window functions in `x`, added to `out`. */
export function windowsOf(x: SqlExpr, out: (SqlExpr & { k: 'win' })[]): void {
  if (x.k === 'win') {
    for (const part of [...x.args, ...x.partition, ...x.order.map((o) => o.expr)]) if (containsWindow(part)) throw outside('a window function inside another')
    if (!out.some((w) => sameExpr(w, x))) out.push(x)
    return
  }
  forEachChild(x, (child) => windowsOf(child, out))
}

export function containsWindow(x: SqlExpr): boolean {
  if (x.k === 'win') return true
  let found = false
  forEachChild(x, (child) => {
    found ||= containsWindow(child)
  })
  return found
}

/** Calls `f` on each expression directly inside `x` (through lists and ORDER BY keys). */
export function forEachChild(x: SqlExpr, f: (child: SqlExpr) => void): void {
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
