/**
 * Stop latency benchmark: how fast `!stop` on one gateway ends a long query running on another,
 * and how fast the pool serves again.
 *
 *   node dist/bench/micro/stop-latency.js               two registries on one memory store
 *   node dist/bench/micro/stop-latency.js redis://…     two registries on two Redis connections
 *
 * Each round: a never-ending SQL task is tracked on gateway A (PoolRunner, 2 workers); after
 * 200 ms another short query is started and gateway B requests the stop. Timed from the
 * requestStop call: its answer, the STOPPED rejection (the stopped request's response), the next
 * `select 1`, and "two workers serving" (a `select 1` answered while the other worker is busy,
 * i.e. the killed worker's replacement has booted). The other query must succeed every round.
 */
import { randomBytes } from 'node:crypto'
import { AppError } from '../../shared/errors.js'
import type { SqlTask } from '../../shared/protocol.js'
import { createMemoryStore, createRedisStore } from '../../shared/store/index.js'
import type { Store } from '../../shared/store/index.js'
import { PoolRunner } from '../../gateway/pool/runner.js'
import { StopRegistry } from '../../gateway/query/running/registry.js'

const ROUNDS = 20
const RUN_BEFORE_STOP_MS = 200
const TARGET_MS = 100

const count = (limit: string): SqlTask => ({
  kind: 'sql',
  sql: `with recursive c(x) as (select 1 union all select x+1 from c${limit}) select count(*) from c`,
  tables: [],
  maxRows: 10,
})
/** Counts forever: only a terminated worker ends it. */
const LONG = count('')
/** The short query in flight beside the stopped one: some tens of milliseconds of work. */
const OTHER = count(' where x < 50000')
/** Keeps one worker busy while the probe checks that the other one answers. */
const BLOCKER = count(' where x < 1000000')
const SELECT_1: SqlTask = { kind: 'sql', sql: 'select 1', tables: [], maxRows: 10 }

interface Round {
  readonly answer: number
  readonly stopped: number
  readonly next: number
  readonly twoWorkers: number
}

async function main(): Promise<number> {
  const redisUrl = process.argv[2]
  const prefix = `bench-stop:${randomBytes(4).toString('hex')}:`
  const open = async (): Promise<Store> => {
    const store = redisUrl ? createRedisStore(redisUrl, { keyPrefix: prefix }) : createMemoryStore()
    await store.connect()
    return store
  }
  const storeA = await open()
  const storeB = redisUrl ? await open() : storeA
  const a = new StopRegistry(storeA, { gatewayId: 'bench-a' })
  const b = new StopRegistry(storeB, { gatewayId: 'bench-b' })
  await Promise.all([a.start(), b.start()])
  const runner = new PoolRunner({ workers: 2 })
  console.log(`stop benchmark: ${redisUrl ? `Redis ${redisUrl}, two connections` : 'memory store, one process'}; PoolRunner with 2 workers; ${ROUNDS} rounds`)
  try {
    await Promise.all([runner.run(SELECT_1), runner.run(SELECT_1)])
    const t0 = performance.now()
    await runner.run(OTHER)
    console.log(`the other short query alone takes ${(performance.now() - t0).toFixed(1)} ms`)
    const rounds: Round[] = []
    for (let i = 1; i <= ROUNDS; i++) {
      const round = await runRound(runner, a, b, `bench:${i}`)
      rounds.push(round)
      console.log(
        `  round ${String(i).padStart(2)}: answer ${ms(round.answer)}  stopped ${ms(round.stopped)}  next select 1 ${ms(round.next)}  two workers ${ms(round.twoWorkers)}`,
      )
    }
    printSummary(rounds)
    return rounds.every((r) => r.stopped < TARGET_MS) ? 0 : 2
  } finally {
    await runner.close()
    await Promise.all([a.close(), b.close()])
    if (redisUrl) {
      const keys = await storeA.keys('')
      if (keys.length > 0) await storeA.del(...keys)
    }
    await Promise.all([...new Set([storeA, storeB])].map((s) => s.close()))
  }
}

/** One stop; throws when the long query ends otherwise than STOPPED or the other query fails. */
async function runRound(runner: PoolRunner, a: StopRegistry, b: StopRegistry, queryKey: string): Promise<Round> {
  const long = a
    .track(queryKey, (signal) => runner.run(LONG, { signal }))
    .then(
      () => new Error('the long query finished instead of being stopped'),
      (error: unknown) => error,
    )
  await sleep(RUN_BEFORE_STOP_MS)
  const other = runner.run(OTHER)

  const t0 = performance.now()
  const { stopped: found } = await b.requestStop(queryKey)
  const answer = performance.now() - t0
  const error = await long
  const stopped = performance.now() - t0
  if (!found || !(error instanceof AppError) || error.code !== 'STOPPED') throw new Error(`round ${queryKey}: not stopped (${String(error)})`)
  await runner.run(SELECT_1)
  const next = performance.now() - t0

  const result = await other // rejects, failing the benchmark, if the stop disturbed it
  if (result.rowCount !== 1) throw new Error('the other query returned a wrong result')
  let blockerDone = false
  const blocker = runner.run(BLOCKER).then(() => (blockerDone = true))
  await runner.run(SELECT_1)
  const twoWorkers = performance.now() - t0
  if (blockerDone) throw new Error('select 1 had to wait for the blocker: only one worker serves')
  await blocker
  return { answer, stopped, next, twoWorkers }
}

function printSummary(rounds: readonly Round[]): void {
  console.log(`\n  ${'ms'.padEnd(28)}${'median'.padStart(9)}${'p95'.padStart(9)}${'max'.padStart(9)}`)
  const rows: [string, keyof Round][] = [
    ['requestStop answered', 'answer'],
    ['stopped response (409)', 'stopped'],
    ['next select 1 succeeded', 'next'],
    ['two workers serving', 'twoWorkers'],
  ]
  for (const [label, field] of rows) {
    const sorted = rounds.map((r) => r[field]).sort((x, y) => x - y)
    console.log(`  ${label.padEnd(28)}${ms(quantile(sorted, 0.5))}${ms(quantile(sorted, 0.95))}${ms(sorted[sorted.length - 1])}`)
  }
  const worst = Math.max(...rounds.map((r) => r.stopped))
  console.log(
    `\n  target: stopped response under ${TARGET_MS} ms: ${worst < TARGET_MS ? 'met' : 'MISSED'} (worst ${worst.toFixed(1)} ms); the other query succeeded in every round`,
  )
}

/** Nearest-rank quantile of sorted samples. */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]
}

const ms = (value: number): string => value.toFixed(1).padStart(9)
const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis))

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err)
    process.exit(1)
  },
)
