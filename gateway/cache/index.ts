/**
 * The per-gateway caches of the request path. Each holds only values that are pure functions of
 * their keys (query texts, immutable table versions, result hashes), or, for principals, is used
 * only after checking every stored text it was made from, read in the same request; so none needs
 * invalidating when another gateway changes the catalog: see each module for why its entries
 * cannot be stale.
 */
import { PrincipalMemo } from '../auth/principal-memo.js'
import { CompiledQueries } from './compiled-queries.js'
import { RecentStoreCopies } from './recent-store-copies.js'
import { RenderedAnswers } from './rendered-answers.js'

export { CompiledQueries } from './compiled-queries.js'
export { RecentStoreCopies } from './recent-store-copies.js'

export interface GatewayCaches {
  /** Parsed and checked macro queries; SQL texts that passed the guard, with the names they use. */
  readonly queries: CompiledQueries
  /** Results this gateway wrote to the Store lately (not written again on every repeat). */
  readonly storeCopies: RecentStoreCopies
  /** Principals by user, used only while every stored text they were made from is unchanged. */
  readonly principals: PrincipalMemo
  /** Small non-HTML answers rendered from results, by recipe key, format and what was asked. */
  readonly rendered: RenderedAnswers
}

/** `resultTtlSeconds`: how long a result copied to the Store lives there (SESSION_TTL). */
export function createGatewayCaches(resultTtlSeconds: number): GatewayCaches {
  return {
    queries: new CompiledQueries(),
    storeCopies: new RecentStoreCopies(resultTtlSeconds),
    principals: new PrincipalMemo(),
    rendered: new RenderedAnswers(),
  }
}
