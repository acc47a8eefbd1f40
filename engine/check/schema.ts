/** What the checker knows of a worksheet: its columns' names, types and visibility. */
import type { ColumnType } from '../../shared/table.js'

export interface SchemaCol {
  readonly name: string
  readonly type: ColumnType
  readonly visible: boolean
}

export interface Schema {
  readonly cols: readonly SchemaCol[]
  /**
   * True after an operation whose columns depend on the data (a cross-tabulation makes one
   * column per distinct value): names not listed are then left for the interpreter to judge.
   */
  readonly open: boolean
}

export const findCol = (s: Schema, name: string): SchemaCol | undefined => s.cols.find((c) => c.name === name)
