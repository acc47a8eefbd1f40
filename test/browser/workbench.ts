/**
 * The service the browser tests talk to: a real gateway process (memory store, demo data in a
 * temporary DATA_DIR) on a loopback port, plus the calls the tests make to it from Node to set
 * things up and to check what the page shows against what the API answers.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import type { BrowserContext } from 'playwright-core'
import { chromiumAvailable } from '../helpers/browser.js'
import { SERVER, stop, type Running } from '../helpers/processes.js'
import { childEnv } from '../../shared/child-env.js'

export const ADMIN_PASSWORD = 'admin-secret-1'

export interface Workbench {
  /** http://127.0.0.1:<port> */
  readonly origin: string
  /** http://127.0.0.1:<port>/v1/api */
  readonly api: string
  /** The admin's session cookie value (uid|sid|epw), shared with the browser contexts. */
  readonly session: string
  /** A request to `${api}/${path}` with the admin's session. */
  fetch(path: string, init?: RequestInit): Promise<Response>
  /** JSON of a request that must answer 200. */
  json<T = unknown>(path: string, init?: RequestInit): Promise<T>
  /** One api/dbm transaction that must succeed; returns its value. */
  dbm<T = unknown>(name: string, params: Record<string, unknown>): Promise<T>
  /** Gives a browser context the admin's session, so a page opens logged in. */
  logIn(context: BrowserContext): Promise<void>
}

/**
 * Starts a gateway before the suite (unless the browser tests are skipped) and stops it after.
 * Every context shares the admin's one session (a user has one live session), which the tests
 * run one after another in.
 */
export function useWorkbench(env: Record<string, string> = {}, startTimeoutMs = 60_000): () => Workbench {
  let running: Running | null = null
  let dataDir = ''
  let bench: Workbench | null = null

  before(async function () {
    if (!chromiumAvailable()) this.skip()
    this.timeout(startTimeoutMs)
    dataDir = await mkdtemp(join(tmpdir(), 'tabula-browser-'))
    running = await startGateway(
      {
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        ADMIN_PASSWORD,
        WORKERS: '2',
        DEMO_ROWS: '3000',
        ...env,
      },
      startTimeoutMs - 5_000,
    )
    bench = await connect(running.base)
  })

  after(async function () {
    this.timeout(30_000)
    // A gateway that died on its own has nothing left to stop (and stop() would wait for an exit forever).
    if (running && running.child.exitCode === null && running.child.signalCode === null) await stop(running)
    running = null
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  return () => {
    if (!bench) throw new Error('the workbench service is not running')
    return bench
  }
}

/**
 * Starts gateway/server.js and resolves once it prints its address. Like processes.ts's start, but
 * with a deadline the caller chooses: seeding ten million demo rows can take half a minute on a
 * busy machine. A gateway that does not come up is killed, never left behind.
 */
function startGateway(env: Record<string, string>, timeoutMs: number): Promise<Running> {
  const child = spawn(process.execPath, [SERVER], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stderr.on('data', (d) => (stderr += d))
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(new Error(`${why}:\n${stdout}\n${stderr}`))
    }
    const timer = setTimeout(() => fail(`the gateway did not start within ${timeoutMs} ms`), timeoutMs)
    child.on('exit', (code) => fail(`the gateway exited with ${code}`))
    let started = false
    child.stdout.on('data', (d) => {
      stdout += d
      // The gateway logs on stdout after it started too (its drain, for one): settle only once,
      // or a later line would take away the exit listener that stop() waits on.
      if (started) return
      const m = /serving (http:\/\/\S+\/api)/.exec(stdout)
      if (m && stdout.includes('Query:')) {
        started = true
        clearTimeout(timer)
        child.removeAllListeners('exit')
        resolve({ child, base: m[1], stdout, output: () => `${stdout}\n${stderr}` })
      }
    })
  })
}

async function connect(api: string): Promise<Workbench> {
  const origin = new URL(api).origin
  const login = await fetch(`${api}/!login:json`, { method: 'POST', body: new URLSearchParams({ uid: 'admin', pw: ADMIN_PASSWORD }) })
  expect(login.status, 'admin login').to.equal(200)
  const { uid, sid, epw } = (await login.json()) as { uid: string; sid: string; epw: string }
  const session = `${uid}|${sid}|${epw}`
  const call = (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${api}/${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), Cookie: `session=${session}` } })
  const json = async <T>(path: string, init?: RequestInit): Promise<T> => {
    const res = await call(path, init)
    const text = await res.text()
    expect(res.status, `${path}: ${text.slice(0, 300)}`).to.equal(200)
    return JSON.parse(text) as T
  }
  return {
    origin,
    api,
    session,
    fetch: call,
    json,
    async dbm<T>(name: string, params: Record<string, unknown>) {
      const answer = await json<{ rc: number; value?: T; msg?: string }>('dbm:json', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ cmd: [name, params] }),
      })
      expect(answer.rc, `${name}: ${answer.msg}`).to.equal(0)
      return answer.value as T
    },
    async logIn(context) {
      await context.addCookies([{ name: 'session', value: session, url: origin, httpOnly: true, sameSite: 'Lax' }])
    },
  }
}
