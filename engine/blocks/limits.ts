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
  /** Iterations one `<for>` or `<foreach>` may run (each also counts as a step). */
  maxLoopIterations: 100_000,
  /** Braces nested inside one another (`{f('{@a}')}` is two); substitution recurses once per level. */
  maxBraceDepth: 100,
  /** Longest text a substitution or a variable may hold. */
  maxValueLength: 1_000_000,
  /**
   * Characters the expansion may produce and evaluate in all: attribute values and text of the
   * elements it emits, values it pastes and block expressions it parses. Inserting a block copies
   * its text, so without this a query of a few hundred bytes could make the gateway parse
   * gigabytes (a 1 MB variable tested in a block inserted 100,000 times). A query longer than a
   * quarter of this may produce four times its own length.
   */
  maxOutputChars: 16_000_000,
} as const
