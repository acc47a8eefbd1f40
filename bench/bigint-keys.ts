/**
 * `npm run bench:bigint`: big-integer (`j`) keys against int (`i`) keys in the kernels a query
 * spends its time in with ids (grouping, linking, sorting, comparing with a constant), on the
 * same ids: 10M rows (ROWS) of 1M distinct values. The ids come as four columns:
 *
 * - `i`: random 32-bit values (fmix32 of the id), so the int path hashes them as it would real
 *   ids (the reference, measured in the same run);
 * - `j` stepped: each id past 2^53 (where a float64 would round it), a step of 2^43 apart, so
 *   the column spans most of the 64-bit range and is hashed as pairs of words;
 * - `j` hashes: random 64-bit values (as ClickBench's UserID), likewise;
 * - `j` close: past 2^53 but within 2^32 of each other (the usual shape of real ids), which
 *   the engine keys as Int32 offsets.
 *
 * The target (issue 38) is `j` within 1.5x of `i` for grouping and linking. Each figure is the
 * median of five runs after one untimed warm-up. DuckDB (one thread, as our kernels are) runs
 * the same work on the same values as a reference, BIGINT against INTEGER: GROUP BY with
 * count(*), an inner-join count against the 1M ids, a window row_number() over ORDER BY (a full
 * sort), and a count of one id; the warm-up runs' counts must agree with ours.
 */
import { performance } from 'node:perf_hooks'
import type { DuckDBConnection } from '@duckdb/node-api'
import { bigintWords, firstIndexLookup, groupBy, sortPermutation, type Column } from '../engine/columns/index.js'
import { compare } from '../engine/functions/compare.js'
import { loadDuckDb } from './duck.js'

const ROWS = Number(process.env.ROWS ?? 10_000_000)
const DISTINCT = Math.min(1_000_000, ROWS)

/** One way of writing the ids: id v's value, and its SQL type. */
interface Keys {
  readonly name: string
  readonly sqlType: 'INTEGER' | 'BIGINT'
  /** The 1M ids (index v holds id v). */
  readonly dim: Column
  /** ROWS rows, each one of the ids. */
  readonly rows: Column
}

/** The id drawn for each row: a fixed linear congruential sequence, so every run sees the same rows. */
function draws(): Int32Array {
  const v = new Int32Array(ROWS)
  let s = 12345
  for (let r = 0; r < ROWS; r++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0
    v[r] = s % DISTINCT
  }
  return v
}

/** splitmix64's finaliser: a random-looking, one-to-one 64-bit value per id. */
function mix64(v: bigint): bigint {
  let z = BigInt.asUintN(64, v * 0x9e3779b97f4a7c15n + 0x632be59bd9b4e019n)
  z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n)
  z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn)
  return BigInt.asIntN(64, z ^ (z >> 31n))
}

/**
 * murmur3's finaliser: a random-looking, one-to-one 32-bit value per id (0 only for 0, so never
 * for x + 1; the one id it would give −2^31, the int N/A, gets 0 instead). The reference ids were
 * multiples of the golden-ratio constant the int hash multiplies by, which fell into the table's
 * slots without a single collision: a best case no real column of ids gives.
 */
function fmix32(x: number): number {
  let h = x
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h === -2147483648 ? 0 : h | 0
}

