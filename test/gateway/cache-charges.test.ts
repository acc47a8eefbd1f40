/**
 * The gateway's bounded caches bound memory, not only what they choose to count: filled with many
 * times their budget of distinct entries, each holds no more than its budget (and a quarter for
 * what a collection leaves) of real memory, measured as heap and external bytes after a full
 * collection. Entries that cost more than they are charged let a cache of 256 MiB grow to
 * gigabytes under distinct small queries (issue 16, finding 5).
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { CompiledQueries } from '../../gateway/cache/compiled-queries.js'
import { RenderedAnswers } from '../../gateway/query/results/rendered-answers.js'
import { resultBytes } from '../../gateway/query/results/results.js'
import { FairLruCache } from '../../gateway/tables/fair-lru.js'
import { ResultStore } from '../../gateway/query/results/store/chunked.js'
import type { ResultColumn, ResultSet } from '../../shared/protocol.js'
import { createStore } from '../../shared/store/index.js'
import { columnMeta, type ColumnSpec } from '../../shared/table.js'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const MiB = 2 ** 20
const BUDGET = 4 * MiB
/** What one full collection may leave over a cache's budget: the budget's quarter and 1 MiB. */
const CEILING = BUDGET * 1.25 + MiB

function used(): number {
  gc()
  gc()
  const m = process.memoryUsage()
  return m.heapUsed + m.external
}

/** Memory the value made by `fill` holds, measured while it is still reachable. */
async function held(fill: () => Promise<unknown>): Promise<number> {
  const before = used()
  const value = await fill()
  const after = used()
  expect(value).to.not.equal(undefined)
  return after - before
}

/** A result as it arrives from a worker (structured clone: each typed array has its own buffer). */
function result(i: number, ints: number, rows: number, texts = 0): ResultSet {
  const specs: ColumnSpec[] = []
  const columns: ResultColumn[] = []
  for (let c = 0; c < texts; c++) {
    specs.push({ name: `t${c}`, type: 'text' })
    columns.push({ kind: 'text', data: Array.from({ length: rows }, (_, r) => `v${r}-${i}`) })
  }
  for (let c = 0; c < ints; c++) {
    specs.push({ name: `n${c}`, type: 'int' })
    columns.push({ kind: 'int', data: new Int32Array(rows).fill(i) })
  }
  return structuredClone({ cols: specs.map(columnMeta), columns, rowCount: rows })
}

const hexKey = (i: number): string => i.toString(16).padStart(64, '0')
const SHAPES: readonly (readonly [string, number, number, number])[] = [
  ['one row of two numbers', 2, 1, 0],
  ['ten rows with a text column', 2, 10, 1],
  ['a thousand rows of two numbers', 2, 1000, 0],
]

describe('cache charges: each bounded cache holds at most its budget of real memory', function () {
  this.timeout(120_000)

  for (const [name, ints, rows, texts] of SHAPES) {
    it(`the result memo, filled with results of ${name}`, async () => {
      // As Results builds its memo.
      const memo = new FairLruCache<ResultSet>(BUDGET, resultBytes)
      const bytes = await held(async () => {
        for (let i = 0; i < 20_000; i++) memo.set(hexKey(i), result(i, ints, rows, texts))
        return memo
      })
      expect(bytes, `${(bytes / MiB).toFixed(1)} MiB held for a budget of 4 MiB`).to.be.below(CEILING)
      expect(bytes).to.be.above(BUDGET / 2)
    })
  }

  it('rendered answers, filled with small bodies', async () => {
    const rendered = new RenderedAnswers(BUDGET)
    const bytes = await held(async () => {
      for (let i = 0; i < 60_000; i++)
        rendered.remember(`${hexKey(i)}|json|all`, { type: 'application/json', body: JSON.stringify({ store: [3], n: [i], d: [i] }) })
      return rendered
    })
    expect(bytes, `${(bytes / MiB).toFixed(1)} MiB`).to.be.below(CEILING)
    expect(bytes).to.be.above(BUDGET / 2)
  })

  it('compiled queries, parsed and checked, each kind within its budget', async () => {
    const compiled = new CompiledQueries(BUDGET)
    const columns: ColumnSpec[] = [
      { name: 'store', type: 'int' },
      { name: 'sales', type: 'float' },
      { name: 'name', type: 'text' },
    ]
    const tables = [{ path: 'pub.demo.t', version: 'v0abcdef-12345678', columns }]
    const bytes = await held(async () => {
      // A hundred at a time: each check is a round trip to a compiler thread.
      for (let from = 0; from < 20_000; from += 100) {
        const checks = []
        for (let i = from; i < from + 100; i++) {
          checks.push(
            compiled.checkRun(
              `<base table="pub.demo.t"/><sel value="store=3"/><willbe name="d" value="${i}"/><tabu breaks="store"><tcol fun="cnt"/></tabu>`,
              {},
              tables,
            ),
          )
          checks.push(compiled.sqlTableNames(`select store, count(*) n, ${i} d from pub.demo.t group by store`))
        }
        await Promise.all(checks)
      }
      return compiled
    })
    expect(bytes, `${(bytes / MiB).toFixed(1)} MiB for three kinds`).to.be.below(3 * CEILING)
  })

  it('kept results in the embedded store, past MEMORY_STORE_CACHE_MB', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tabula-charges-'))
    const store = createStore({ redis: null, dataDir: dir, memoryCacheBytes: BUDGET })
    await store.connect()
    try {
      const kept = new ResultStore(store, { ttl: 3600 })
      const bytes = await held(async () => {
        for (let i = 0; i < 20_000; i++) await kept.save(hexKey(i), result(i, 2, 10, 1))
        return kept
      })
      expect(bytes, `${(bytes / MiB).toFixed(1)} MiB`).to.be.below(CEILING)
      expect(bytes).to.be.above(BUDGET / 2)
    } finally {
      await store.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})
