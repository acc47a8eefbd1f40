/**
 * A small HTTP client for the fault tests, which talk to gateway processes over plain fetch: every
 * call is bounded in time, so a hanging service fails the test instead of stalling it, and the
 * elapsed time is part of the answer.
 */

export interface Reply {
  readonly status: number
  readonly body: Record<string, unknown>
  readonly text: string
  readonly ms: number
  readonly retryAfter: string | null
}

/** Longest any single request may take in these tests before it counts as hanging. */
export const REQUEST_LIMIT_MS = 20_000

export class Client {
  constructor(
    readonly base: string,
    public cookie = '',
  ) {}

  /** The server root (for /healthz and /readyz), from the `…/v1/api` base. */
  get origin(): string {
    return this.base.replace(/\/v1\/api$/, '')
  }

  /** POSTs a JSON body (or nothing) to `{base}/{path}` with the session cookie. */
  post(path: string, body?: object, headers: Record<string, string> = {}): Promise<Reply> {
    return this.send(`${this.base}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  }

  /** GETs `{base}/{path}`; a path that starts with ':' is a suffix of the base itself (`api:json`). */
  get(path: string): Promise<Reply> {
    return this.send(path.startsWith(':') ? `${this.base}${path}` : `${this.base}/${path}`, { method: 'GET' })
  }

  healthz(): Promise<Reply> {
    return this.send(`${this.origin}/healthz`, { method: 'GET' })
  }

  readyz(): Promise<Reply> {
    return this.send(`${this.origin}/readyz`, { method: 'GET' })
  }

  /** Logs in and keeps the session cookie; returns the reply (200 or an error). */
  async login(uid: string, pw: string): Promise<Reply> {
    const reply = await this.send(`${this.base}/!login:json`, { method: 'POST', body: new URLSearchParams({ uid, pw }) })
    if (reply.status === 200) this.cookie = `session=${reply.body.uid}|${reply.body.sid}|${reply.body.epw}`
    return reply
  }

  /** One api/dbm transaction; the reply body is `{rc, value?, msg?, code?}`. */
  dbm(name: string, params: Record<string, unknown>): Promise<Reply> {
    return this.post('dbm:json', { cmd: [name, params] })
  }

  private async send(url: string, init: RequestInit): Promise<Reply> {
    const started = Date.now()
    const headers = { ...(init.headers as Record<string, string> | undefined), ...(this.cookie && { cookie: this.cookie }) }
    const res = await fetch(url, { ...init, headers, signal: AbortSignal.timeout(REQUEST_LIMIT_MS) })
    const text = await res.text()
    let body: Record<string, unknown> = {}
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : {}
    } catch {
      // An HTML page or plain text: callers that need it read `text`.
    }
    return { status: res.status, body, text, ms: Date.now() - started, retryAfter: res.headers.get('retry-after') }
  }
}

export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls until `ready` is true or `limitMs` passes; returns how long it took, or throws. */
export async function waitFor(what: string, ready: () => Promise<boolean>, limitMs: number, stepMs = 100): Promise<number> {
  const started = Date.now()
  while (Date.now() - started < limitMs) {
    if (await ready().catch(() => false)) return Date.now() - started
    await pause(stepMs)
  }
  throw new Error(`${what} did not happen within ${limitMs} ms`)
}
