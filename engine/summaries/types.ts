/**
 * Summary functions of `<tcol fun=…>`: one row per function, each with a kernel that reduces a
 * column to one value per group (unlike the g_ functions, which broadcast back to every row).
 */
import type { Column, ColumnType, GroupIndex } from '../columns/types.js'

export interface SummaryInput {
  readonly groups: GroupIndex
  /** The summarised column (null only for cnt without source). */
  readonly source: Column | null
  readonly weight: Column | null
}

/**
 * The summaries that accumulate row by row into per-group state that merges exactly: the slot
 * fast path of `<tabu>` (interpret/ops/tabu-fast.ts) and the per-range partials of a split run
 * (parallel/aggregate.ts, merge.ts) compute these, each with a switch that the compiler checks
 * covers every one. A summary that is none of them runs on the general path only.
 */
export type Accumulator = 'cnt' | 'cntnna' | 'sum' | 'avg' | 'min' | 'max' | 'first' | 'last'

export interface SummaryDef {
  readonly name: string
  readonly needsSource: boolean
  readonly needsWeight: boolean
  /** Source types accepted; absent = any. */
  readonly types?: readonly ColumnType[]
  readonly result: (source: ColumnType | null) => ColumnType
  readonly kernel: (input: SummaryInput) => Column
  /** Set when the unweighted summary is this accumulator, which the fast paths then serve. */
  readonly accumulator?: Accumulator
  readonly doc: string
}
