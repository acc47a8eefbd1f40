/**
 * Micro-benchmark of the result cache: saves a 1,000,000-row, 8-column result (ints, a date,
 * floats, dictionary text) and times the save and 200 random 100-row readRange calls, on the
 * memory store and, given a URL, on Redis. Target (issue 4): a 100-row range of a 1M-row result
 * in under 20 ms at the median.
 *
 *   node dist/bench/micro/result-store.js [redis://127.0.0.1:6379]
 *
 * Redis keys go under a random prefix and are deleted afterwards; nothing else on the server is touched.
 */
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import type { ResultSet } from '../../shared/protocol.js'
import { createMemoryStore, createRedisStore, type Store } from '../../shared/store/index.js'
import { columnMeta, NA_INT, type ColumnSpec } from '../../shared/table.js'
import { ResultStore } from '../../gateway/query/results/store/chunked.js'
import { randomStream } from '../../engine/demo/random.js'

const ROWS = 1_000_000
const READS = 200
const RANGE_ROWS = 100
const TARGET_MEDIAN_MS = 20

const WORDS = ['north', 'south', 'east', 'west', 'central', 'Zürich', 'São Paulo', '東京', 'retail', 'wholesale', 'online', '']

function makeResult(rows: number): ResultSet {
  const next = randomStream(42)
  const specs: ColumnSpec[] = [
    { name: 'id', type: 'int' },
    { name: 'qty', type: 'int' },
    { name: 'day', type: 'date' },
    { name: 'price', type: 'float' },
    { name: 'amount', type: 'float' },
    { name: 'ratio', type: 'float' },
    { name: 'region', type: 'text' },
    { name: 'channel', type: 'text' },
  ]
  const ints = (f: (i: number) => number): Int32Array => Int32Array.from({ length: rows }, (_, i) => f(i))
  const floats = (f: (i: number) => number): Float64Array => Float64Array.from({ length: rows }, (_, i) => f(i))
  const words = (): string[] => Array.from({ length: rows }, () => WORDS[Math.floor(next() * WORDS.length)])
  return {
    cols: specs.map(columnMeta),
    columns: [
      { kind: 'int', data: ints((i) => i) },
      { kind: 'int', data: ints(() => (next() < 0.02 ? NA_INT : Math.floor(next() * 1000))) },
      { kind: 'int', data: ints((i) => 20200101 + (i % 28)) },
      { kind: 'float', data: floats(() => Math.round(next() * 100_000) / 100) },
      { kind: 'float', data: floats(() => (next() < 0.02 ? NaN : next() * 1e6)) },
      { kind: 'float', data: floats(() => next()) },
      { kind: 'text', data: words() },
      { kind: 'text', data: words() },
    ],
    rowCount: rows,
  }
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now()
  const value = await fn()
  return [value, performance.now() - start]
}

async function benchStore(label: string, store: Store, result: ResultSet): Promise<boolean> {
  await store.connect()
  try {
    const cache = new ResultStore(store, { ttl: 600 })
    const key = `bench:${randomUUID()}`
    const [outcome, saveMs] = await timed(() => cache.save(key, result))
    if (outcome !== 'saved') throw new Error(`save answered ${outcome}`)
    const meta = (await cache.meta(key))!
    const next = randomStream(7)
    const starts = Array.from({ length: READS }, () => Math.floor(next() * (ROWS - RANGE_ROWS)))
    // A few untimed reads first: JIT warm-up and connection set-up are not what is measured.
    for (const from of starts.slice(0, 10)) await cache.readRange(key, from, from + RANGE_ROWS)
    const times: number[] = []
    for (const from of starts) {
      const [rows, ms] = await timed(() => cache.readRange(key, from, from + RANGE_ROWS))
      if (rows?.rowCount !== RANGE_ROWS || (rows.columns[0] as { data: Int32Array }).data[0] !== from) throw new Error(`wrong rows for ${from}`)
      times.push(ms)
    }
    times.sort((a, b) => a - b)
    const [, touchMs] = await timed(() => cache.touch(key))
    const [, dropMs] = await timed(() => cache.drop(key))
    const median = percentile(times, 50)
    console.log(
      `${label.padEnd(7)} save ${saveMs.toFixed(0).padStart(5)} ms (${(meta.bytes / 2 ** 20).toFixed(1)} MiB in ${meta.chunks} chunks)` +
        ` | readRange ${RANGE_ROWS} rows ×${READS}: median ${median.toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms, max ${times[times.length - 1].toFixed(2)} ms` +
        ` | touch ${touchMs.toFixed(1)} ms, drop ${dropMs.toFixed(1)} ms`,
    )
    return median < TARGET_MEDIAN_MS
  } finally {
    await store.close()
  }
}

async function main(): Promise<number> {
  const redisUrl = process.argv[2] ?? null
  const [result, buildMs] = await timed(async () => makeResult(ROWS))
  console.log(
    `result: ${ROWS.toLocaleString('en')} rows × ${result.columns.length} columns, built in ${buildMs.toFixed(0)} ms; target median < ${TARGET_MEDIAN_MS} ms`,
  )
  let ok = await benchStore('memory', createMemoryStore(), result)
  if (redisUrl) ok = (await benchStore('redis', createRedisStore(redisUrl, { keyPrefix: `bench-results:${randomUUID()}:` }), result)) && ok
  else console.log('redis   skipped (pass a redis:// URL to include it)')
  console.log(ok ? 'target met' : 'target MISSED')
  return ok ? 0 : 1
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err)
    process.exit(1)
  },
)
