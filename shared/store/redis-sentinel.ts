/**
 * The ioredis client for a Sentinel target (REDIS_SENTINELS, REDIS_SENTINEL_NAME): it asks the
 * Sentinels which server is master, connects there, and after losing that connection asks again,
 * so it follows a promotion by itself (ioredis's SentinelConnector). Two choices on top:
 *
 * - At start, Sentinels that cannot name a master (all unreachable, or none knows the name) make
 *   connect() fail after a few rounds, as an unreachable REDIS_URL does, instead of waiting
 *   forever with nothing said. Once connected, the client asks the Sentinels again without end:
 *   a gateway must outlast a Sentinel outage.
 * - A master that was demoted but still answers says READONLY: that drops the connection, and the
 *   reconnection asks the Sentinels. Not ioredis's `failoverDetector`: its +switch-master handler
 *   can land while the client is asking the Sentinels for the master, which makes ioredis give up
 *   connecting for good (103 of 150 clients in a trial; test/shared/store-sentinel.test.ts checks
 *   that a crowd of clients all come back).
 */
import { Redis, type RedisOptions } from 'ioredis'
import type { RedisTarget } from './redis-target.js'

/** Rounds over all the Sentinels before a first connection gives up. */
const START_ROUNDS = 3

export function sentinelClient(target: Extract<RedisTarget, { kind: 'sentinel' }>, base: RedisOptions): Redis {
  let connected = false
  const client = new Redis({
    ...base,
    sentinels: target.sentinels.map(({ host, port }) => ({ host, port })),
    name: target.name,
    password: target.password ?? undefined,
    sentinelPassword: target.sentinelPassword ?? undefined,
    // Shared with duplicates (the subscriber connection), which are made after the first connection.
    sentinelRetryStrategy: (round: number) => (connected || round < START_ROUNDS ? Math.min(round * 200, 1000) : null),
    reconnectOnError: (err) => err.message.startsWith('READONLY'),
  })
  client.once('ready', () => (connected = true))
  return client
}
