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

export interface SummaryDef {
  readonly name: string
  readonly needsSource: boolean
  readonly needsWeight: boolean
  /** Source types accepted; absent = any. */
  readonly types?: readonly ColumnType[]
  readonly result: (source: ColumnType | null) => ColumnType
  readonly kernel: (input: SummaryInput) => Column
  readonly doc: string
}
