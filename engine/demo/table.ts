/** What the demo generators produce, and the helpers they share. */
import type { ColumnSpec } from '../../shared/table.js'
import type { ColumnValues } from '../storage/types.js'

/** One generated table and where it belongs in the table tree. */
export interface DemoTable {
  readonly path: string
  readonly title: string
  readonly columns: ColumnSpec[]
  readonly data: ColumnValues[]
}

/** Display format of money columns. */
export const MONEY = 'type:currency;dec:2'

/** Display format of identifiers: no thousands separators. */
export const ID = 'type:nocommas'

/** Round to cents: the nearest double to a whole number of cents. */
export function round2(x: number): number {
  return Math.round(x * 100) / 100
}
