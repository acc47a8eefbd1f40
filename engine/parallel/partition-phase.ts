/**
 * The phase of a partition step (plan.ts PartitionStep), on the driver's side: a shared column of
 * one value per base row, one task per partition of the base table by the step's group keys
 * (part.ts runValues), and the column read back as the values the later phases apply.
 */
import type { ResultSet, RunTask } from '../../shared/protocol.js'
import type { ColumnType } from '../../shared/table.js'
import type { CheckedOp } from '../check/index.js'
import { bytesPerValue, type Column, type TextColumn } from '../columns/types.js'
import { valueName } from './aggregate.js'
import { splitDeclined } from '../task/outcome.js'
import { encodeColumns, fromResultColumn } from './codec.js'
import { sameStrings } from './finish.js'
import { prefixWorksheet, tablesOf } from './part.js'
import type { ParallelPlan } from './plan.js'
import { emptyTables } from './range-worksheet.js'

/** The shared column of partition step `k`: one value per base row, of the willbe's type. */
interface ValueColumn {
  readonly buffer: SharedArrayBuffer
  readonly type: ColumnType
  readonly rows: number
}

export function valueColumn(plan: ParallelPlan, task: RunTask, groupValues: readonly ResultSet[], k: number): ValueColumn {
  const rows = task.tables.find((t) => t.path === plan.table)!.rows
  const step = plan.partitionSteps[k]
  const name = (plan.prefix[step.at] as CheckedOp & { kind: 'Willbe' }).name
  // The prefix over no rows, up to the willbe: its type without doing any of the work.
  const shape = prefixWorksheet(plan, emptyTables(tablesOf(task)), { start: 0, end: 0 }, step.at + 1, groupValues)
  const type = shape.column(name)!.type
  return { buffer: new SharedArrayBuffer(rows * bytesPerValue(type)), type, rows }
}

/** The tasks of partition step `k`: one per partition, each writing its rows' values into the shared column. */
export function partitions(task: RunTask, groupValues: readonly ResultSet[], k: number, column: ValueColumn, count: number, blockRows: number): RunTask[] {
  return Array.from({ length: count }, (_, index) => ({
    ...task,
    truncate: true,
    part: {
      start: 0,
      end: column.rows,
      blockRows,
      phase: 'values' as const,
      step: k,
      partition: { index, count },
      output: [column.buffer],
      groupValues: [...groupValues],
    },
  }))
}

/**
 * The shared column as the values the next phases read (column valueName(0)). Text is written as
 * codes of the dictionary each partition answers with, which must be one.
 */
export function partitionValues(column: ValueColumn, answers: readonly ResultSet[]): ResultSet {
  const { buffer, type, rows } = column
  let values: Column
  if (type === 'text') {
    const dicts = answers.map((a) => (fromResultColumn(a.columns[0], 'text') as TextColumn).dict)
    if (!dicts.every((d) => sameStrings(d, dicts[0]))) throw splitDeclined('a g_ function makes text on a dictionary of each partition')
    values = { type, codes: new Int32Array(buffer, 0, rows), dict: dicts[0] }
  } else if (type === 'float') values = { type, data: new Float64Array(buffer, 0, rows) }
  else if (type === 'bigint') values = { type, data: new BigInt64Array(buffer, 0, rows) }
  else values = { type, data: new Int32Array(buffer, 0, rows) }
  return encodeColumns([{ name: valueName(0), column: values }], rows)
}
