/**
 * The interpreter: one exhaustive pass over the checked operations, each evaluated over whole
 * columns. A `<link>` or `<merge>` runs its own pipeline on its foreign table first.
 */
import type { Op } from '../ast.js'
import { AppError } from '../../shared/errors.js'
import { inlineColumn } from './inline-table.js'
import { runLink } from './ops/link.js'
import { runMerge } from './ops/merge.js'
import { runColMeta, runColord, runSel, runSort, runWillbe } from './ops/simple.js'
import { runTabu } from './ops/tabu.js'
import { tableWorksheet, type TableInput } from './tables.js'
import { newColumn, Worksheet } from './worksheet.js'

export type Tables = ReadonlyMap<string, TableInput>

const EMPTY = new Worksheet(0, [])

function inlineTable(op: Op & { kind: 'Table' }): Worksheet {
  if (op.depth !== null) return new Worksheet(op.depth, [], op.title)
  const cols = op.cols.map((name, c) => newColumn(name, inlineColumn(op.rows.map((r) => r[c] ?? ''))))
  return new Worksheet(op.rows.length, cols, op.title)
}

function step(op: Op, ws: Worksheet, tables: Tables): Worksheet {
  switch (op.kind) {
    case 'Base':
      return tableWorksheet(tables, op.table, op.loc)
    case 'Table':
      return inlineTable(op)
    case 'Sel':
      return runSel(op, ws)
    case 'Willbe':
      return runWillbe(op, ws)
    case 'Colord':
      return runColord(op, ws)
    case 'ColMeta':
      return runColMeta(op, ws)
    case 'Sort':
      return runSort(op, ws)
    case 'Tabu':
      return runTabu(op, ws)
    case 'Link':
      return runLink(op, ws, runOps(op.ops, tables, tableWorksheet(tables, op.table2, op.loc)))
    case 'Merge':
      return runMerge(ws, runOps(op.ops, tables, tableWorksheet(tables, op.table2, op.loc)))
    default: {
      const never: never = op
      throw new AppError('INTERNAL', `Unknown operation ${JSON.stringify(never)}`)
    }
  }
}

/** Runs a pipeline from a starting worksheet (empty for a whole query). */
export function runOps(ops: readonly Op[], tables: Tables, start: Worksheet = EMPTY): Worksheet {
  let ws = start
  for (const op of ops) ws = step(op, ws, tables)
  return ws
}
