/**
 * Deciding whether a checked query can run as row ranges of its base table on several workers at
 * once, and how the parts' answers are put together. Pure: it reads the operations only.
 *
 * A plannable query is `<base>`, then a prefix of operations that treat each row on its own (sel,
 * willbe of row-local expressions, link, colord, col), where a willbe may also be one of the
 * decomposable g_ functions (a group step: per-group partials from every part, merged, then
 * handed back to the parts as values), then either nothing (the parts' rows are concatenated in
 * range order) or a `<tabu>` of decomposable summaries followed by anything (the parts' partials
 * are merged into the tabulation, and the rest runs on that small worksheet).
 *
 * The prefix may hold one `<merge>` whose own operations treat each row on its own: the merged
 * worksheet is the base rows then the foreign rows, so its rows are split as two row spaces, the
 * base table's ranges first, then the foreign table's (a foreign part runs the operations before
 * the merge over no base rows, and a base part merges no foreign rows).
 */
import type { RunTask } from '../../shared/protocol.js'
import type { Expr, Op, OpKind, OpOf, Tcol } from '../ast.js'
import { checkedOpsOf, type CheckedOp, type CheckedOps } from '../check/index.js'
import { accumulatorOf } from '../summaries/index.js'
import { rowWiseExpr } from '../functions/index.js'

/** g_ functions whose per-group value is a merge of per-range partials. */
export const GROUP_FUNS = ['g_sum', 'g_cnt', 'g_avg', 'g_min', 'g_max', 'g_first', 'g_last'] as const
export type GroupFun = (typeof GROUP_FUNS)[number]

/** One aggregate the parts compute per group: the name of an accumulating summary (summaries/). */
export type AggFun = string

export interface AggSpec {
  readonly fun: AggFun
  /** The summarised value; null for a row count. */
  readonly source: Expr | null
  /** The weight of a weighted summary (wsum, wavg), else null. */
  readonly weight: Expr | null
}

/** A willbe of a g_ function, computed in two phases. */
export interface GroupStep {
  /** Position of the willbe in `prefix`. */
  readonly at: number
  readonly fun: GroupFun
  /** G: the group columns (none: one group). */
  readonly keys: readonly string[]
  /** S: the selection, or null for every row. */
  readonly select: Expr | null
  readonly agg: AggSpec
}

export type Tail =
  /** The prefix's rows, concatenated in range order. */
  | { readonly kind: 'rows' }
  /** A tabulation merged from per-range partials; `rest` runs on its result. */
  | { readonly kind: 'tabu'; readonly op: CheckedOp & { kind: 'Tabu' }; readonly aggs: readonly AggSpec[]; readonly rest: CheckedOps }

/**
 * A willbe of any other g_ function over named groups (a running sum, a rank, a shift, an ordered
 * first …): its value on a row depends on the rows of that row's group alone, so it is computed
 * on partitions of the base table by the group's key values, each partition holding whole groups,
 * each into a shared column of one value per base row that the parts then read.
 */
export interface PartitionStep {
  /** Position of the willbe in `prefix`. */
  readonly at: number
  /** G: the group columns, which must be columns of the base table (the parts decline otherwise). */
  readonly keys: readonly string[]
}

/** The `<merge>` of a plan's prefix. */
export interface MergeStep {
  /** Position of the merge in `prefix`. */
  readonly at: number
  /** The foreign table, whose rows are split after the base table's. */
  readonly table: string
}

export interface ParallelPlan {
  /** The base table whose rows are split. */
  readonly table: string
  /** Operations after `<base>` that each part runs on its rows. */
  readonly prefix: CheckedOps
  readonly groupSteps: readonly GroupStep[]
  /** Never with group steps or a merge: a plan has one kind of phase before its tail. */
  readonly partitionSteps: readonly PartitionStep[]
  readonly merge: MergeStep | null
  readonly tail: Tail
}

/**
 * True when the plan sums per group. Such a plan always runs through the planner, also on one
 * worker, so that its floating-point sums are added in the same fixed blocks whatever the split.
 */
export const summarises = (plan: ParallelPlan): boolean => plan.groupSteps.length > 0 || plan.tail.kind === 'tabu'

/**
 * True when the prefix keeps every row of the base table and adds none, so each part's rows are
 * known ahead.
 */
export const keepsRows = (plan: ParallelPlan): boolean => plan.merge === null && plan.prefix.every((op) => roleOf(op) !== 'filter')

/**
 * What an operation can be in a split run:
 * - `keep`: a prefix step that treats each row on its own and keeps every row;
 * - `filter`: a prefix step that treats each row on its own and may leave rows out;
 * - `group`: a willbe that may be a group step (groupStep decides);
 * - `tabu`: the tabulation that may end the prefix (tabuAggs decides);
 * - `merge`: a merge that may be in the prefix (mergeStep decides);
 * - `whole`: the query runs whole on one worker.
 */
