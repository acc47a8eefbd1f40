/**
 * A generated column: its spec, the share of rows that are N/A, and the value of each row. Text
 * values come from small pools of strings, so a 10M-row column holds 10M references to at most
 * 100,000 strings rather than 10M strings.
 */
import type { ColumnSpec, ColumnType } from '../../shared/table.js'
import { NA_INT } from '../../shared/table.js'
import type { ColumnValues } from '../../engine/storage/index.js'
import { unit } from './random.js'

export interface GeneratedColumn {
  readonly name: string
  readonly type: ColumnType
  /** Share of rows that are N/A (0 for none): chosen per row by a hash of their own. */
  readonly na: number
  readonly value: (row: number) => number | string
}

/** Salt of the N/A choice, apart from any value's salt. */
const NA_SALT = 1000

/** Fills one column of `rows` rows; `index` tells columns' N/A choices apart. */
export function fillColumn(c: GeneratedColumn, rows: number, seed: number, index: number): ColumnValues {
  const isNa = (r: number) => c.na > 0 && unit(seed, NA_SALT + index, r) < c.na
  if (c.type === 'text') {
    const out = new Array<string>(rows)
    for (let r = 0; r < rows; r++) out[r] = isNa(r) ? '' : (c.value(r) as string)
    return out
  }
  if (c.type === 'float') {
    const out = new Float64Array(rows)
    for (let r = 0; r < rows; r++) out[r] = isNa(r) ? Number.NaN : (c.value(r) as number)
    return out
  }
  const out = new Int32Array(rows)
  for (let r = 0; r < rows; r++) out[r] = isNa(r) ? NA_INT : (c.value(r) as number)
  return out
}

export const specOf = (c: GeneratedColumn): ColumnSpec => ({ name: c.name, type: c.type, label: c.name })

/** A value with two decimals, as prices and amounts have. */
export const cents = (x: number): number => Math.round(x * 100) / 100
