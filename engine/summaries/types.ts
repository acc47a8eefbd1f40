/**
 * Summary functions of `<tcol fun=…>`: one row per function, each with a kernel that reduces a
 * column to one value per group (unlike the g_ functions, which broadcast back to every row).
 */
import type { Column, ColumnType, GroupIndex } from '../columns/types.js'
import type { PartValue, StatePart } from './parts.js'

export interface SummaryInput {
  readonly groups: GroupIndex
  /** The summarised column (null only for cnt without source). */
  readonly source: Column | null
  readonly weight: Column | null
}

/**
 * How a summary accumulates row by row into per-group parts that merge exactly (parts.ts). Every
 * evaluator of `<tabu>` learns the summary from this alone: the whole-column kernel, the direct
 * slots of one integer break (interpret/ops/tabu-slots.ts), and a split run's partials and their
 * merge (parallel/aggregate.ts, merge.ts).
 */
export interface Accumulation {
  readonly parts: readonly StatePart[]
  /** The summary per group from its parts' values (in the order of `parts`). */
  readonly finish: (values: readonly PartValue[]) => Column
}

export interface SummaryDef {
  readonly name: string
  readonly needsSource: boolean
  readonly needsWeight: boolean
  /** Source types accepted; absent = any. */
  readonly types?: readonly ColumnType[]
  /** Weight types accepted; absent = numeric. */
  readonly weightTypes?: readonly ColumnType[]
  readonly result: (source: ColumnType | null) => ColumnType
  /** The summary over grouped whole columns (for an accumulating one, made from `accumulates`). */
  readonly kernel: (input: SummaryInput) => Column
  /** Set when the unweighted summary accumulates row by row; the fast paths then serve it. */
  readonly accumulates?: Accumulation
  readonly doc: string
}