type Role = 'keep' | 'filter' | 'group' | 'tabu' | 'merge' | 'whole'

/**
 * The one decision per operation kind. Typed over every kind, so a new operation fails to
 * compile until it says how (or whether) it splits.
 */
const ROLES: { readonly [K in OpKind]: (op: Extract<Op, { kind: K }>) => Role } = {
  Base: () => 'whole',
  Table: () => 'whole',
  Sel: (op) => (rowWiseExpr(op.cond) ? 'filter' : 'whole'),
  Willbe: (op) => (rowWiseExpr(op.value) ? 'keep' : 'group'),
  Colord: () => 'keep',
  ColMeta: () => 'keep',
  Cols: () => 'keep',
  // An expanding link repeats rows: the query runs whole rather than reason about row counts per part.
  Link: (op) => (op.type === 'expand' ? 'whole' : op.type === 'exact' || op.type === 'asof' ? 'keep' : 'filter'),
  Sort: () => 'whole',
  Tabu: () => 'tabu',
  Merge: () => 'merge',
}

const roleOf = (op: Op): Role => (ROLES[op.kind] as (op: Op) => Role)(op)

const AGG_OF: Record<GroupFun, AggFun> = { g_sum: 'sum', g_cnt: 'cnt', g_avg: 'avg', g_min: 'min', g_max: 'max', g_first: 'first', g_last: 'last' }

function groupStep(op: OpOf<'Willbe'>, at: number): GroupStep | null {
  const v = op.value
  if (v.kind !== 'Call' || !(GROUP_FUNS as readonly string[]).includes(v.name)) return null
  const fun = v.name as GroupFun
  const [g = null, s = null] = v.args
  const keys = g === null ? [] : g.kind === 'Col' ? [g.name] : g.kind === 'ColList' ? g.names : null
  if (keys === null || !rowWiseExpr(s)) return null
  if (fun === 'g_cnt') return v.args.length <= 2 ? { at, fun, keys, select: s, agg: { fun: 'cnt', source: null, weight: null } } : null
  // g_first and g_last take an order O: only worksheet order (O omitted) is the order of the ranges.
  const positional = fun === 'g_first' || fun === 'g_last'
  const x = v.args[positional ? 3 : 2] ?? null
  if (x === null || !rowWiseExpr(x) || v.args.length !== (positional ? 4 : 3) || (positional && v.args[2] !== null)) return null
  const agg: AggFun = AGG_OF[fun]
  return { at, fun, keys, select: s, agg: { fun: agg, source: x, weight: null } }
}

/**
 * A willbe of a g_ function computed on partitions by its groups (PartitionStep), or null. The
 * partitions are made from the base table, so the group columns must be its own: not made by a
 * willbe or brought by a link before.
 */
function partitionStep(op: OpOf<'Willbe'>, before: readonly CheckedOp[]): PartitionStep | null {
  const v = op.value
  if (v.kind !== 'Call' || !v.name.toLowerCase().startsWith('g_')) return null
  const [g = null, ...rest] = v.args
  const keys = g === null ? [] : g.kind === 'Col' ? [g.name] : g.kind === 'ColList' ? g.names : null
  // One group (no G) cannot be partitioned; the other arguments are column lists (O) or row-wise values.
  if (keys === null || keys.length === 0) return null
  if (!rest.every((a) => a === null || a.kind === 'ColList' || rowWiseExpr(a))) return null
  const made = new Set(before.flatMap((o) => (o.kind === 'Willbe' ? [o.name.toLowerCase()] : [])))
  if (before.some((o) => o.kind === 'Link') || keys.some((k) => made.has(k.toLowerCase()))) return null
  return { at: before.length, keys }
}

function tabuAggs(op: OpOf<'Tabu'>): AggSpec[] | null {
  // A rollup's levels each group the rows anew: it runs whole, on one worker.
  if (op.cbreaks.length > 0 || op.rollup) return null
  const aggs: AggSpec[] = []
  for (const t of op.tcols) {
    const a = tabuAgg(t)
    if (a === null) return null
    aggs.push(a)
  }
  return aggs
}

function tabuAgg(t: Tcol): AggSpec | null {
  const fun = accumulatorOf(t)
  if (fun === null || !rowWiseExpr(t.source) || !rowWiseExpr(t.weight)) return null
  return { fun, source: fun === 'cnt' ? null : t.source, weight: t.weight }
}

/**
 * The merge at `at` of the prefix, when it may split: the first merge, after no group step (a
 * foreign part would have no rows of its own for it), its own operations each treating a row on
 * its own.
 */
