/** Row-position functions. */
import type { FunctionDef } from './types.js'

/** i_(): the 1-based position of each row in the current worksheet. */
function rowNumbers(rows: number): Int32Array {
  const o = new Int32Array(rows)
  for (let i = 0; i < rows; i++) o[i] = i + 1
  return o
}

/** Registry rows of the row-position functions. */
export const ROW: readonly FunctionDef[] = [
  {
    name: 'i_',
    args: [],
    result: () => 'int',
    kernel: (_args, ctx) => ({ type: 'int', data: rowNumbers(ctx.rows) }),
    doc: 'i_(): the 1-based row number in the current worksheet.',
  },
]
