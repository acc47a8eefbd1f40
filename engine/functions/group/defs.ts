/**
 * The g_ functions as registry rows. Argument kinds follow the reference exactly: G (group),
 * S (select), O (order) are prepared by the interpreter once; X, W, N, D are values. Every
 * function gives N/A on rows where S = 0 (the §5.2 recommendation).
 */
import { NA_INT, type Column, type ColumnType, type Value } from '../../columns/types.js'
import { callError, constantNumber, constantText, isScalar, requiredValue, valueArg } from '../args.js'
import type { ArgSpec, FunctionDef, KernelArg, KernelContext } from '../types.js'
import { firstError, needNumber, needText, type TypeResult } from '../typing.js'
import { groupsOf, xColumn, type Groups } from './context.js'
import { gEnd, gEndFlag, gNth, gNum, gRshift, gRshifti } from './positional.js'
import { gRank } from './rank.js'
import { gCumavg, gCumcnt, gCumExtreme, gCumrunlen, gCumsum } from './running.js'
import { gSplice } from './splice.js'
import { gTshift, timeKind } from './tshift.js'
import { gMedian, gUcnt, gVariance } from './spread.js'
import { gAvg, gCnt, gExtreme, gPct, gSum, gWavg } from './aggregates.js'

const G: ArgSpec = { kind: 'group', name: 'G', optional: true }
const S: ArgSpec = { kind: 'select', name: 'S', optional: true }
const O: ArgSpec = { kind: 'order', name: 'O', optional: true }
const X: ArgSpec = { kind: 'value', name: 'X' }
const XNUM: ArgSpec = { kind: 'value', name: 'X', types: ['int', 'bigint', 'float', 'date'] }

type Result = 'int' | 'float' | 'text' | 'x'
type Body = (gr: Groups, args: readonly KernelArg[], ctx: KernelContext) => Column

/**
 * One g_ function. `result` 'x' means the type of X; numeric X is checked when `numericX`.
 * @param xAt position of X among the arguments (null when there is none)
 */
function groupFn(name: string, args: ArgSpec[], result: Result, body: Body, doc: string, numericX = false): FunctionDef {
  const hasO = args.some((a) => a.kind === 'order')
  const xAt = args.findIndex((a) => a.kind === 'value' && a.name === 'X')
  return {
    name,
    args,
    result: (types): TypeResult => {
      const x = xAt >= 0 ? (types[xAt] ?? null) : null
      const err = firstError(
        numericX ? needNumber(name, 'X', x) : null,
        ...args.map((a, i) => (a.kind === 'value' && a.name !== 'X' ? argCheck(name, a, types[i] ?? null) : null)),
      )
      if (err) return err
      return result === 'x' ? (x ?? 'int') : result
    },
    kernel: (kargs, ctx) => body(groupsOf(kargs, ctx, { g: 0, s: 1, o: hasO ? 2 : undefined }), kargs, ctx),
    doc,
  }
}

/** Type checks of the extra value arguments (W, N, D). */
function argCheck(fn: string, a: ArgSpec, t: ColumnType | null): { error: string } | null {
  if (a.name === 'D' || a.name === 'TS') return needText(fn, a.name, t)
  if (a.name === 'N' && t === 'float') return { error: `${fn} needs a whole number for N, got a decimal` }
  return needNumber(fn, a.name, t)
}

/** N of g_rshift / g_rshifti: a constant, or a whole-number column (per row). */
function stepArg(v: Value, rows: number, fn: string): number | Int32Array {
  if (isScalar(v)) {
    const n = constantNumber(v, fn, 'N')
    return n === null ? NA_INT : Math.trunc(n)
  }
  const col = xColumn([{ kind: 'value', value: v }], 0, rows, fn, 'N')
  if (col.type !== 'int' && col.type !== 'date') throw callError(`${fn} needs a whole number for N.`)
  return col.data
}

const x = (args: readonly KernelArg[], i: number, ctx: KernelContext, fn: string): Column => xColumn(args, i, ctx.rows, fn)