function mergeStep(op: OpOf<'Merge'>, at: number, earlier: MergeStep | null, groupSteps: readonly GroupStep[]): MergeStep | null {
  if (earlier !== null || groupSteps.length > 0) return null
  const rowWise = op.ops.every((inner) => {
    const role = roleOf(inner)
    return role === 'keep' || role === 'filter'
  })
  return rowWise ? { at, table: op.table2 } : null
}

/** An expression as text without its source positions, to tell two selections apart. */
const shape = (e: Expr | null): string => JSON.stringify(e, (key, value: unknown) => (key === 'loc' ? undefined : value))

/**
 * The end (exclusive) of the batch of group steps that starts at step `k`. The steps after it
 * that are the willbes right after it, over the same groups and selection, and read none of the
 * batch's own columns, are computed in the same phase: one pass of partials over the parts and
 * one merge for all of them (`g_sum(store;;x)` then `g_cnt(store;)` is one phase, not two).
 */
export function batchEnd(plan: ParallelPlan, k: number): number {
  const first = plan.groupSteps[k]
  const made = new Set<string>()
  const nameOf = (step: GroupStep) => (plan.prefix[step.at] as CheckedOp & { kind: 'Willbe' }).name.toLowerCase()
  made.add(nameOf(first))
  let end = k + 1
  for (; end < plan.groupSteps.length; end++) {
    const step = plan.groupSteps[end]
    const reads = new Set<string>(step.keys)
    rowWiseExpr(step.select, reads)
    rowWiseExpr(step.agg.source, reads)
    const together =
      step.at === plan.groupSteps[end - 1].at + 1 &&
      step.keys.length === first.keys.length &&
      step.keys.every((key, i) => key === first.keys[i]) &&
      shape(step.select) === shape(first.select) &&
      ![...reads].some((name) => made.has(name.toLowerCase()))
    if (!together) break
    made.add(nameOf(step))
  }
  return end
}

/** The first step of the batch that holds step `k`. */
export function batchStart(plan: ParallelPlan, k: number): number {
  let start = 0
  for (let end = batchEnd(plan, 0); end <= k; end = batchEnd(plan, end)) start = end
  return start
}

/** The plan, or null when the query must run whole on one worker. */
export function planParallel(ops: CheckedOps): ParallelPlan | null {
  const base = ops[0]
  if (base === undefined || base.kind !== 'Base') return null
  const prefix: CheckedOp[] = []
  const groupSteps: GroupStep[] = []
  const partitionSteps: PartitionStep[] = []
  let merge: MergeStep | null = null
  let i = 1
  for (; i < ops.length; i++) {
    const op = ops[i]
    const role = roleOf(op)
    if (role === 'group') {
      // Only a Willbe has that role (ROLES).
      const willbe = op as OpOf<'Willbe'>
      // A decomposable g_ is a group step, unless partitions are made anyway: then it is one more.
      const step = partitionSteps.length === 0 ? groupStep(willbe, prefix.length) : null
      const partitioned = step === null && groupSteps.length === 0 && merge === null ? partitionStep(willbe, prefix) : null
      if (step !== null) groupSteps.push(step)
      else if (partitioned !== null) partitionSteps.push(partitioned)
      else return null
    } else if (role === 'merge') {
      // Only a Merge has that role (ROLES).
      merge = partitionSteps.length > 0 ? null : mergeStep(op as OpOf<'Merge'>, prefix.length, merge, groupSteps)
      if (merge === null) return null
    } else if (role !== 'keep' && role !== 'filter') break
    prefix.push(op)
  }
  if (i === ops.length) return { table: base.table, prefix, groupSteps, partitionSteps, merge, tail: { kind: 'rows' } }
  if (roleOf(ops[i]) !== 'tabu') return null
  // Only a Tabu has that role (ROLES).
  const next = ops[i] as CheckedOp & { kind: 'Tabu' }
  const aggs = tabuAggs(next)
  if (aggs === null) return null
  return { table: base.table, prefix, groupSteps, partitionSteps, merge, tail: { kind: 'tabu', op: next, aggs, rest: ops.slice(i + 1) } }
}

/**
 * The task with its plan (RunTask.plan): made once, on the gateway, and carried by every part and
 * merge task made from it, so that no worker plans the query again.
 */
export function withPlan(task: RunTask): RunTask {
  if (task.plan !== undefined) return task
  const plan = planParallel(checkedOpsOf(task))
  return plan === null ? task : { ...task, plan }
}

/** The plan a task carries, or null for a query that runs whole in the interpreter. */
export const planOf = (task: RunTask): ParallelPlan | null => (task.plan as ParallelPlan | undefined) ?? null
