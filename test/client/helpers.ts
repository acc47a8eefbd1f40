/**
 * What the client and CLI tests share: a gateway process of their own (memory store, a small
 * demo, a temporary DATA_DIR), the compiled CLI run as a child process, and a fresh config
 * folder per test so saved sessions never leak between tests.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect } from 'chai'
import { Client, TabulaError } from '../../client/index.js'
import { start, stop, type Running } from '../helpers/processes.js'

export const ADMIN_PASSWORD = 'admin-secret-1'

/** The compiled CLI beside this compiled test: <outDir>/cli/main.js. */
export const CLI = fileURLToPath(new URL('../../cli/main.js', import.meta.url))

export interface Gateway {
  readonly run: Running
  /** `http://127.0.0.1:PORT` */
  readonly url: string
  readonly api: string
  readonly dataDir: string
  close(): Promise<void>
}

export async function startGateway(env: Record<string, string> = {}): Promise<Gateway> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tabula-client-'))
  const run = await start({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', WORKERS: '1', DEMO_ROWS: '2000', ADMIN_PASSWORD, ...env })
  return {
    run,
    api: run.base,
    url: run.base.replace(/\/v1\/api$/, ''),
    dataDir,
    async close() {
      await stop(run)
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

export async function adminClient(g: { api: string }): Promise<Client> {
  const c = new Client({ baseUrl: g.api })
  await c.login('admin', ADMIN_PASSWORD)
  return c
}

export interface CliResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs `tabula ARGS` with only the environment given (plus PATH), and optional stdin text. */
export function cli(args: readonly string[], env: Record<string, string>, input?: string): Promise<CliResult> {
  return spawnCli(args, env, input).result
}

/** The same, with the child process at hand (to send it a signal). */
export function spawnCli(args: readonly string[], env: Record<string, string>, input?: string): { child: ChildProcess; result: Promise<CliResult> } {
  const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  child.stdin.end(input ?? '')
  const result = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
  return { child, result }
}

/** A fresh, empty config folder (TABULA_CONFIG_DIR) for one test. */
export async function configDir(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'tabula-config-'))
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}

/** CSV text of `rows` rows with an int, a text (repeating), a float, a date and a sometimes-quoted text column. */
export function sampleCsv(rows: number): string {
  const lines = ['id,name,price,day,note']
  for (let i = 0; i < rows; i++) {
    // Every 250th note has a comma, doubled quotes and a line break: records that span lines.
    const note = i % 250 === 0 ? `"row ${i}, ""quoted""\nsecond line"` : i % 3 === 0 ? '' : `note ${i % 11}`
    lines.push(`${i},n${i % 97},${(i * 0.25).toFixed(2)},2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')},${note}`)
  }
  return `${lines.join('\n')}\n`
}

/** The TabulaError a call fails with (and a test failure when it does not fail with one). */
export async function failure(p: Promise<unknown>): Promise<TabulaError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  )
  expect(e, 'expected a TabulaError').to.be.instanceOf(TabulaError)
  return e as TabulaError
}

/** A gateway process, a config folder whose CLI session is the admin's, and an API client of the admin. */
export interface LoggedInCli {
  /** The environment that points the CLI at that config folder. */
  readonly env: Record<string, string>
  readonly client: Client
}

/**
 * Starts a gateway (with `gatewayEnv`) before the suite, logs the CLI in as the admin in a config
 * folder of its own, and removes both after. The object's fields are set once `before` has run.
 */
export function useLoggedInCli(gatewayEnv: Record<string, string> = {}): LoggedInCli {
  let g: Gateway | undefined
  let cfg: { dir: string; remove(): Promise<void> } | undefined
  const live = { env: {} as Record<string, string>, client: undefined as unknown as Client }
  before(async () => {
    g = await startGateway(gatewayEnv)
    cfg = await configDir()
    live.env = { TABULA_CONFIG_DIR: cfg.dir }
    const r = await cli(['login', '--url', g.url, '--user', 'admin'], { ...live.env, TABULA_PASSWORD: ADMIN_PASSWORD })
    expect(r.code, r.stderr).to.equal(0)
    live.client = await adminClient(g)
  })
  after(async () => {
    await g?.close()
    await cfg?.remove()
  })
  return live
}
