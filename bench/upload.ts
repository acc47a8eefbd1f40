/**
 * `npm run bench:upload [-- --rows N] [-- --chunk-mb M] [-- --keep] [-- --cpu-prof DIR]`: loading a large CSV
 * through the CLI, beside DuckDB's own CSV reader on the same file in the same run.
 *
 * 1. Writes a CSV of N rows (default 10,000,000) to a temporary file: an int key, a date, two
 *    small ints, a float and two text columns of modest cardinality (1,000 and 10,000 values).
 * 2. Starts a gateway process (memory store, no demo data, 2 workers), logs in with the CLI and
 *    runs `tabula upload FILE bench.big` as a child process, timing it end to end (reading,
 *    chunking, sending, the service writing column files, the commit with its SQLite image).
 * 3. Loads the same file with DuckDB (`CREATE TABLE … AS SELECT * FROM read_csv_auto(…)`, all
 *    cores, in this process) and times that.
 * 4. Prints rows per second of both, and the peak resident memory (VmHWM) of the CLI process and
 *    of the gateway process, sampled from /proc while they run (the gateway's after the upload).
 *
 * With --cpu-prof DIR the gateway and the CLI write V8 CPU profiles (.cpuprofile) into DIR.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { cpus, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { start, stop } from '../test/helpers/processes.js'
import { reportSummary } from './summary.js'
import { childEnv } from '../shared/child-env.js'

const CLI = fileURLToPath(new URL('../cli/main.js', import.meta.url))
const PASSWORD = 'bench-secret-1'

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback
}

/** Peak resident memory of a process so far, in MB (VmHWM), or null once it is gone. */
async function peakRss(pid: number): Promise<number | null> {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) / 1024 : null
  } catch {
    return null
  }
}

async function writeCsv(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file, { highWaterMark: 1 << 20 })
  const write = async (s: string) => {
    if (!out.write(s)) await once(out, 'drain')
  }
  await write('trans,date,store,qty,sales,sku,customer\n')
  // mulberry32: a small generator whose every bit is usable (an LCG's low bits repeat quickly).
  let seed = 12345
  const rand = (): number => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  let buf = ''
  for (let i = 0; i < rows; i++) {
    const day = 1 + (i % 28)
    const month = 1 + (Math.floor(i / 28) % 12)
    buf += `${i},2024-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day},${1 + Math.floor(rand() * 100)},${1 + Math.floor(rand() * 9)},${(rand() * 500).toFixed(2)},sku${Math.floor(rand() * 10000)},c${Math.floor(rand() * 1000)}\n`
    if (buf.length > 1 << 20) {
      await write(buf)
      buf = ''
    }
  }
  await write(buf)
  out.end()
  await once(out, 'finish')
}

function runCli(
  args: string[],
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): Promise<{ code: number | null; stderr: string; stdout: string; peakMb: number; ms: number }> {
  const t0 = performance.now()
  const child = spawn(process.execPath, [...nodeArgs, CLI, ...args], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  let peakMb = 0
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => {
    stderr += d
    process.stderr.write(d)
  })
  const timer = setInterval(() => {
    void peakRss(child.pid!).then((mb) => {
      if (mb !== null) peakMb = Math.max(peakMb, mb)
    })
  }, 100)
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearInterval(timer)
      resolve({ code, stderr, stdout, peakMb, ms: performance.now() - t0 })
    })
  })
}

async function duckLoad(file: string): Promise<{ ms: number; rows: number; version: string } | { error: string }> {
  try {
    const api = await import('@duckdb/node-api')
    const instance = await api.DuckDBInstance.create(':memory:')
    const conn = await instance.connect()
    const version = String((await (await conn.runAndReadAll('select version() v')).getRows())[0][0])
    const t0 = performance.now()
    await conn.run(`CREATE TABLE t AS SELECT * FROM read_csv_auto('${file.replace(/'/g, "''")}')`)
    const ms = performance.now() - t0
    const rows = Number((await (await conn.runAndReadAll('select count(*) from t')).getRows())[0][0])
    conn.closeSync()
    return { ms, rows, version }
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) }
  }
}

