/**
 * Which Redis the service talks to: one server by URL, a Redis Cluster by some of its nodes, or
 * the master that a set of Sentinels names. Read from the environment by loadConfig, so a bad
 * setting stops the service at start with a message naming the variable.
 *
 *   REDIS_URL=redis://:pw@host:6379/0                      one server
 *   REDIS_CLUSTER_NODES=host:7000,host:7001                a cluster (any reachable nodes; the
 *                                                          client discovers the rest)
 *   REDIS_SENTINELS=host:26379,host:26380,host:26381       the master Sentinel calls
 *   REDIS_SENTINEL_NAME=tabula                             REDIS_SENTINEL_NAME
 *   REDIS_PASSWORD=…                                       cluster nodes' / sentinel-managed
 *                                                          servers' password (REDIS_URL carries
 *                                                          its own)
 *   REDIS_SENTINEL_PASSWORD=…                              the Sentinels' own password, if any
 */

export interface HostPort {
  readonly host: string
  readonly port: number
}

export type RedisTarget =
  | { readonly kind: 'single'; readonly url: string }
  | { readonly kind: 'cluster'; readonly nodes: readonly HostPort[]; readonly password: string | null }
  | {
      readonly kind: 'sentinel'
      readonly sentinels: readonly HostPort[]
      readonly name: string
      readonly password: string | null
      readonly sentinelPassword: string | null
    }

type Env = Readonly<Record<string, string | undefined>>

const value = (env: Env, name: string): string | null => {
  const v = (env[name] ?? '').trim()
  return v === '' ? null : v
}

/** The Redis settings of the environment; null when none is set (the embedded store). */
export function redisTargetFromEnv(env: Env): RedisTarget | null {
  const url = value(env, 'REDIS_URL')
  const clusterNodes = value(env, 'REDIS_CLUSTER_NODES')
  const sentinels = value(env, 'REDIS_SENTINELS')
  const chosen = [url && 'REDIS_URL', clusterNodes && 'REDIS_CLUSTER_NODES', sentinels && 'REDIS_SENTINELS'].filter(Boolean)
  if (chosen.length > 1) throw new Error(`config: set only one of REDIS_URL, REDIS_CLUSTER_NODES and REDIS_SENTINELS (got ${chosen.join(' and ')})`)
  const password = value(env, 'REDIS_PASSWORD')
  const sentinelName = value(env, 'REDIS_SENTINEL_NAME')
  if (sentinelName && !sentinels) throw new Error('config: REDIS_SENTINEL_NAME needs REDIS_SENTINELS (the Sentinels to ask for that master)')
  if (url) {
    if (!/^(rediss?:\/\/|\/)/.test(url)) throw new Error(`config: REDIS_URL must start with redis://, rediss:// or / (a socket path) (got "${url}")`)
    if (password)
      throw new Error('config: REDIS_PASSWORD is for REDIS_CLUSTER_NODES and REDIS_SENTINELS; put the password in REDIS_URL (redis://:password@host:port)')
    return { kind: 'single', url }
  }
  if (clusterNodes) return { kind: 'cluster', nodes: parseHostPorts('REDIS_CLUSTER_NODES', clusterNodes), password }
  if (sentinels) {
    if (!sentinelName) throw new Error('config: REDIS_SENTINELS needs REDIS_SENTINEL_NAME, the master name the Sentinels monitor')
    return {
      kind: 'sentinel',
      sentinels: parseHostPorts('REDIS_SENTINELS', sentinels),
      name: sentinelName,
      password,
      sentinelPassword: value(env, 'REDIS_SENTINEL_PASSWORD'),
    }
  }
  if (password) throw new Error('config: REDIS_PASSWORD is set but neither REDIS_CLUSTER_NODES nor REDIS_SENTINELS is')
  return null
}

/** "host:port,host:port" (IPv6 hosts in brackets: "[::1]:7000"). */
export function parseHostPorts(setting: string, text: string): HostPort[] {
  const nodes = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const m = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})$/.exec(entry)
      const port = m ? Number(m[2]) : NaN
      if (!m || port < 1 || port > 65535) throw new Error(`config: ${setting} takes host:port entries separated by commas (got "${entry}")`)
      return { host: m[1].replace(/^\[|\]$/g, ''), port }
    })
  if (nodes.length === 0) throw new Error(`config: ${setting} names no host:port`)
  return nodes
}

/** For logs and /healthz: where the store is, without passwords. */
export function describeRedisTarget(target: RedisTarget): string {
  const list = (nodes: readonly HostPort[]): string => nodes.map((n) => `${n.host}:${n.port}`).join(',')
  switch (target.kind) {
    case 'single':
      return target.url.replace(/\/\/[^@/]*@/, '//')
    case 'cluster':
      return `cluster ${list(target.nodes)}`
    case 'sentinel':
      return `sentinel ${target.name} via ${list(target.sentinels)}`
  }
}
