/**
 * The memory line of `npm run bench`: a gateway-like process with a PoolRunner of two engine
 * workers and a TableCache loads the item table's column files into SharedArrayBuffers once and
 * runs one macro query on both workers at the same time. Resident memory is printed before
 * loading, after loading and after the workers ran: if the workers had copies of the table, the
 * last step would add about twice the table's size; sharing adds only the query's own memory.
 *
 *   node --expose-gc dist/bench/memory.js --rows 10000000
 *
 * The table files are written first by a child process (`--write DIR`), so that generating the
 * data does not inflate this process's baseline. They are written as the storage layer lays a
 * version out (meta.json + one binary file per column + dictionaries), without the SQLite image,
 * which api/run does not read.
 */
import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { RunTask, TableInput } from '../shared/protocol.js'
import { tablesDir } from '../engine/storage/index.js'
import { parseQuery } from '../engine/parse/index.js'
import { checkQuery } from '../engine/check/index.js'
import { withPlan } from '../engine/parallel/plan.js'
import { PoolRunner } from '../gateway/pool/runner.js'
import { TableCache } from '../gateway/tables/table-cache.js'
import { writeBenchItemTable } from './table-files.js'

const QUERY =
  '<base table="pub.demo.retail.item"/>' +
  '<tabu breaks="store"><break col="store" sort="up"/><tcol source="sales" fun="sum"/><tcol source="cost" fun="sum"/>' +
  '<tcol source="qty" fun="sum"/><tcol source="payment" fun="first"/><tcol fun="cnt"/></tabu>'

/**
 * Queries of every common shape (issue 19's seven, on the item table, and a wide median), run on
 * both workers after the first query: what the gateway and its workers hold after them is the
 * memory line's figure, against the bound of twice the column data plus 300 MB.
 */
const ITEM = '<base table="pub.demo.retail.item"/>'
const SHAPES = [
  `${ITEM}<tabu breaks="store,payment"><tcol source="sales" fun="sum"/><tcol source="sales" fun="avg"/><tcol fun="cnt"/></tabu>`,
  `${ITEM}<sel value="between(date;20230101;20230630) &amp; qty&gt;2"/><tabu breaks="store"><tcol source="sales" fun="sum"/><tcol fun="cnt"/></tabu>`,
  `${ITEM}<tabu breaks="store"><tcol source="customer" fun="ucnt"/></tabu>`,
  `${ITEM}<sort col="sales" dir="down"/><sel value="i_()&lt;=10"/>`,
  `${ITEM}<willbe name="unit" value="sales/qty"/><sel value="unit&gt;5"/><tabu><tcol source="unit" fun="avg"/><tcol fun="cnt"/></tabu>`,
  `${ITEM}<willbe name="gs" value="g_sum(store;;sales)"/><sel value="sales*10000&gt;gs"/><tabu breaks="store"><tcol fun="cnt"/></tabu>`,
  `${ITEM}<tabu breaks="sku"><tcol source="sales" fun="median"/><tcol source="qty" fun="sum"/></tabu>`,
  `${ITEM}<sel value="store=7"/>`,
]

