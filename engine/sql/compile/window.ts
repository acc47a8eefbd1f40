/**
 * Window functions as engine operations. A function over a window is one of the SQL window
 * kernels (functions/sql/window.ts), given PARTITION BY and ORDER BY as keys: it visits the rows
 * by partition and in the window's order, a row's peers (rows equal in every key; without ORDER
 * BY, the whole partition) together, SQLite's default frame running from the partition's first
 * row to the row's last peer. A window of neither (`OVER ()`) is the whole table, which the
 * engine's group functions read.
 *
 * row_number, lag and lead depend on the order among peers, which SQLite leaves to its sorter:
 * where a window orders rows that tie, they decline at run time and sql.js answers.
 */
import type { Expr, Op, SortKey } from '../../ast.js'
import { value, type Scope, type Val } from './expr.js'
import { outside, type SqlExpr } from './ir.js'
import { callOf, colRef, INT32, LOC, orderKeys, sameExpr, willbe, type Names } from './plan-kit.js'

type Win = SqlExpr & { k: 'win' }

const num = (v: number): Expr => ({ kind: 'Num', value: v, int: true, loc: LOC })
const nullReal = (): Expr => ({
  kind: 'Bin',
  op: '/',
  left: { kind: 'Num', value: 0, int: false, loc: LOC },
  right: { kind: 'Num', value: 0, int: false, loc: LOC },
  loc: LOC,
})
const doubles = (v: Val): Expr => (v.intCarried ? callOf('$num', v.e) : v.e)
const notNull = (e: Expr): Expr => ({ kind: 'Not', operand: callOf('$isnull', e), loc: LOC })
const cols = (names: readonly string[]): Expr | null =>
  names.length === 0 ? null : names.length === 1 ? colRef(names[0]) : { kind: 'ColList', names, loc: LOC }

/** One window: PARTITION BY (for the group functions and the window kernels), and its sort keys. */
interface Window {
  /** PARTITION BY's columns (null: one partition). */
  readonly g: Expr | null
  /** The window kernels' D and K… arguments: a letter per key (`p` partition, `u`/`d` order), and the keys. */
  readonly order: readonly Expr[]
  /** Whether the window kernels compute it (false: neither PARTITION BY nor ORDER BY, the group functions do). */
  readonly kernels: boolean
}

/**
 * The scope with the window functions of the query computed as columns (operations added to
 * `ops`), each found by `match` as the expression it was written as.
 */
export function windowScope(scope: Scope, wins: readonly Win[], ops: Op[], names: Names): Scope {
  const computed: { win: Win; val: Val }[] = []
  // Functions over the same window share its columns.
  const byWindow = new Map<string, Win[]>()
  for (const w of wins) {
    const key = JSON.stringify([w.partition, w.order])
    byWindow.set(key, [...(byWindow.get(key) ?? []), w])
  }
  for (const group of byWindow.values()) {
    const window = prepare(group[0], scope, ops, names)
    for (const w of group) {
      const v = windowValue(w, window, scope)
      const name = names.next('w')
      ops.push(willbe(name, v.e))
      computed.push({ win: w, val: { ...v, e: colRef(name) } })
    }
  }
  return {
    ...scope,
    match: (x) => computed.find((c) => sameExpr(c.win, x))?.val ?? scope.match(x),
  }
}

/** A value as a column of its own (a willbe unless it is one). */
function asColumn(x: SqlExpr, scope: Scope, ops: Op[], names: Names): { name: string; val: Val } {
  const v = value(x, scope)
  if (v.e.kind === 'Col') return { name: v.e.name, val: v }
  const name = names.next('p')
  ops.push(willbe(name, v.e))
  return { name, val: v }
}

/** PARTITION BY and ORDER BY as columns, ORDER BY as sort keys (NULLS FIRST/LAST adding theirs). */
function prepare(w: Win, scope: Scope, ops: Op[], names: Names): Window {
  const partition = w.partition.map((p) => asColumn(p, scope, ops, names).name)
  const g = cols(partition)
  if (w.order.length === 0 && partition.length === 0) return { g, order: [], kernels: false }
  // Partitions in any order (only their grouping counts), so no text order is used for them.
  const keys: SortKey[] = partition.map((col) => ({ col, dir: 'up' }))
  for (const o of w.order) {
    const { name, val } = asColumn(o.expr, scope, ops, names)
    if (val.t === 'text') scope.uses.textOrder = true
    keys.push(...orderKeys(name, o.desc, o.nulls, ops, names))
  }
  const letters = keys.map((k, i) => (i < partition.length ? 'p' : k.dir === 'down' ? 'd' : 'u'))
  const dirs: Expr = { kind: 'Str', value: letters.join(''), loc: LOC }
  return { g, order: [dirs, ...keys.map((k) => colRef(k.col))], kernels: true }
}

