/**
 * Who the work in progress is for, as the table cache charges its entries (fair-lru.ts). Set once
 * per request by requireSession (auth/require-session.ts) and carried by Node's async context through
 * everything the request awaits, so the many places that load table files need not pass it
 * along. Work outside a request (sweeps, start-up) has no user: ''.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

const current = new AsyncLocalStorage<string>()

/** Runs `fn` (and everything it starts) on behalf of `uid`. */
export const runAsCacheUser = <T>(uid: string, fn: () => T): T => current.run(uid, fn)

export const cacheUser = (): string => current.getStore() ?? ''
