/** What a request hands down to the run of its query (routes/abort.ts makes it; pool.ts and parallel.ts read it). */
import type { RequestTimeout } from '../http/params.js'
import type { ProgressCell } from './running/index.js'
import type { TableInput } from '../../shared/protocol.js'
import type { WindowPool, WindowBuffers } from '../tables/window-pool.js'

/** Reads rows from … to-1 of a larger-than-cache table into a set of buffers of the pool, as a task's window. */
export interface WindowReader {
  readonly pool: WindowPool
  read(table: TableInput, from: number, to: number, buffers: WindowBuffers): Promise<TableInput>
}

export interface RunControl {
  /** Stop the run: `!stop`, the client gone. Joined with the time limit into the query's one signal. */
  readonly signals?: readonly AbortSignal[]
  /** Where a macro query reports how far it got (`!status`). */
  readonly progress?: ProgressCell
  /** The request's time limit; QUERY_TIMEOUT_MS when absent. */
  readonly timeout?: RequestTimeout
  /** Whose query it is: the pool serves users in turn (gateway/pool/fair-share.ts); absent = the service's own. */
  readonly user?: string
  /** Reads windows of rows of a table larger than TABLE_CACHE_MB (windowed.ts); set by the query service. */
  readonly windows?: WindowReader
}