const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(0)} MB`
const gc = (): void => (globalThis as { gc?: () => void }).gc?.()

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : undefined
}

/** Child mode: generate the item table and write it as one table version under dataDir. */
async function writeTable(dataDir: string, rows: number): Promise<void> {
  process.stdout.write(`${await writeBenchItemTable(dataDir, rows)}\n`)
}

function writeInChild(dataDir: string, rows: number): Promise<string> {
  const script = fileURLToPath(import.meta.url)
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, '--write', dataDir, '--rows', String(rows)], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`table writer exited with ${code}`))))
  })
}

function rss(): number {
  gc()
  return process.memoryUsage().rss
}

async function measure(rows: number): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tabula-bench-'))
  let runner: PoolRunner | null = null
  try {
    await mkdir(tablesDir(dataDir), { recursive: true })
    const version = await writeInChild(dataDir, rows)
    const path = 'pub.demo.retail.item'

    // Workers up and warm (each has loaded the engine and sql.js) before the baseline.
    runner = new PoolRunner({ workers: 2 })
    const warm: RunTask = { kind: 'run', ops: checkQuery(parseQuery('<table cols="a">1;2</table>', {}), new Map()).ops, tables: [], maxRows: 1000 }
    await Promise.all([1, 2].map(() => runner!.run(warm)))
    const before = rss()

    const cache = new TableCache(dataDir, 8 * 2 ** 30)
    const meta = await cache.meta(version)
    const columns = await Promise.all(
      meta.columns.map(async (spec, i) => {
        const c = await cache.column(version, i)
        return { spec, buffer: c.buffer, ...(c.sharedDict ? { dict: c.sharedDict } : {}) }
      }),
    )
    const table: TableInput = { path, version, rows: meta.rows, title: 'Retail Demo: Line Items', columns }
    const tableBytes = columns.reduce((n, c) => n + c.buffer.byteLength, 0)
    const loaded = rss()

    const ops = checkQuery(parseQuery(QUERY, {}), new Map([[path, meta.columns]])).ops
    // Planned as the gateway plans it (runOnPool), so the tabulation runs as a query does.
    const task: RunTask = withPlan({ kind: 'run', ops, tables: [table], maxRows: 1_000_000 })
    const results = await Promise.all([1, 2].map(() => runner!.run(task)))
    const ran = rss()
    if (results.some((r) => r.rowCount !== results[0].rowCount)) throw new Error('the two workers disagree')
    // Twice more: what the first run added is working memory the allocators keep for reuse (it
    // must not grow run after run), not a copy of the table or a leak.
    for (let i = 0; i < 2; i++) await Promise.all([1, 2].map(() => runner!.run(task)))
    const ranAgain = rss()

    // Every shape on both workers at once, twice: the second round must not add much to the first.
    const shapeTask = (xml: string): RunTask =>
      withPlan({ kind: 'run', ops: checkQuery(parseQuery(xml, {}), new Map([[path, meta.columns]])).ops, tables: [table], maxRows: 10_000_000 })
    for (const xml of SHAPES) await Promise.all([1, 2].map(() => runner!.run(shapeTask(xml))))
    const shapes = rss()
    for (const xml of SHAPES) await Promise.all([1, 2].map(() => runner!.run(shapeTask(xml))))
    const shapesAgain = rss()
    const bound = 2 * tableBytes + 300 * 2 ** 20
    const held = Math.max(shapes, shapesAgain)

    process.stdout.write(
      `RSS before loading ${mb(before)}; after loading the ${meta.rows.toLocaleString('en-US')}-row, ${meta.columns.length}-column item table into the TableCache ${mb(loaded)} ` +
        `(+${mb(loaded - before)}, table ${mb(tableBytes)}); after both workers ran the query at once ${mb(ran)} (+${mb(ran - loaded)}); ` +
        `after two more runs ${mb(ranAgain)} (${ranAgain >= ran ? '+' : '-'}${mb(Math.abs(ranAgain - ran))}: the query's working memory, kept by the allocators for reuse).\n` +
        `Two workers read the same SharedArrayBuffers (the table is held once): a copy per worker would have added about ${mb(2 * tableBytes)}.\n` +
        `query on both workers: ${QUERY}\n` +
        `after ${SHAPES.length} queries of other shapes (issue 19's seven and a wide median) on both workers: ${mb(shapes)}, and ${mb(shapesAgain)} after a second round. ` +
        `Held: ${mb(held)} = ${(held / tableBytes).toFixed(2)}x the column data; bound (2x the column data + 300 MB) ${mb(bound)}: ${held <= bound ? 'within' : 'OVER'}.\n`,
    )
  } finally {
    await runner?.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}

const rowsArg = Number(arg('--rows') ?? 10_000_000)
const writeDir = arg('--write')
const main = writeDir !== undefined ? writeTable(writeDir, rowsArg) : measure(rowsArg)
main.catch((e: unknown) => {
  process.stderr.write(`memory benchmark failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`)
  process.exit(1)
})
