/** What the suite needs from each system it times (bench/target.ts, with the suite's digest). */
import type { SuiteQuestion } from './questions/index.js'
import type { SuiteDigest } from './digest.js'

export interface SuiteTarget {
  /** Column heading in the report, e.g. "tabula 2w". */
  readonly label: string
  /** Untimed, before each run (DuckDB's thread count). */
  before?(): Promise<void>
  /** The timed part: run the question and hold its whole answer. */
  run(q: SuiteQuestion): Promise<void>
  /** Untimed, after a run: the fingerprint of the answer just made. */
  digest(q: SuiteQuestion): Promise<SuiteDigest>
  /** Untimed, after each run: let go of the answer. */
  release(): Promise<void>
}
