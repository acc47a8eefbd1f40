/**
 * What every group kernel starts from: one id per row saying which group the row counts in, or
 * -1 when it takes no part (S = 0, or left out of the group index), plus the O order. Folding S
 * into the ids once keeps each kernel to a single `g < 0` test per row. Rows with -1 get N/A.
 */
import { gather } from '../../columns/index.js'
import type { Column, GroupIndex } from '../../columns/types.js'
import { asColumn, groupArg, maskArg, orderArg, requiredValue } from '../args.js'
import type { KernelArg, KernelContext } from '../types.js'

/** The prepared G, S and O of one call. */
export interface Groups {
  /** Per row: its group, or -1 when the row takes no part. Never written to. */
  readonly gid: Int32Array
  readonly count: number
  /** Rows in O order (null: worksheet order). */
  readonly order: Int32Array | null
  readonly rows: number
}

let zeros = new Int32Array(0)

/** A shared all-zero id vector for "one group" (read-only, grown on demand). */
function oneGroupIds(rows: number): Int32Array {
  if (zeros.length < rows) zeros = new Int32Array(rows)
  return zeros.subarray(0, rows)
}

/**
 * The groups of a call.
 * @param at argument positions of G, S and O (O absent for functions without one)
 */
export function groupsOf(args: readonly KernelArg[], ctx: KernelContext, at: { g: number; s: number; o?: number }): Groups {
  const rows = ctx.rows
  const index: GroupIndex | null = groupArg(args, at.g)
  const mask = maskArg(args, at.s)
  const order = at.o === undefined ? null : orderArg(args, at.o)
  const ids = index === null ? oneGroupIds(rows) : index.ids
  const count = index === null ? (rows > 0 ? 1 : 0) : index.count
  if (mask === null) return { gid: ids, count, order, rows }
  const gid = new Int32Array(rows)
  for (let r = 0; r < rows; r++) gid[r] = mask[r] === 0 ? -1 : ids[r]
  return { gid, count, order, rows }
}

/** Value argument `i` as a full column (a constant repeated). */
export function xColumn(args: readonly KernelArg[], i: number, rows: number, fn: string, name = 'X'): Column {
  return asColumn(requiredValue(args, i, fn, name), rows, fn, name)
}

/**
 * Each row's group id in O order (the ids themselves without an O). Reading gid[order[k]] row by
 * row is a cache miss a row over a large table; the gather reads it one cache-sized tile at a
 * time (columns/gather.ts), and a kernel then walks both lists in step.
 */
export function idsInOrder(gr: Groups): Int32Array {
  if (gr.order === null) return gr.gid
  return (gather({ type: 'int', data: gr.gid }, gr.order) as { data: Int32Array }).data
}

/** The row at O position k. */
export const rowAt = (order: Int32Array | null, k: number): number => (order === null ? k : order[k])

/** Wraps per-row ints as an int column. */
export const intResult = (data: Int32Array): Column => ({ type: 'int', data })

/** Wraps per-row floats as a float column. */
export const floatResult = (data: Float64Array): Column => ({ type: 'float', data })
