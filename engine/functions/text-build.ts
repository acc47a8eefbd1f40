/**
 * Text functions that build or compare text from parts: splice and r_mapstring (through their
 * kernels `$splice` and `$mapjoin`, which the checker writes: check/call-rewrites.ts), strpick
 * and strfollow. Names and argument orders are 1010data's: the MACRO() page (splice), the
 * Cookbook's date recipes (strpick), the r_mapstring and strfollow pages.
 */
import type { Column, Value } from '../columns/types.js'
import { asColumn, callError, constantNumber, constantText, isColumn, onConstants, requiredValue, valueArg } from './args.js'
import { pickPiece } from './text-pieces.js'
import { spliceRows } from './text-splice.js'
import { mapJoin } from './text-mapjoin.js'
import { strfollow } from './text-follow.js'
import { onText } from './text.js'
import type { FunctionDef } from './types.js'
import { firstError, needNumber, needText } from './typing.js'

function spliceKernel(values: readonly Value[], delimiter: string, rows: number): Column {
  if (values.every((v) => !isColumn(v))) return onConstants(values, rows, (cols, n) => spliceRows(cols, delimiter, n))
  return spliceRows(
    values.map((v) => asColumn(v, rows, 'splice', 'L')),
    delimiter,
    rows,
  )
}

export const TEXT_BUILDING: readonly FunctionDef[] = [
  {
    // Written splice(L;D); the checker spreads the list L after D (check/call-rewrites.ts).
    name: '$splice',
    args: [
      { kind: 'value', name: 'D', types: ['text'], constant: true, optional: true },
      { kind: 'value', name: 'L' },
    ],
    repeatFrom: 1,
    minArgs: 2,
    result: ([d]) => needText('splice', 'D', d) ?? 'text',
    kernel: (args, ctx) => {
      const d = valueArg(args, 0)
      const values = args.slice(1).map((_, i) => requiredValue(args, i + 1, 'splice', 'L'))
      return spliceKernel(values, d === null ? '' : constantText(d, 'splice', 'D'), ctx.rows)
    },
    doc: 'splice(L;D): the values of the list L (columns or expressions side by side: name state) joined with the text D; N/A when any is N/A.',
  },
  {
    name: 'strpick',
    args: [
      { kind: 'value', name: 'X', types: ['text'] },
      { kind: 'value', name: 'D', types: ['text'], constant: true },
      { kind: 'value', name: 'N', types: ['int'], constant: true },
    ],
    result: ([x, d, n]) => firstError(needText('strpick', 'X', x), needText('strpick', 'D', d), needNumber('strpick', 'N', n)) ?? 'text',
    kernel: (args, ctx) => {
      const delimiter = constantText(requiredValue(args, 1, 'strpick', 'D'), 'strpick', 'D')
      const n = constantNumber(requiredValue(args, 2, 'strpick', 'N'), 'strpick', 'N')
      if (delimiter === '') throw callError("strpick(): the delimiter D is empty; give the text that separates the pieces, such as '/'.")
      if (n === null || !(n >= 1)) throw callError(`strpick(): N is ${n ?? 'N/A'}, but pieces count from 1; give N = 1 for the first piece.`)
      return onText(requiredValue(args, 0, 'strpick', 'X'), ctx.rows, 'strpick', (c) => pickPiece(c, delimiter, n))
    },
    doc: "strpick(X;D;N): the Nth piece (from 1) of text X cut at each D: strpick('01/04/2015';'/';3) is '2015'; N/A when there is no such piece.",
  },
  {
    // Written r_mapstring(C;S;X;D); the checker makes one S and X per column (check/row-map.ts).
    name: '$mapjoin',
    args: [
      { kind: 'value', name: 'D', types: ['text'], optional: true },
      { kind: 'value', name: 'S', types: ['int', 'float', 'date'] },
      { kind: 'value', name: 'X' },
    ],
    repeatFrom: 1,
    minArgs: 1,
    result: ([d]) => needText('r_mapstring', 'D', d) ?? 'text',
    kernel: (args, ctx) => {
      const d = valueArg(args, 0)
      const pairs: [Column, Column][] = []
      for (let k = 1; k + 1 < args.length; k += 2)
        pairs.push([
          asColumn(requiredValue(args, k, 'r_mapstring', 'S'), ctx.rows, 'r_mapstring', 'S'),
          asColumn(requiredValue(args, k + 1, 'r_mapstring', 'X'), ctx.rows, 'r_mapstring', 'X'),
        ])
      return mapJoin(d === null ? null : asColumn(d, ctx.rows, 'r_mapstring', 'D'), pairs, ctx.rows)
    },
    doc: "r_mapstring(C;S;X;D): per row, X of each column of C (names, a pattern 'd*', or all) whose S holds, joined with D; rcv_, rcn_, rct_ are the column's value, name and type ('a', 'i', 'f').",
  },
  {
    name: 'strfollow',
    args: [
      { kind: 'value', name: 'X', types: ['text'] },
      { kind: 'value', name: 'Y', types: ['text'] },
      { kind: 'value', name: 'B', types: ['int', 'float'] },
    ],
    result: ([x, y, b]) => firstError(needText('strfollow', 'X', x), needText('strfollow', 'Y', y), needNumber('strfollow', 'B', b)) ?? 'int',
    kernel: (args, ctx) => {
      const values = [0, 1, 2].map((i) => requiredValue(args, i, 'strfollow', 'XYB'[i]))
      const run = (cols: Column[], n: number): Column => {
        const [x, y, b] = cols
        if (x.type !== 'text' || y.type !== 'text') throw callError('strfollow needs text for X and Y.')
        return { type: 'int', data: strfollow(x, y, b, n) }
      }
      if (values.every((v) => !isColumn(v))) return onConstants(values, ctx.rows, run)
      return run(
        values.map((v, i) => asColumn(v, ctx.rows, 'strfollow', 'XYB'[i])),
        ctx.rows,
      )
    },
    doc: 'strfollow(X;Y;B): the position of the first character where texts X and Y differ, 0 when equal; case ignored when B is 0; 0 when both are N/A, 1 when one is.',
  },
]
