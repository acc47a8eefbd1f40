/** Everything a request handler may use, built once by server.ts (or by a test). */
import type { Config } from '../shared/config.js'
import type { Store } from '../shared/store/types.js'
import type { SessionManager } from './auth/sessions.js'
import type { Directory } from './catalog/principal.js'
import type { RetiredVersionSweeper } from './catalog/retired.js'
import type { Instances } from './instances/instances.js'
import type { StopRegistry } from './query/running/index.js'
import type { Logger } from './logger.js'
import type { GatewayCaches } from './cache/index.js'
import type { Observe } from './observe/index.js'
import type { Results } from './query/results/results.js'
import type { QueryRunner } from './pool/runner.js'
import type { TableCache } from './tables/table-cache.js'

export interface Deps {
  readonly config: Config
  readonly store: Store
  readonly runner: QueryRunner
  readonly tables: TableCache
  /** Finished results by recipe key: the memo, rendered answers, the Store copy (query/results/results.ts). */
  readonly results: Results
  /** Compiled queries and principals (gateway/cache): never stale by construction. */
  readonly caches: GatewayCaches
  readonly sessions: SessionManager
  /** Turns user records into principals (groups, capabilities) for permission checks. */
  readonly directory: Directory
  /** Deletes table versions some time after the catalog stopped pointing at them. */
  readonly sweeper: RetiredVersionSweeper
  readonly instances: Instances
  readonly stops: StopRegistry
  readonly log: Logger
  /** Metrics and readiness of this gateway (gateway/observe). */
  readonly observe: Observe
}
