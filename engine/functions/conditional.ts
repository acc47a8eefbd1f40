/**
 * Conditional functions: if(C1;V1;…;Cn;Vn;D) (first true condition wins; a condition is true
 * when non-zero and not N/A), case(X;V1;R1;…;D) (first Vk equal to X, N/A-safe like `=`; Vk may
 * be a list), between(X;A;B) (A <= X <= B inclusive, 0 when any is N/A). Branch results share
 * one type: int with float is float, text with numbers is an error.
 */
import { NA_INT, type Column, type ColumnType, type Value } from '../columns/types.js'
import { callError, isColumn, isScalar, requiredValue, scalarIsNA } from './args.js'
import { choose } from './choose.js'
import { compare, compareResult } from './compare.js'
import type { KernelArg } from './types.js'
import type { FunctionDef } from './types.js'
import { commonType, firstError, needNumber, type TypeResult } from './typing.js'

function ifResult(types: readonly (ColumnType | null)[]): TypeResult {
  if (types.length < 3 || types.length % 2 === 0) return { error: 'if needs condition;value pairs and then a default: if(C1;V1;…;D)' }
  const conds = types.filter((_, i) => i % 2 === 0 && i < types.length - 1)
  const err = firstError(...conds.map((t, k) => needNumber('if', `condition ${k + 1}`, t)))
  if (err) return err
  return commonType('if', types.filter((t, i) => (i % 2 === 1 || i === types.length - 1) && t !== null) as ColumnType[])
}

function ifKernel(args: readonly KernelArg[], rows: number): Column {
  const vals = args.map((_, i) => requiredValue(args, i, 'if', i % 2 === 0 ? 'C' : 'V'))
  const type = ifResult(vals.map((v) => v.type))
  if (typeof type === 'object') throw callError(`${type.error}.`)
  const conds = vals.filter((_, i) => i % 2 === 0 && i < vals.length - 1)
  const values = vals.filter((_, i) => i % 2 === 1)
  return choose(conds, values, vals[vals.length - 1], type, rows)
}

function caseResult(types: readonly (ColumnType | null)[]): TypeResult {
  if (types.length < 4 || types.length % 2 === 1) return { error: 'case needs X, then value;result pairs, then a default: case(X;V1;R1;…;D)' }
  for (let i = 1; i < types.length - 1; i += 2) {
    const r = compareResult('case', types[0], types[i])
    if (typeof r === 'object') return r
  }
  return commonType('case', types.filter((t, i) => i > 0 && (i % 2 === 0 || i === types.length - 1) && t !== null) as ColumnType[])
}

function caseKernel(args: readonly KernelArg[], rows: number): Column {
  const vals = args.map((_, i) => requiredValue(args, i, 'case', i === 0 ? 'X' : 'V'))
  const type = caseResult(vals.map((v) => v.type))
  if (typeof type === 'object') throw callError(`${type.error}.`)
  const conds: Value[] = []
  const results: Value[] = []
  for (let i = 1; i < vals.length - 1; i += 2) {
    conds.push(compare('=', vals[0], vals[i], rows))
    results.push(vals[i + 1])
  }
  return choose(conds, results, vals[vals.length - 1], type, rows)
}

function betweenResult([x, a, b]: readonly (ColumnType | null)[]): TypeResult {
  for (const t of [a, b]) {
    const r = compareResult('between', x, t)
    if (typeof r === 'object') return r
  }
  return 'int'
}

/** A <= X <= B; int/date columns with constant bounds take one fused loop. */
function between(x: Value, a: Value, b: Value, rows: number): Column {
  if (isColumn(x) && (x.type === 'int' || x.type === 'date') && isScalar(a) && isScalar(b) && a.type !== 'text' && b.type !== 'text') {
    if (scalarIsNA(a) || scalarIsNA(b)) return { type: 'int', data: new Int32Array(rows) }
    const lo = a.value
    const hi = b.value
    const d = x.data
    const o = new Int32Array(rows)
    for (let i = 0; i < rows; i++) {
      const v = d[i]
      o[i] = +(v >= lo) & +(v <= hi) & +(v !== NA_INT)
    }
    return { type: 'int', data: o }
  }
  const ge = compare('>=', x, a, rows) as Column & { data: Int32Array }
  const le = compare('<=', x, b, rows) as Column & { data: Int32Array }
  for (let i = 0; i < rows; i++) ge.data[i] &= le.data[i]
  return ge
}

/** Registry rows of if, case and between. */
export const CONDITIONAL: readonly FunctionDef[] = [
  {
    name: 'if',
    args: [
      { kind: 'value', name: 'C' },
      { kind: 'value', name: 'V' },
    ],
    repeatFrom: 0,
    minArgs: 3,
    result: ifResult,
    kernel: (args, ctx) => ifKernel(args, ctx.rows),
    doc: 'if(C1;V1;…;Cn;Vn;D): the V of the first true condition C (non-zero, not N/A), else D.',
  },
  {
    name: 'case',
    args: [
      { kind: 'value', name: 'X' },
      { kind: 'value', name: 'V', list: true },
      { kind: 'value', name: 'R' },
    ],
    repeatFrom: 1,
    minArgs: 4,
    result: caseResult,
    kernel: (args, ctx) => caseKernel(args, ctx.rows),
    doc: 'case(X;V1;R1;…;D): the R of the first V equal to X (V may be a list; N/A equals N/A), else D.',
  },
  {
    name: 'between',
    args: [
      { kind: 'value', name: 'X' },
      { kind: 'value', name: 'A' },
      { kind: 'value', name: 'B' },
    ],
    result: betweenResult,
    kernel: (args, ctx) =>
      between(requiredValue(args, 0, 'between', 'X'), requiredValue(args, 1, 'between', 'A'), requiredValue(args, 2, 'between', 'B'), ctx.rows),
    doc: 'between(X;A;B): 1 if A <= X <= B (inclusive), else 0; 0 when any is N/A.',
    comparesValues: true,
  },
]
