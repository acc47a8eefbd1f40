/** A gateway child process for the heavy-* security tests, and plain-fetch helpers around it. */
import { readFileSync } from 'node:fs'
import { start, stop, type Running } from '../helpers/processes.js'

export const PASSWORD = 'heavy-admin-secret-1'

export interface Gateway {
  readonly running: Running
  /** e.g. http://127.0.0.1:40123/v1/api */
  readonly api: string
  readonly origin: string
  readonly pid: number
  close(): Promise<void>
}

export async function startGateway(env: Record<string, string>, nodeArgs: readonly string[] = []): Promise<Gateway> {
  const running = await start({ HOST: '127.0.0.1', PORT: '0', ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: 'warn', ...env }, nodeArgs)
  const api = running.base
  return {
    running,
    api,
    origin: new URL(api).origin,
    pid: running.child.pid!,
    close: async () => {
      if (running.child.exitCode === null) await stop(running)
    },
  }
}

export async function login(gw: Gateway, uid = 'admin', pw = PASSWORD): Promise<string> {
  const res = await fetch(`${gw.api}/!login:json`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ uid, pw }),
  })
  const body = (await res.json()) as Record<string, string>
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(body)}`)
  return `session=${body.uid}|${body.sid}|${body.epw}`
}

export interface Answer {
  readonly status: number
  readonly body: Record<string, unknown>
  readonly ms: number
}

export async function post(gw: Gateway, cookie: string, path: string, body: unknown): Promise<Answer> {
  const t0 = performance.now()
  const res = await fetch(`${gw.api}/${path}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const text = await res.text()
  let parsed: Record<string, unknown>
  try {
    parsed = JSON.parse(text) as Record<string, unknown>
  } catch {
    parsed = { text: text.slice(0, 500) }
  }
  return { status: res.status, body: parsed, ms: performance.now() - t0 }
}

/** Resident memory of a process, in MB, from /proc (Linux). */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  if (!m) throw new Error(`no VmRSS for process ${pid}`)
  return Number(m[1]) / 1024
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
