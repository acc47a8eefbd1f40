/**
 * The one place a query follows its tasks' fallbacks. A task answers a fallback instead of a
 * result when the way it ran cannot answer exactly (engine/task/outcome.ts); the query then runs
 * another way. Each runner says what it can do instead, and this says when each applies:
 *  - whole: the data do not fit the split plan. A split run runs the task whole on one worker,
 *    under the same signal; a table larger than the table cache cannot be read whole, so a run
 *    window by window is refused (413) instead (parallel.ts, windowed.ts).
 *  - sqlite: compiled SQL met data it cannot answer exactly as SQLite would: sql.js answers (sql.ts).
 *  - widen: an int `+ - *` left 32 bits: the operator is marked wide in the compiled-query cache
 *    and the query runs again, once per operator; when it was wide already, the overflow is the
 *    query's error (service.ts).
 * A fallback a runner has no way for goes on up to the runner around it (a split part's `sqlite`
 * to the SQL query, its `widen` to the macro query); one that reaches no way is a bug, a 500.
 */
import { fallbackOf } from '../../engine/index.js'
import { fromPayload } from '../../shared/errors.js'

/** What a runner can do instead of its run, by fallback. */
export interface FallbackWays<T> {
  /** The answer with the task run whole (or the refusal of a run that cannot be), `why` the data declined the split. */
  readonly whole?: (why: string) => Promise<T>
  /** The answer from sql.js. */
  readonly sqlite?: () => Promise<T>
  /** Marks the operator wide for the next run; false when it was wide already. */
  readonly widen?: (operator: string) => Promise<boolean>
}

/** `run`'s answer, or the answer of the way its fallback asks for. */
export async function followFallbacks<T>(run: () => Promise<T>, ways: FallbackWays<T>): Promise<T> {
  for (;;) {
    try {
      return await run()
    } catch (e) {
      const fallback = fallbackOf(e)
      switch (fallback?.kind) {
        case 'whole':
          if (ways.whole !== undefined) return await ways.whole(fallback.why)
          break
        case 'sqlite':
          if (ways.sqlite !== undefined) return await ways.sqlite()
          break
        case 'widen':
          if (ways.widen === undefined) break
          if (await ways.widen(fallback.operator)) continue
          throw fromPayload(fallback.overflow)
      }
      throw e
    }
  }
}

/**
 * Whether a failed part leaves the query going on under its signal: a split the data declined runs
 * whole under it, so the other parts are left to end rather than stopped (parallel.ts).
 */
export const goesOnWhole = (e: unknown): boolean => fallbackOf(e)?.kind === 'whole'
