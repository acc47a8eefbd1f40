/**
 * Caps on block expansion. Blocks can insert blocks, so a short query can describe an enormous
 * (or endless) expansion; these limits refuse it early with a clear message instead.
 */
export const BLOCK_LIMITS = {
  /** Nested insert/expand/call/block levels (a block that inserts itself stops here). */
  maxDepth: 64,
  /** Elements the expansion may produce, counting nested ones. */
  maxElements: 100_000,
  /** Nodes the expander may visit, so expansions that produce nothing still terminate quickly. */
  maxSteps: 500_000,
  /** Longest text a substitution or a variable may hold. */
  maxValueLength: 1_000_000,
} as const