/** Registry rows of the g_ functions. */
export const GROUP_FUNCTIONS: readonly FunctionDef[] = [
  groupFn('g_sum', [G, S, XNUM], 'float', (gr, a, c) => gSum(gr, x(a, 2, c, 'g_sum')), 'g_sum(G;S;X): sum of X in the group (N/A ignored; 0 when none).', true),
  groupFn('g_cnt', [G, S], 'int', (gr) => gCnt(gr), 'g_cnt(G;S): number of (selected) rows in the group.'),
  groupFn(
    'g_avg',
    [G, S, XNUM],
    'float',
    (gr, a, c) => gAvg(gr, x(a, 2, c, 'g_avg')),
    'g_avg(G;S;X): mean of X in the group (N/A ignored; N/A when none).',
    true,
  ),
  groupFn('g_min', [G, S, X], 'x', (gr, a, c) => gExtreme(gr, x(a, 2, c, 'g_min'), false), 'g_min(G;S;X): smallest X in the group (N/A ignored).'),
  groupFn('g_max', [G, S, X], 'x', (gr, a, c) => gExtreme(gr, x(a, 2, c, 'g_max'), true), 'g_max(G;S;X): largest X in the group (N/A ignored).'),
  groupFn('g_pct', [G, S, XNUM], 'float', (gr, a, c) => gPct(gr, x(a, 2, c, 'g_pct')), 'g_pct(G;S;X): X as a fraction of the group sum of X.', true),
  groupFn(
    'g_wavg',
    [G, S, XNUM, { kind: 'value', name: 'W', types: ['int', 'bigint', 'float', 'date'] }],
    'float',
    (gr, a, c) => gWavg(gr, x(a, 2, c, 'g_wavg'), xColumn(a, 3, c.rows, 'g_wavg', 'W')),
    'g_wavg(G;S;X;W): average of X weighted by W in the group.',
    true,
  ),
  groupFn('g_ucnt', [G, S, X], 'int', (gr, a, c) => gUcnt(gr, x(a, 2, c, 'g_ucnt')), 'g_ucnt(G;S;X): number of distinct non-N/A values of X in the group.'),
  groupFn(
    'g_median',
    [G, S, XNUM],
    'float',
    (gr, a, c) => gMedian(gr, x(a, 2, c, 'g_median')),
    'g_median(G;S;X): median of X in the group (N/A when none).',
    true,
  ),
  groupFn(
    'g_var',
    [G, S, XNUM],
    'float',
    (gr, a, c) => gVariance(gr, x(a, 2, c, 'g_var'), false),
    'g_var(G;S;X): sample variance (n-1) of X in the group.',
    true,
  ),
  groupFn(
    'g_stdev',
    [G, S, XNUM],
    'float',
    (gr, a, c) => gVariance(gr, x(a, 2, c, 'g_stdev'), true),
    'g_stdev(G;S;X): sample standard deviation (n-1) of X in the group.',
    true,
  ),
  groupFn('g_cumcnt', [G, S, O], 'int', (gr) => gCumcnt(gr), 'g_cumcnt(G;S;O): running count 1, 2, 3… in O order within the group.'),
  groupFn(
    'g_cumsum',
    [G, S, O, XNUM],
    'float',
    (gr, a, c) => gCumsum(gr, x(a, 3, c, 'g_cumsum')),
    'g_cumsum(G;S;O;X): running sum of X in O order (N/A counts as 0).',
    true,
  ),
  groupFn('g_cummax', [G, S, O, X], 'x', (gr, a, c) => gCumExtreme(gr, x(a, 3, c, 'g_cummax'), true), 'g_cummax(G;S;O;X): running maximum of X in O order.'),
  groupFn('g_cummin', [G, S, O, X], 'x', (gr, a, c) => gCumExtreme(gr, x(a, 3, c, 'g_cummin'), false), 'g_cummin(G;S;O;X): running minimum of X in O order.'),
  groupFn('g_cumavg', [G, S, O, XNUM], 'float', (gr, a, c) => gCumavg(gr, x(a, 3, c, 'g_cumavg')), 'g_cumavg(G;S;O;X): running mean of X in O order.', true),
  groupFn(
    'g_cumrunlen',
    [G, S, O, XNUM],
    'int',
    (gr, a, c) => gCumrunlen(gr, x(a, 3, c, 'g_cumrunlen')),
    'g_cumrunlen(G;S;O;X): consecutive rows with X true ending at this row, in O order.',
    true,
  ),
  groupFn('g_first', [G, S, O, X], 'x', (gr, a, c) => gEnd(gr, x(a, 3, c, 'g_first'), 'first'), "g_first(G;S;O;X): X of the group's first row in O order."),
  groupFn('g_last', [G, S, O, X], 'x', (gr, a, c) => gEnd(gr, x(a, 3, c, 'g_last'), 'last'), "g_last(G;S;O;X): X of the group's last row in O order."),
  groupFn('g_first1', [G, S, O], 'int', (gr) => gEndFlag(gr, 'first'), "g_first1(G;S;O): 1 on the group's first row in O order, else 0."),
  groupFn('g_last1', [G, S, O], 'int', (gr) => gEndFlag(gr, 'last'), "g_last1(G;S;O): 1 on the group's last row in O order, else 0."),
  groupFn(
    'g_nth',
    [G, S, O, X, { kind: 'value', name: 'N', types: ['int'], constant: true }],
    'x',
    (gr, a, c) => gNth(gr, x(a, 3, c, 'g_nth'), Math.trunc(constantNumber(requiredValue(a, 4, 'g_nth', 'N'), 'g_nth', 'N') ?? 0)),
    "g_nth(G;S;O;X;N): X of the group's Nth row (1-based) in O order.",
  ),
  groupFn('g_num', [G, S, O], 'int', (gr) => gNum(gr), 'g_num(G;S;O): group number 1, 2… in the O order of the groups’ first rows.'),
  groupFn(
    'g_rank',
    [G, S, O, X],
    'int',
    (gr, a, c) => gRank(gr, x(a, 3, c, 'g_rank'), false),
    'g_rank(G;S;O;X): rank of X in the group, largest = 1, ties broken by O.',
  ),
  groupFn(
    'g_rankskip',
    [G, S, X],
    'int',
    (gr, a, c) => gRank(gr, x(a, 2, c, 'g_rankskip'), true),
    'g_rankskip(G;S;X): rank of X in the group, largest = 1, ties share a rank (1,2,2,4).',
  ),
  groupFn(
    'g_rshift',
    [G, S, O, X, { kind: 'value', name: 'N', types: ['int'] }],
    'x',
    (gr, a, c) => gRshift(gr, x(a, 3, c, 'g_rshift'), stepArg(requiredValue(a, 4, 'g_rshift', 'N'), c.rows, 'g_rshift')),
    'g_rshift(G;S;O;X;N): X from N rows later (|N| earlier when N<0) in the group in O order.',
  ),
  groupFn(
    'g_rshifti',
    [G, S, O, { kind: 'value', name: 'N', types: ['int'] }],
    'int',
    (gr, a, c) => gRshifti(gr, stepArg(requiredValue(a, 3, 'g_rshifti', 'N'), c.rows, 'g_rshifti')),
    'g_rshifti(G;S;O;N): zero-based worksheet row number of the row N rows later in the group.',
  ),
  groupFn(
    'g_tshift',
    [
      G,
      S,
      { kind: 'value', name: 'T', types: ['int', 'date', 'float'] },
      { kind: 'value', name: 'TS', types: ['text'], optional: true, constant: true },
      X,
      { kind: 'value', name: 'N', types: ['int'] },
    ],
    'x',
    (gr, a, c) => {
      const ts = valueArg(a, 3)
      const kind = timeKind(ts === null ? null : constantText(ts, 'g_tshift', 'TS'))
      return gTshift(
        gr,
        xColumn(a, 2, c.rows, 'g_tshift', 'T'),
        kind,
        x(a, 4, c, 'g_tshift'),
        stepArg(requiredValue(a, 5, 'g_tshift', 'N'), c.rows, 'g_tshift'),
      )
    },
    "g_tshift(G;S;T;TS;X;N): X from the row of the group whose time T is exactly N periods later (earlier for N<0); TS is the kind of T: 'D', 'M', 'Q', 'T', 'TS', 'TSn', or empty for a plain period number.",
  ),
  groupFn(
    'g_splice',
    [
      G,
      S,
      O,
      X,
      { kind: 'value', name: 'D', types: ['text'], optional: true, constant: true },
      { kind: 'value', name: 'N', types: ['int'], optional: true, constant: true },
    ],
    'text',
    (gr, a, c) => {
      const d = valueArg(a, 4)
      const n = valueArg(a, 5)
      const limit = n === null ? null : constantNumber(n, 'g_splice', 'N')
      return gSplice(gr, x(a, 3, c, 'g_splice'), d === null ? '' : constantText(d, 'g_splice', 'D'), limit === null ? null : Math.max(0, Math.trunc(limit)))
    },
    'g_splice(G;S;O;X;D;N): the group’s X values joined with D in O order, at most N of them.',
  ),
]
