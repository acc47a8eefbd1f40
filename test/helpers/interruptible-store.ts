/**
 * A Store whose round trips fail with UNAVAILABLE while `down` is set, as the Redis store's do
 * while Redis is away: an outage of one connection, switched on and off without stopping a
 * server. Connecting and closing pass through.
 */
import { AppError } from '../../shared/errors.js'
import type { Store } from '../../shared/store/index.js'

export interface InterruptibleStore {
  readonly store: Store
  down: boolean
}

const PASS_THROUGH = new Set<PropertyKey>(['kind', 'connect', 'close'])

export function interruptible(inner: Store): InterruptibleStore {
  const state: InterruptibleStore = {
    down: false,
    store: new Proxy(inner, {
      get(target, name, receiver) {
        const value: unknown = Reflect.get(target, name, receiver)
        if (typeof value !== 'function' || PASS_THROUGH.has(name)) return value
        return (...args: unknown[]) =>
          state.down
            ? Promise.reject(new AppError('UNAVAILABLE', 'The store (Redis) is not reachable (interrupted by the test).'))
            : (value as (...a: unknown[]) => unknown).apply(target, args)
      },
    }),
  }
  return state
}