function windowValue(w: Win, win: Window, scope: Scope): Val {
  const arg = (i: number): Val => {
    const x = w.args[i]
    if (x.k === 'null') throw outside(`NULL in ${w.fn}`)
    return value(x, scope)
  }
  const numeric = (): Val => {
    const x = arg(0)
    if (x.t === 'text') throw outside(`${w.fn} of text`)
    return x
  }
  /** sum() is an integer over integers (exact below 2^53, else declined), else a real. */
  const summed = (x: Val, sum: Expr): Val =>
    x.t === 'real' ? { e: sum, t: 'real', intCarried: false, bound: Infinity } : { e: callOf('$exact', sum), t: x.t, intCarried: false, bound: 2 ** 53 }
  if (!win.kernels) return wholePartition(w, win.g, arg, numeric, summed)
  // row_number, lag and lead follow an order, which SQLite would take from its scan.
  if (w.order.length === 0 && (w.fn === 'row_number' || w.fn === 'lag' || w.fn === 'lead')) throw outside(`${w.fn} without ORDER BY`)
  const over = (fn: string, ...args: Expr[]): Expr => callOf(fn, ...args, ...win.order)
  switch (w.fn) {
    case 'row_number':
      return { e: over('$wrownum'), t: 'int', intCarried: true, bound: INT32 }
    case 'rank':
      return { e: over('$wrank'), t: 'int', intCarried: true, bound: INT32 }
    case 'count':
      return { e: over('$wsum', w.args.length === 0 ? num(1) : notNull(arg(0).e)), t: 'int', intCarried: false, bound: INT32 }
    case 'avg':
      return { e: over('$wavg', numeric().e), t: 'real', intCarried: false, bound: Infinity }
    case 'sum': {
      const x = numeric()
      return summed(x, over('$wsum', x.e))
    }
    case 'lag':
    case 'lead':
      return shifted(w, scope, over)
  }
}

/** A window function over the whole table (no PARTITION BY, no ORDER BY), from the engine's group functions. */
function wholePartition(w: Win, g: Expr | null, arg: (i: number) => Val, numeric: () => Val, summed: (x: Val, sum: Expr) => Val): Val {
  const count = (x: Expr): Expr => callOf('g_sum', g, null, notNull(x))
  switch (w.fn) {
    case 'rank':
      // Every row of a partition is a peer of every other.
      return { e: num(1), t: 'int', intCarried: true, bound: 1 }
    case 'count':
      if (w.args.length === 0) return { e: callOf('g_cnt', g, null), t: 'int', intCarried: true, bound: INT32 }
      return { e: count(arg(0).e), t: 'int', intCarried: false, bound: INT32 }
    case 'sum':
    case 'avg': {
      const x = numeric()
      const n = count(x.e)
      const sum = callOf('g_sum', g, null, doubles(x))
      const orNull = (e: Expr): Expr => callOf('if', { kind: 'Bin', op: '>', left: n, right: num(0), loc: LOC }, e, nullReal())
      if (w.fn === 'avg') return { e: orNull({ kind: 'Bin', op: '/', left: sum, right: n, loc: LOC }), t: 'real', intCarried: false, bound: Infinity }
      return summed(x, orNull(sum))
    }
    default:
      // row_number, lag and lead follow an order, which SQLite would take from its scan.
      throw outside(`${w.fn} without ORDER BY`)
  }
}

/** lag(x, n, default) and lead: x from n rows before (after) in the partition, else the default. */
function shifted(w: Win, scope: Scope, over: (fn: string, ...args: Expr[]) => Expr): Val {
  const x = w.args[0].k === 'null' ? null : value(w.args[0], scope)
  if (x === null) throw outside(`${w.fn} of NULL`)
  const n = w.args.length > 1 ? w.args[1] : ({ k: 'int', v: 1 } as const)
  if (n.k !== 'int' || n.v < 0 || n.v >= INT32) throw outside(`${w.fn} by other than a whole number written out`)
  const fallback = w.args.length > 2 && w.args[2].k !== 'null' ? value(w.args[2], scope) : null
  if (fallback !== null && (fallback.t === 'text') !== (x.t === 'text')) throw outside(`${w.fn} with a default of another kind`)
  const step = w.fn === 'lag' ? -n.v : n.v
  // The row itself: no order among peers matters.
  if (step === 0) return x
  const moved = (e: Expr): Expr => over('$wshift', e, num(step))
  if (fallback === null) return { ...x, e: moved(x.e) }
  // An integer and a real, or an int column and doubles: both as doubles (the values are SQLite's).
  const mixed = x.t !== fallback.t || x.intCarried !== fallback.intCarried
  return {
    e: callOf('if', over('$wbeyond', num(step)), mixed ? doubles(fallback) : fallback.e, moved(mixed ? doubles(x) : x.e)),
    t: x.t === fallback.t ? x.t : 'num',
    intCarried: !mixed && x.intCarried,
    bound: Math.max(x.bound, fallback.bound),
  }
}
