/**
 * rolledup(X;I): 1 where the I-th break counted from the last is rolled up on a row of a rollup
 * tabulation, else 0, read off the tabulation's `<rollup ind>` column X, whose bit I-1 says so
 * (interpret/ops/tabu-rollup.ts). N/A in X gives N/A.
 */
import { NA_INT, type Column } from '../columns/types.js'
import { asColumn, callError, constantNumber, requiredValue } from './args.js'
import type { FunctionDef } from './types.js'
import { describeType } from './typing.js'

/** As many breaks as `<rollup ind>` has bits for (op-rollup.ts). */
const MAX_BREAK = 30

function rolledUp(x: Column, bit: number, rows: number): Column {
  if (x.type !== 'int') throw callError(`rolledup(): X must be the int column <rollup ind="…"> made, got ${x.type}.`)
  const out = new Int32Array(rows)
  for (let r = 0; r < rows; r++) out[r] = x.data[r] === NA_INT ? NA_INT : (x.data[r] >> bit) & 1
  return { type: 'int', data: out }
}

export const ROLLUP: readonly FunctionDef[] = [
  {
    name: 'rolledup',
    args: [
      { kind: 'value', name: 'X', types: ['int'] },
      { kind: 'value', name: 'I', types: ['int'], constant: true },
    ],
    result: ([x, i]) =>
      x !== null && x !== 'int'
        ? { error: `rolledup needs the int column of <rollup ind> for X, got ${describeType(x)}` }
        : i !== null && i !== 'int'
          ? { error: `rolledup needs a whole number for I, got ${describeType(i)}` }
          : 'int',
    kernel: (args, ctx) => {
      const i = constantNumber(requiredValue(args, 1, 'rolledup', 'I'), 'rolledup', 'I')
      if (i === null || !Number.isInteger(i) || i < 1 || i > MAX_BREAK)
        throw callError(`rolledup(): I counts breaks from the last one, 1 to ${MAX_BREAK}; got ${i ?? 'N/A'}.`)
      return rolledUp(asColumn(requiredValue(args, 0, 'rolledup', 'X'), ctx.rows, 'rolledup', 'X'), i - 1, ctx.rows)
    },
    doc: 'rolledup(X;I): 1 where the I-th break from the last is rolled up, by the <rollup ind> column X; else 0.',
  },
]
