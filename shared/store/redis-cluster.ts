/**
 * What the Redis store does differently on a Redis Cluster (ioredis `Cluster`): multi-key reads
 * and deletes split per hash slot, key listing over every master, the one-slot check for atomic
 * writes, and short retries while a slot is being moved. Which keys share a slot is decided in
 * redis-cluster-keys.ts.
 *
 * Stop messages use classic PUBLISH, which the cluster forwards to every node, not sharded
 * pub/sub (SPUBLISH): the service has one stop channel that every gateway listens to, so sharding
 * would put it on one shard anyway and spread nothing, while a sharded subscription has to be
 * moved by the client whenever that channel's slot migrates or its master fails over. Stop
 * messages are rare (one per !stop), so the cost of the broadcast, one message over the cluster
 * bus per node, does not matter. Each channel is published through one node (the master of the
 * channel name's slot): messages from different nodes reach a subscriber over different links of
 * the bus, and could overtake one another.
 */
import { Cluster } from 'ioredis'
import type { ClusterOptions, RedisOptions } from 'ioredis'
import { hashSlot } from './redis-cluster-keys.js'
import type { HostPort } from './redis-target.js'

/**
 * How often an atomic write is tried again while its slot is being moved (TRYAGAIN: its keys are
 * split between the old and the new master for a moment; ASK/MOVED that ioredis could not follow
 * within a transaction), and the pause between tries. Bounded: about 2 s, then UNAVAILABLE (503).
 */
const MOVING_ATTEMPTS = 25
const MOVING_PAUSE_MS = 80

/** Reply errors that mean the slot is moving or the cluster is reconfiguring: nothing was applied. */
const MOVING = /^(TRYAGAIN|ASK|MOVED|CLUSTERDOWN)\b|^Too many Cluster redirections/

export function newClusterClient(nodes: readonly HostPort[], password: string | null, nodeOptions: RedisOptions): Cluster {
  const options: ClusterOptions = {
    lazyConnect: true,
    // As with one server: refuse commands while the cluster is unreachable rather than queue them.
    enableOfflineQueue: false,
    clusterRetryStrategy: (attempt: number) => Math.min(attempt * 100, 2000),
    slotsRefreshTimeout: 2000,
    // Redirections (MOVED, ASK) and TRYAGAIN are followed by ioredis, a bounded number of times.
    maxRedirections: 16,
    retryDelayOnTryAgain: 100,
    redisOptions: { ...nodeOptions, password: password ?? undefined },
  }
  return new Cluster(
    nodes.map(({ host, port }) => ({ host, port })),
    options,
  )
}

/** Whether an error of an atomic write means "the slot is moving, nothing was applied". */
export function isSlotMoving(err: unknown): boolean {
  if (!(err instanceof Error)) return false
  if (MOVING.test(err.message)) return true
  // A transaction whose queued commands were redirected is discarded as a whole (EXECABORT).
  const previous = (err as { previousErrors?: unknown[] }).previousErrors
  return err.message.startsWith('EXECABORT') && Array.isArray(previous) && previous.length > 0 && previous.every(isSlotMoving)
}

/**
 * Runs an atomic write (MULTI or EVAL) or a multi-key read or delete, trying again while its slot
 * moves. Safe because a TRYAGAIN, ASK, MOVED or EXECABORT answer means Redis applied none of it.
 * (ioredis follows these itself, but within a bound of 16 redirections that a slot moving key by
 * key can exhaust: its TRYAGAIN retries go to a random node, which redirects again.)
 */
export async function retryWhileMoving<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write()
    } catch (err) {
      if (!isSlotMoving(err) || attempt >= MOVING_ATTEMPTS) throw err
      await new Promise((resolve) => setTimeout(resolve, MOVING_PAUSE_MS))
    }
  }
}

/** A batch whose keys lie in different slots: a bug in the key layout, passed to the caller unchanged. */
export class CrossSlotError extends Error {
  override readonly name = 'CrossSlotError'
}

/**
 * Refuses a transaction or script over keys of more than one slot, naming them: splitting it
 * would silently lose atomicity, so it is a bug in the key layout (redis-cluster-keys.ts).
 */
export function checkOneSlot(names: readonly string[]): void {
  const first = names[0]
  const other = names.find((name) => hashSlot(name) !== hashSlot(first))
  if (other === undefined) return
  throw new CrossSlotError(
    `Redis Cluster: an atomic store batch touches "${first}" (slot ${hashSlot(first)}) and "${other}" (slot ${hashSlot(other)}); ` +
      'keys written together must share a hash tag (shared/store/redis-cluster-keys.ts).',
  )
}

/** The positions of names, grouped by slot, in the order first seen. */
function bySlot(names: readonly string[]): number[][] {
  const groups = new Map<number, number[]>()
  for (const [i, name] of names.entries()) {
    const slot = hashSlot(name)
    let group = groups.get(slot)
    if (!group) groups.set(slot, (group = []))
    group.push(i)
  }
  return [...groups.values()]
}

/**
 * MGET over any keys: one MGET per slot, all at once, answers put back in the order asked. Keys of
 * one slot are read together, atomically; keys of different slots are not one snapshot (the
 * Store contract asks that only of keys written together, and those share a slot).
 */
export async function mgetBySlot(client: Cluster, names: readonly string[]): Promise<(string | null)[]> {
  const values: (string | null)[] = new Array<string | null>(names.length).fill(null)
  await Promise.all(
    bySlot(names).map(async (positions) => {
      // While the slot moves, a multi-key read whose keys are split between two masters gets TRYAGAIN.
      const got = await retryWhileMoving(() => client.mget(positions.map((i) => names[i])))
      positions.forEach((at, j) => (values[at] = got[j]))
    }),
  )
  return values
}

/** DEL over any keys: one DEL per slot (atomic within a slot, not across slots); the count of all. */
export async function delBySlot(client: Cluster, names: readonly string[]): Promise<number> {
  const counts = await Promise.all(bySlot(names).map((positions) => retryWhileMoving(() => client.del(positions.map((i) => names[i])))))
  return counts.reduce((a, b) => a + b, 0)
}

/** SCAN of every master (each holds only its own slots); a key being migrated may show twice, hence the set. */
export async function scanEveryMaster(client: Cluster, pattern: string): Promise<Set<string>> {
  const found = new Set<string>()
  await Promise.all(
    client.nodes('master').map(async (node) => {
      let cursor = '0'
      do {
        const [next, page] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000)
        for (const name of page) found.add(name)
        cursor = next
      } while (cursor !== '0')
    }),
  )
  return found
}

/**
 * PUBLISH through the master of the channel's slot, so that one publisher's messages all take the
 * same way to the subscribers and arrive in order (ioredis would pick a random node for a command
 * without keys). Before the slot map is known, any node.
 */
export async function publishInOrder(client: Cluster, channel: string, message: string): Promise<void> {
  const owner = client.slots[hashSlot(channel)]?.[0]
  const node = owner === undefined ? undefined : client.nodes('master').find((n) => `${n.options.host}:${n.options.port}` === owner)
  await (node ?? client).publish(channel, message)
}
