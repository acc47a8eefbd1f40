/**
 * A Store that counts its calls: every operation of the contract passes through to the real
 * store and adds one to a per-operation count. Wrapping at composition keeps the two Store
 * implementations free of metrics code, and counts the same thing for both (with Redis, each
 * call is one round trip; a batch is one MULTI/EXEC).
 */
import type { Store } from '../../shared/store/types.js'

/** The calls counted, one label value each; anything else on the object passes through uncounted. */
const STORE_OPS: ReadonlySet<string> = new Set<keyof Store>([
  'ping',
  'get',
  'mget',
  'set',
  'del',
  'expire',
  'ttl',
  'incr',
  'hget',
  'hgetall',
  'hset',
  'hdel',
  'sadd',
  'srem',
  'smembers',
  'keys',
  'batch',
  'watch',
  'publish',
  'subscribe',
])

export function countStoreCalls(store: Store, count: (op: string) => void): Store {
  // One counting wrapper per method value, made when the method is looked up: a test that
  // replaces a method (saving the old one to call through) gets its saved copy counting the real
  // method, and the replacement counted in turn, with no loop between them.
  const wrapped = new WeakMap<(...a: unknown[]) => unknown, unknown>()
  return new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target)
      if (typeof prop !== 'string' || !STORE_OPS.has(prop) || typeof value !== 'function') return value
      const method = value as (...a: unknown[]) => unknown
      let fn = wrapped.get(method)
      if (!fn) {
        // Called on the real store, so implementations with private fields keep working.
        fn = (...args: unknown[]) => {
          count(prop)
          return method.apply(target, args)
        }
        wrapped.set(method, fn)
      }
      return fn
    },
  })
}
