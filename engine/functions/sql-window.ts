/**
 * The kernel compiled SQL's window functions need beside the group functions
 * (engine/sql/compile/window.ts). Named with `$`, as functions/sql.ts explains.
 */
import { asColumn, requiredValue } from './args.js'
import { sqlDeclined } from './sql.js'
import type { FunctionDef } from './types.js'

export const SQL_WINDOW_KERNELS: readonly FunctionDef[] = [
  {
    name: '$unique',
    args: [
      { kind: 'value', name: 'X' },
      { kind: 'value', name: 'N', types: ['int'] },
    ],
    result: ([t]) => t ?? 'float',
    kernel: (args, { rows }) => {
      const x = asColumn(requiredValue(args, 0, '$unique', 'X'), rows, '$unique', 'X')
      const n = asColumn(requiredValue(args, 1, '$unique', 'N'), rows, '$unique', 'N')
      if (n.type !== 'int') throw sqlDeclined('a tie count that is not an integer')
      // SQLite orders tied rows as its sorter leaves them: an answer that depends on it is its to give.
      for (let i = 0; i < rows; i++) if (n.data[i] > 1) throw sqlDeclined('rows that tie in a window’s order')
      return x
    },
    doc: '$unique(X;N): X, or the plan declined where a row has peers (N > 1) in its window (SQL).',
  },
]
