/**
 * Stateless pseudo-random values: each is a hash of (seed, column, row), so row r of a table is
 * the same at every row count (a 3,000-row table is the first 3,000 rows of the 10M-row one) and
 * any column can be generated without generating the others.
 */

/** A well-mixed 32-bit hash of three integers (murmur3's finaliser over a simple combination). */
export function hash3(seed: number, column: number, row: number): number {
  let h = Math.imul(seed ^ 0x27d4eb2f, 0x9e3779b1) ^ Math.imul(column + 0x165667b1, 0x85ebca6b) ^ Math.imul(row, 0xc2b2ae35)
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** A value in [0, 1). */
export const unit = (seed: number, column: number, row: number): number => hash3(seed, column, row) / 4294967296

/** A whole number in [0, n). */
export const below = (seed: number, column: number, row: number, n: number): number => Math.floor(unit(seed, column, row) * n)
