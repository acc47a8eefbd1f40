/**
 * The entry of `npm test`: provides a Redis for the Redis tests, runs every compiled test file
 * with mocha, and always stops what it started.
 *
 *   node dist/test/run-tests.js            all tests
 *   node dist/test/run-tests.js store sql  only files whose path contains "store" or "sql"
 *
 * Redis: an existing TEST_REDIS_URL is used as is; otherwise a private redis-server is started when
 * one is installed. Without either the Redis tests are skipped, except on CI (CI=true), where a
 * silently skipped half of the suite would look like a pass, so the run fails instead.
 *
 * Redis Cluster: likewise TEST_REDIS_CLUSTER_NODES (host:port,…) is used as is, or a private
 * cluster of three masters is started next to the private redis-server (test/helpers/redis-cluster.ts).
 */
import Mocha from 'mocha'
import { readdir } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { findRedisServer, startRedisServer } from './helpers/redis-server.js'
import type { RedisServer } from './helpers/redis-server.js'
import { startRedisCluster, type RedisClusterProcesses } from './helpers/redis-cluster.js'

/** dist/test: this file's own folder once compiled. */
const TEST_ROOT = dirname(fileURLToPath(import.meta.url))

let redis: RedisServer | null = null
let redisCluster: RedisClusterProcesses | null = null

async function main(): Promise<number> {
  const filters = process.argv.slice(2)
  const files = (await findTestFiles(TEST_ROOT)).filter((file) => filters.length === 0 || filters.some((f) => relative(TEST_ROOT, file).includes(f)))
  if (files.length === 0) {
    console.error(`No test file under ${TEST_ROOT} matches ${filters.map((f) => JSON.stringify(f)).join(' or ')}.`)
    return 1
  }
  if (!(await provideRedis())) return 1

  const mocha = new Mocha({ timeout: 30_000, reporter: 'spec' })
  for (const file of files) mocha.addFile(file)
  await mocha.loadFilesAsync()
  let stats = { passes: 0, failures: 0, pending: 0 }
  const failures = await new Promise<number>((resolve) => {
    const runner = mocha.run(resolve)
    runner.on('end', () => (stats = { passes: runner.stats?.passes ?? 0, failures: runner.stats?.failures ?? 0, pending: runner.stats?.pending ?? 0 }))
  })
  // One plain closing line that CI reads, whatever the reporter printed above.
  console.log(`${stats.passes} passed, ${stats.failures} failed, ${stats.pending} skipped`)
  return failures > 0 ? 1 : 0
}

/** Sets TEST_REDIS_URL when it can; false when the run must fail for lack of Redis. */
async function provideRedis(): Promise<boolean> {
  if (process.env.TEST_REDIS_URL) {
    console.log(`Redis tests use TEST_REDIS_URL=${process.env.TEST_REDIS_URL}`)
    return true
  }
  if (findRedisServer()) {
    redis = await startRedisServer()
    process.env.TEST_REDIS_URL = redis.url
    console.log(`Redis tests use a private redis-server at ${redis.url}`)
    if (!process.env.TEST_REDIS_CLUSTER_NODES) {
      redisCluster = await startRedisCluster()
      process.env.TEST_REDIS_CLUSTER_NODES = redisCluster.spec
      console.log(`Redis Cluster tests use a private cluster of three masters at ${redisCluster.spec}`)
    }
    return true
  }
  if (process.env.CI === 'true') {
    console.error(
      'redis-server is not installed and TEST_REDIS_URL is not set; on CI the Redis tests must run. Install redis-server (e.g. apt-get install redis-server) or set TEST_REDIS_URL.',
    )
    return false
  }
  console.log('Redis tests are skipped: redis-server is not installed and TEST_REDIS_URL is not set.')
  return true
}

/** Every *.test.js below root, sorted so the order is the same on every machine. */
async function findTestFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true })
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.js'))
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
    .sort()
}

async function stopRedis(): Promise<void> {
  const server = redis
  const cluster = redisCluster
  redis = null
  redisCluster = null
  await Promise.all([server?.stop(), cluster?.stop()])
}

/** Stops Redis, then exits: explicit exit so a handle some test leaked cannot keep the run alive. */
async function finish(code: number): Promise<never> {
  try {
    await stopRedis()
  } catch (err) {
    console.error('Could not stop the test redis-server:', err)
    code = code || 1
  }
  process.exit(code)
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\nInterrupted (${signal}); stopping.`)
    void finish(130)
  })
}

main().then(finish, (err: unknown) => {
  console.error(err)
  return finish(1)
})
