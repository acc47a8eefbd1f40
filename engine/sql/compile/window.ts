/**
 * Window functions as the engine's group functions. For each window, the rows are sorted by its
 * ORDER BY (stably, so rows keep their order between windows), and the worksheet order is then
 * the window's: PARTITION BY is the group (G), and a row's peers (rows equal in partition and
 * order keys) are a group of their own. SQLite's default frame runs from the partition's first
 * row to the row's last peer, so a running value over the window is the running value of the
 * engine's group function at the last peer (`g_last` over the peers).
 *
 * row_number, lag and lead depend on the order among peers, which SQLite leaves to its sorter:
 * where a window orders rows that tie, they decline at run time (`$unique`) and sql.js answers.
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

/** One window's groups, once its rows are in its order. */
interface Window {
  /** PARTITION BY's columns (null: one partition). */
  readonly g: Expr | null
  /** The peers: partition and order columns together (null: one group). */
  readonly peers: Expr | null
  readonly ordered: boolean
}

/**
 * The scope with the window functions of the query computed as columns (operations added to
 * `ops`), each found by `match` as the expression it was written as.
 */
export function windowScope(scope: Scope, wins: readonly Win[], ops: Op[], names: Names): Scope {
  const computed: { win: Win; val: Val }[] = []
  // Functions over the same window share its sort.
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

function prepare(w: Win, scope: Scope, ops: Op[], names: Names): Window {
  const partition = w.partition.map((p) => asColumn(p, scope, ops, names).name)
  const order: string[] = []
  const keys: SortKey[] = []
  for (const o of w.order) {
    const { name, val } = asColumn(o.expr, scope, ops, names)
    if (val.t === 'text') scope.uses.textOrder = true
    order.push(name)
    keys.push(...orderKeys(name, o.desc, o.nulls, ops, names))
  }
  if (keys.length > 0) ops.push({ kind: 'Sort', keys, loc: LOC })
  return { g: cols(partition), peers: cols([...partition, ...order]), ordered: order.length > 0 }
}

function windowValue(w: Win, win: Window, scope: Scope): Val {
  const { g, peers } = win
  /** The running value of a group function at the row's last peer, or over the whole partition without ORDER BY. */
  const framed = (running: Expr, whole: Expr): Expr => (win.ordered ? callOf('g_last', peers, null, null, running) : whole)
  const count = (x: Expr): Expr => framed(callOf('g_cumsum', g, null, null, x), callOf('g_sum', g, null, x))
  const rows = (): Expr => framed(callOf('g_cumcnt', g, null, null), callOf('g_cnt', g, null))
  /** The value itself where the window's order leaves no ties, else the plan declined. */
  const untied = (e: Expr): Expr => callOf('$unique', e, callOf('g_cnt', peers, null))
  const arg = (i: number): Val => {
    const x = w.args[i]
    if (x.k === 'null') throw outside(`NULL in ${w.fn}`)
    return value(x, scope)
  }
  switch (w.fn) {
    case 'row_number':
      if (!win.ordered) throw outside('row_number without ORDER BY')
      return { e: untied(callOf('g_cumcnt', g, null, null)), t: 'int', intCarried: true, bound: INT32 }
    case 'rank':
      return { e: callOf('g_first', peers, null, null, callOf('g_cumcnt', g, null, null)), t: 'int', intCarried: true, bound: INT32 }
    case 'count':
      if (w.args.length === 0) return { e: rows(), t: 'int', intCarried: true, bound: INT32 }
      return { e: count(notNull(arg(0).e)), t: 'int', intCarried: false, bound: INT32 }
    case 'sum':
    case 'avg': {
      const x = arg(0)
      if (x.t === 'text') throw outside(`${w.fn} of text`)
      // An integer row by row here and a real there: SQLite's sum changes type as it goes.
      if (x.t === 'num') throw outside(`${w.fn} of values of several types`)
      const n = count(notNull(x.e))
      const sum = framed(callOf('g_cumsum', g, null, null, doubles(x)), callOf('g_sum', g, null, doubles(x)))
      const orNull = (e: Expr): Expr => callOf('if', { kind: 'Bin', op: '>', left: n, right: num(0), loc: LOC }, e, nullReal())
      if (w.fn === 'avg') return { e: orNull({ kind: 'Bin', op: '/', left: sum, right: n, loc: LOC }), t: 'real', intCarried: false, bound: Infinity }
      if (x.t === 'real') return { e: orNull(sum), t: 'real', intCarried: false, bound: Infinity }
      return { e: callOf('$exact', orNull(sum)), t: 'int', intCarried: false, bound: 2 ** 53 }
    }
    case 'lag':
    case 'lead':
      return shifted(w, win, scope, untied)
  }
}

/** lag(x, n, default) and lead: x from n rows before (after) in the partition, else the default. */
function shifted(w: Win, win: Window, scope: Scope, untied: (e: Expr) => Expr): Val {
  if (!win.ordered) throw outside(`${w.fn} without ORDER BY`)
  const x = w.args[0].k === 'null' ? null : value(w.args[0], scope)
  if (x === null) throw outside(`${w.fn} of NULL`)
  const n = w.args.length > 1 ? w.args[1] : ({ k: 'int', v: 1 } as const)
  if (n.k !== 'int' || n.v < 0 || n.v >= INT32) throw outside(`${w.fn} by other than a whole number written out`)
  const fallback = w.args.length > 2 && w.args[2].k !== 'null' ? value(w.args[2], scope) : null
  if (fallback !== null && (fallback.t === 'text') !== (x.t === 'text')) throw outside(`${w.fn} with a default of another kind`)
  const step = w.fn === 'lag' ? -n.v : n.v
  if (step === 0) return x
  const moved = (e: Expr): Expr => callOf('g_rshift', win.g, null, null, e, num(step))
  if (fallback === null) return { ...x, e: untied(moved(x.e)) }
  // An integer and a real, or an int column and doubles: both as doubles (the values are SQLite's).
  const mixed = x.t !== fallback.t || x.intCarried !== fallback.intCarried
  const beyond = callOf('$isnull', callOf('g_rshifti', win.g, null, null, num(step)))
  return {
    e: untied(callOf('if', beyond, mixed ? doubles(fallback) : fallback.e, moved(mixed ? doubles(x) : x.e))),
    t: x.t === fallback.t ? x.t : 'num',
    intCarried: !mixed && x.intCarried,
    bound: Math.max(x.bound, fallback.bound),
  }
}
