/**
 * contains / beginswith / endswith and their _ci variants. The test runs once per dictionary
 * entry, not per row, and is then spread to the rows by code. Y may be a constant, a list
 * (true when any member matches) or a text column (row by row, the slow path). N/A on either
 * side gives 0: '' is N/A, so neither X = '' nor Y = '' matches.
 */
import { intFromDictMap } from '../columns/index.js'
import type { Column, TextColumn, Value } from '../columns/types.js'
import { callError, isColumn, isList, isScalar, onConstants } from './args.js'

/** Where Y must occur in X. */
export type MatchKind = 'contains' | 'beginswith' | 'endswith'

function test(kind: MatchKind, s: string, needle: string): boolean {
  return kind === 'contains' ? s.includes(needle) : kind === 'beginswith' ? s.startsWith(needle) : s.endsWith(needle)
}

/** 0/1 per row: does X match Y? */
export function textMatch(kind: MatchKind, ci: boolean, x: Value, y: Value, rows: number, fn: string): Column {
  if (!isColumn(x)) return onConstants([x], rows, (c, n) => textMatch(kind, ci, c[0], y, n, fn))
  if (x.type !== 'text') throw callError(`${fn} needs text for X.`)
  if (y.type !== 'text') throw callError(`${fn} needs text for Y.`)
  if (isColumn(y)) return { type: 'int', data: rowByRow(kind, ci, x, y as TextColumn, rows) }
  const raw = isList(y) ? (y.values as readonly string[]) : isScalar(y) ? [y.value as string] : []
  const needles = raw.filter((s) => s !== '').map((s) => (ci ? s.toLowerCase() : s))
  const data = intFromDictMap(
    x,
    (s) => {
      const t = ci ? s.toLowerCase() : s
      for (const needle of needles) if (test(kind, t, needle)) return 1
      return 0
    },
    0,
  )
  return { type: 'int', data }
}

/** Y as a column: each row compares its own pair of strings (no strings are built). */
function rowByRow(kind: MatchKind, ci: boolean, x: TextColumn, y: TextColumn, rows: number): Int32Array {
  const xs = ci ? x.dict.map((s) => s.toLowerCase()) : x.dict
  const ys = ci ? y.dict.map((s) => s.toLowerCase()) : y.dict
  const o = new Int32Array(rows)
  for (let i = 0; i < rows; i++) {
    const a = x.codes[i]
    const b = y.codes[i]
    o[i] = a !== 0 && b !== 0 && test(kind, xs[a], ys[b]) ? 1 : 0
  }
  return o
}