async function main(): Promise<void> {
  const rows = Number(arg('rows', '10000000'))
  const chunkMb = arg('chunk-mb', '4')
  const dir = await mkdtemp(join(tmpdir(), 'tabula-bench-upload-'))
  const file = join(dir, 'big.csv')
  const dataDir = join(dir, 'data')
  console.log(
    `bench:upload ${new Date().toISOString()} — ${cpus().length} cores (${cpus()[0]?.model}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load average ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`,
  )
  let t = performance.now()
  await writeCsv(file, rows)
  const size = (await stat(file)).size
  console.log(`CSV: ${rows.toLocaleString('en-US')} rows, ${(size / 2 ** 20).toFixed(0)} MiB, written in ${((performance.now() - t) / 1000).toFixed(1)} s`)

  let ours: { rows: number; ms: number } | null
  const profileDir = arg('cpu-prof', '')
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []
  const gw = await start({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', WORKERS: '2', DEMO_DATA: '0', ADMIN_PASSWORD: PASSWORD }, profile)
  try {
    const env = { TABULA_CONFIG_DIR: join(dir, 'config'), TABULA_URL: gw.base.replace(/\/v1\/api$/, '') }
    const login = await runCli(['login', '--user', 'admin'], { ...env, TABULA_PASSWORD: PASSWORD })
    if (login.code !== 0) throw new Error(`login failed: ${login.stderr}`)
    const gatewayBefore = await peakRss(gw.child.pid!)
    t = performance.now()
    // Printed as JSON, the CLI's default on a pipe: upload's --format names the file's format.
    const up = await runCli(['upload', file, 'uploads.admin.big', '--chunk-mb', chunkMb], env, profile)
    if (up.code !== 0) throw new Error(`upload failed (exit ${up.code}): ${up.stderr}`)
    const uploaded = JSON.parse(up.stdout) as { rows: number; cols: string }
    ours = { rows: uploaded.rows, ms: up.ms }
    const gatewayPeak = await peakRss(gw.child.pid!)
    console.log(
      `\nours:   ${uploaded.rows.toLocaleString('en-US')} rows (${uploaded.cols}) in ${(up.ms / 1000).toFixed(1)} s = ${Math.round(uploaded.rows / (up.ms / 1000)).toLocaleString('en-US')} rows/s through the CLI (chunks of ${chunkMb} MB)`,
    )
    console.log(`        peak RSS: CLI ${up.peakMb.toFixed(0)} MB, gateway ${gatewayPeak?.toFixed(0)} MB (${gatewayBefore?.toFixed(0)} MB before the upload)`)
    const check = await runCli(['sql', 'select count(*) n, count(distinct sku) skus, sum(qty) qty from uploads.admin.big', '--format', 'json'], env)
    console.log(`        check: ${check.stdout.trim()}`)
  } finally {
    await stop(gw)
  }
  const duck = await duckLoad(file)
  if ('error' in duck) console.log(`duckdb: n/a (${duck.error})`)
  else
    console.log(
      `duckdb: ${duck.rows.toLocaleString('en-US')} rows in ${(duck.ms / 1000).toFixed(1)} s = ${Math.round(duck.rows / (duck.ms / 1000)).toLocaleString('en-US')} rows/s (read_csv_auto into an in-memory table, ${cpus().length} threads, DuckDB ${duck.version})`,
    )
  const oursRate = ours ? ours.rows / (ours.ms / 1000) : null
  const duckRate = 'error' in duck ? null : duck.rows / (duck.ms / 1000)
  reportSummary([
    {
      group: 'upload',
      figure: `${(rows / 1e6).toFixed(0)}M-row CSV through the CLI, chunked`,
      unit: 'rows/s',
      ours: oursRate,
      reference: duckRate,
      referenceLabel: 'DuckDB read_csv',
      ratio: oursRate !== null && duckRate !== null ? oursRate / duckRate : null,
      target: '',
      ok: null,
    },
  ])
  if (!process.argv.includes('--keep')) await rm(dir, { recursive: true, force: true })
  else console.log(`kept ${dir}`)
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e)
    process.exit(1)
  },
)