function keySets(v: Int32Array): Keys[] {
  const intId = (x: number): number => fmix32(x + 1)
  const dimI = Int32Array.from({ length: DISTINCT }, (_, x) => intId(x))
  const bigSets: [string, (x: number) => bigint][] = [
    ['j stepped past 2^53', (x) => BigInt(x) * 9007199254741n + 2n ** 53n + 1n],
    ['j random 64-bit hashes', (x) => mix64(BigInt(x))],
    ['j close, past 2^53', (x) => BigInt(x) * 4093n + 2n ** 53n + 1n],
  ]
  const sets: Keys[] = [
    { name: 'i random 32-bit', sqlType: 'INTEGER', dim: { type: 'int', data: dimI }, rows: { type: 'int', data: Int32Array.from(v, (x) => dimI[x]) } },
  ]
  for (const [name, id] of bigSets) {
    const dim = BigInt64Array.from({ length: DISTINCT }, (_, x) => id(x))
    // Rows copied word by word: a BigInt made per row would take seconds.
    const rows = new BigInt64Array(ROWS)
    const from = bigintWords(dim)
    const to = bigintWords(rows)
    for (let r = 0; r < ROWS; r++) {
      to[2 * r] = from[2 * v[r]]
      to[2 * r + 1] = from[2 * v[r] + 1]
    }
    sets.push({ name, sqlType: 'BIGINT', dim: { type: 'bigint', data: dim }, rows: { type: 'bigint', data: rows } })
  }
  return sets
}

/** The median of five timed runs (the caller has made the untimed warm-up run). */
async function median(f: () => unknown): Promise<number> {
  const times: number[] = []
  for (let k = 0; k < 5; k++) {
    const t0 = performance.now()
    await f()
    times.push(performance.now() - t0)
  }
  return times.sort((a, b) => a - b)[2]
}

/** The probe id of `=`: id 7. */
const PROBE = 7

/** Each kernel ours and in SQL; `count` reads from our result what the SQL query counts. */
const kernels: { name: string; ours: (k: Keys) => unknown; count: (result: never) => number; sql: (table: string, k: Keys) => string }[] = [
  {
    name: 'group by the id',
    ours: (k) => groupBy([k.rows], ROWS),
    count: (g: { count: number }) => g.count,
    sql: (t) => `SELECT count(*) FROM (SELECT k, count(*) FROM ${t} GROUP BY k)`,
  },
  {
    name: 'link 10M rows to 1M ids',
    ours: (k) => firstIndexLookup([k.dim], DISTINCT, [k.rows], ROWS),
    count: (l: { match: Int32Array }) => l.match.reduce((c, m) => c + +(m >= 0), 0),
    sql: (t) => `SELECT count(*) FROM ${t} JOIN ${t}_dim USING (k)`,
  },
  {
    name: 'sort by the id',
    ours: (k) => sortPermutation([{ col: k.rows, desc: false }], ROWS),
    count: (p: Int32Array) => p.length,
    sql: (t) => `SELECT max(r) FROM (SELECT row_number() OVER (ORDER BY k) AS r FROM ${t})`,
  },
  {
    name: 'id = constant',
    ours: (k) => compare('=', k.rows, probeOf(k), ROWS),
    count: (c: { data: Int32Array }) => c.data.reduce((s, x) => s + x, 0),
    sql: (t, k) => `SELECT count(*) FROM ${t} WHERE k = ${String(probeOf(k).value)}`,
  },
]

function probeOf(k: Keys): { kind: 'scalar'; type: 'int'; value: number } | { kind: 'scalar'; type: 'bigint'; value: bigint } {
  return k.dim.type === 'bigint'
    ? { kind: 'scalar', type: 'bigint', value: k.dim.data[PROBE] }
    : { kind: 'scalar', type: 'int', value: (k.dim as { data: Int32Array }).data[PROBE] }
}

type DuckApi = Extract<Awaited<ReturnType<typeof loadDuckDb>>, { api: unknown }>['api']

/** A table of one INTEGER column `name`, appended 2,048 rows (one data chunk) at a time. */
async function loadInts(api: DuckApi, conn: DuckDBConnection, table: string, name: string, data: Int32Array): Promise<void> {
  await conn.run(`CREATE OR REPLACE TABLE ${table} (${name} INTEGER)`)
  const appender = await conn.createAppender(table)
  const size = api.DuckDBVector.standardSize()
  try {
    for (let from = 0; from < data.length; from += size) {
      const n = Math.min(size, data.length - from)
      const chunk = api.DuckDBDataChunk.create([api.INTEGER], n)
      const vector = chunk.getColumnVector(0)
      for (let i = 0; i < n; i++) vector.setItem(i, data[from + i])
      vector.flush()
      appender.appendDataChunk(chunk)
    }
    appender.flushSync()
  } finally {
    appender.closeSync()
  }
}

