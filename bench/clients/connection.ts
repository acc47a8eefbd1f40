/**
 * One client of a load run: one keep-alive HTTP connection of its own (an Agent with a single
 * socket), over which it sends its requests one at a time, as a browser tab or a script would.
 * It records every request's latency and outcome, and whether the request had to open a new
 * connection, so a run can show that its connections were held rather than reopened.
 */
import http from 'node:http'

export interface Request {
  readonly kind: string
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly cookie: string
  readonly body?: string
}

export interface Outcome {
  readonly kind: string
  readonly status: number
  /** From the time the request was due (not sent: a busy connection delays it) to the last byte. */
  readonly ms: number
  readonly bytes: number
  /** Empty when the answer was the expected one. */
  readonly error: string
}

/** A request with no answer after this long is an error of the run, not a slow figure. */
const REQUEST_TIMEOUT_MS = 60_000

export class Connection {
  readonly #agent = new http.Agent({ keepAlive: true, maxSockets: 1, keepAliveMsecs: 10_000 })
  /** Requests that opened a socket (the first, and any after the server closed one). */
  opened = 0

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  /** Sends `r` and resolves its outcome; never rejects. `dueAt` is performance.now() when it was due. */
  send(r: Request, dueAt = performance.now()): Promise<Outcome> {
    return this.#send(r, dueAt, false)
  }

  /** As send, with the answer's text (for a login's credentials). */
  sendCapturing(r: Request): Promise<Outcome & { text: string }> {
    return this.#send(r, performance.now(), true) as Promise<Outcome & { text: string }>
  }

  #send(r: Request, dueAt: number, keepText: boolean): Promise<Outcome & { text?: string }> {
    return new Promise((resolve) => {
      let settled = false
      const done = (status: number, bytes: number, error: string, text = ''): void => {
        if (settled) return
        settled = true
        const out = { kind: r.kind, status, ms: performance.now() - dueAt, bytes, error }
        resolve(keepText ? { ...out, text } : out)
      }
      const headers: Record<string, string> = { cookie: r.cookie }
      if (r.body !== undefined) {
        headers['content-type'] = 'application/json'
        headers['content-length'] = String(Buffer.byteLength(r.body))
      }
      const req = http.request({ host: this.host, port: this.port, method: r.method, path: r.path, headers, agent: this.#agent }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          const status = res.statusCode ?? 0
          done(status, text.length, status === 200 ? '' : `${status} ${text.slice(0, 200)}`, text)
        })
        res.on('error', (err) => done(0, 0, `response: ${err.message}`))
      })
      req.on('socket', () => {
        if (!req.reusedSocket) this.opened++
      })
      req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)))
      req.on('error', (err) => done(0, 0, `${r.kind}: ${err.message}`))
      req.end(r.body)
    })
  }

  /** Sockets open now: 1 while the connection is held. */
  openSockets(): number {
    const count = (m: NodeJS.ReadOnlyDict<unknown[]>): number => Object.values(m).reduce((s, l) => s + (l?.length ?? 0), 0)
    return count(this.#agent.sockets) + count(this.#agent.freeSockets)
  }

  close(): void {
    this.#agent.destroy()
  }
}
