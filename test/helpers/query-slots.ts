/**
 * What the tests of running-query slots share (MAX_QUERIES_PER_SESSION in
 * test/gateway/limits-sessions.test.ts, MAX_QUERIES_PER_USER in test/security/fair-user-limit.test.ts):
 * two connections to one Store, as two gateways have, a query that never ends, and the refusal a
 * promise rejects with.
 */
import { randomBytes } from 'node:crypto'
import { AppError } from '../../shared/errors.js'
import { createMemoryStore, createRedisStore, type Store } from '../../shared/store/index.js'

/** Counts forever; `n` makes each text (and so each recipe) distinct. */
export const forever = (n: number): string => `with recursive c(x) as (select ${n} union all select x + 1 from c) select count(*) as n from c`

/** The AppError `p` rejects with (fails when it resolves or rejects with anything else). */
export async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p
  } catch (err) {
    if (err instanceof AppError) return err
    throw err
  }
  throw new Error('expected a refusal')
}

/**
 * Inside a describe: before each test, two connections to one fresh Store (one and the same
 * memory store, or two Redis connections under one new key prefix); after it, its keys removed
 * and the connections closed. The returned function gives the pair.
 */
export function twoStoreConnections(kind: 'memory' | 'redis'): () => readonly [Store, Store] {
  let stores: [Store, Store] | null = null
  beforeEach(async () => {
    const prefix = `test:${randomBytes(6).toString('hex')}:`
    const open = async (): Promise<Store> => {
      const s = kind === 'redis' ? createRedisStore(process.env.TEST_REDIS_URL!, { keyPrefix: prefix }) : createMemoryStore()
      await s.connect()
      return s
    }
    const first = await open()
    stores = kind === 'redis' ? [first, await open()] : [first, first]
  })
  afterEach(async () => {
    const pair = stores!
    const keys = await pair[0].keys('')
    if (keys.length > 0) await pair[0].del(...keys)
    await Promise.all([...new Set(pair)].map((s) => s.close()))
  })
  return () => stores!
}
