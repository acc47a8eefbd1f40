/** What the harness needs from each system under test. */
import type { Digest } from './digest.js'
import type { BenchQuery } from './queries.js'

export interface Target {
  /** Column heading in the report. */
  readonly label: string
  /** Untimed, before each run (e.g. DuckDB's thread count). */
  before?(): Promise<void>
  /** The timed part: run the query and materialise its whole result. */
  run(q: BenchQuery): Promise<void>
  /** Untimed, after a run: the fingerprint of the result just produced. */
  digest(q: BenchQuery): Promise<Digest>
  /** Untimed, after each run: let go of the result. */
  release(): Promise<void>
}
