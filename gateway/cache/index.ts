/**
 * The per-gateway caches of the request path. Each holds only values that are pure functions of
 * their keys (query texts, immutable table versions), or, for principals, is used
 * only after checking every stored text it was made from, read in the same request; so none needs
 * invalidating when another gateway changes the catalog: see each module for why its entries
 * cannot be stale. Results and the answers rendered from them are query/results/.
 */
import { PrincipalMemo } from '../auth/principal-memo.js'
import { CompiledQueries } from './compiled-queries.js'

export { CompiledQueries } from './compiled-queries.js'

export interface GatewayCaches {
  /** Parsed and checked macro queries; SQL texts that passed the guard, with the names they use. */
  readonly queries: CompiledQueries
  /** Principals by user, used only while every stored text they were made from is unchanged. */
  readonly principals: PrincipalMemo
}

export function createGatewayCaches(): GatewayCaches {
  return {
    queries: new CompiledQueries(),
    principals: new PrincipalMemo(),
  }
}
