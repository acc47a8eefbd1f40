import type { ResultColumn } from '../../shared/protocol.js'
import { textSlice } from '../../shared/result-text.js'

/** A result column's values as an array, coded text made into its strings: what a test compares. */
export function dataOf(c: ResultColumn): Int32Array | Float64Array | BigInt64Array | readonly string[] {
  return c.kind === 'coded' ? textSlice(c) : c.data
}