/**
 * DuckDB's copy of every key set: each set's 1M ids as t<s>_dim (v, k), and its 10M rows as
 * t<s> (k), made by SQL from the same draws of v in the same row order. Appending only the draws
 * and the ids (as text for BIGINT, exact) keeps the load to seconds.
 */
async function loadDuck(api: DuckApi, conn: DuckDBConnection, sets: readonly Keys[], v: Int32Array): Promise<void> {
  await loadInts(api, conn, 'draws', 'v', v)
  for (const [s, k] of sets.entries()) {
    await conn.run(`CREATE OR REPLACE TABLE t${s}_dim (v INTEGER, k ${k.sqlType})`)
    const appender = await conn.createAppender(`t${s}_dim`)
    try {
      for (let x = 0; x < DISTINCT; x++) {
        appender.appendInteger(x)
        if (k.dim.type === 'bigint') appender.appendBigInt(k.dim.data[x])
        else appender.appendInteger((k.dim as { data: Int32Array }).data[x])
        appender.endRow()
      }
      appender.flushSync()
    } finally {
      appender.closeSync()
    }
    await conn.run(`CREATE OR REPLACE TABLE t${s} AS SELECT d.k FROM (SELECT rowid AS r, v FROM draws) w JOIN t${s}_dim d USING (v) ORDER BY w.r`)
  }
}

async function main(): Promise<void> {
  const v = draws()
  const sets = keySets(v)
  const duck = await loadDuckDb()
  let conn: DuckDBConnection | null = null
  let version = ''
  if ('api' in duck) {
    const instance = await duck.api.DuckDBInstance.create(':memory:')
    conn = await instance.connect()
    version = String((await conn.runAndReadAll('SELECT version()')).getRows()[0][0])
    await loadDuck(duck.api, conn, sets, v)
    await conn.run('SET threads = 1')
  }
  console.log(`bench:bigint, ${ROWS.toLocaleString('en')} rows, ${DISTINCT.toLocaleString('en')} distinct ids (${new Date().toISOString()})`)
  console.log(
    conn
      ? `DuckDB ${version}, SET threads = 1, the same values in the same row order (BIGINT for j, INTEGER for i)`
      : `DuckDB n/a: ${'error' in duck ? duck.error : ''}`,
  )
  console.log('kernel'.padEnd(25), 'keys'.padEnd(24), 'ours ms'.padStart(8), '/ i'.padStart(6), 'DuckDB ms'.padStart(10), '/ i'.padStart(6))
  const disagree: string[] = []
  for (const kernel of kernels) {
    let oursI = 0
    let duckI = 0
    for (const [s, k] of sets.entries()) {
      // The warm-up runs give both answers: the same count, or the figures compare different work.
      const want = kernel.count(kernel.ours(k) as never)
      const ours = await median(() => kernel.ours(k))
      let theirs = Number.NaN
      if (conn) {
        const c = conn
        const sql = kernel.sql(`t${s}`, k)
        const got = Number((await c.runAndReadAll(sql)).getRows()[0][0])
        if (got !== want) disagree.push(`${kernel.name} on ${k.name}: ours ${want}, DuckDB ${got}`)
        theirs = await median(() => c.run(sql))
      }
      if (s === 0) {
        oursI = ours
        duckI = theirs
      }
      const name = s === 0 ? kernel.name : ''
      console.log(
        name.padEnd(25),
        k.name.padEnd(24),
        ours.toFixed(0).padStart(8),
        (ours / oursI).toFixed(2).padStart(6),
        theirs.toFixed(0).padStart(10),
        (theirs / duckI).toFixed(2).padStart(6),
      )
    }
  }
  console.log(disagree.length === 0 ? (conn ? 'DuckDB and ours agree on every count.' : '') : `DISAGREE: ${disagree.join('; ')}`)
  conn?.closeSync()
}

await main()
