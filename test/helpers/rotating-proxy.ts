/**
 * A small HTTP load balancer for the multi-gateway tests. Plain round robin would let two
 * interleaved sessions land one session's consecutive requests on the same gateway; this one
 * rotates per session (keyed by the sid in the `session` cookie), so every request of a session
 * goes to a different gateway than the one before it, which is what the cross-gateway suite must
 * prove. Requests without a session rotate globally.
 *
 * Like nginx with `proxy_next_upstream error`, a gateway that refuses the connection is marked
 * down and the request goes to the next one (it never reached the dead gateway, so retrying is
 * safe even for POST). A gateway that fails after receiving the request is not retried: the client
 * gets a 502 if no byte of the answer was sent yet, or a cut connection otherwise. A client that
 * goes away has its upstream request aborted, as nginx does.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Upstream {
  readonly host: string
  readonly port: number
}

/** The gateway index each request of one session went to, in arrival order. */
export type SessionRoutes = ReadonlyMap<string, readonly number[]>

/** Refused connections: the gateway is not there, and it never saw the request. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH'])

function sessionKey(cookie: string | undefined): string | null {
  const m = /(?:^|;\s*)session=([^;]*)/.exec(cookie ?? '')
  if (!m) return null
  const parts = decodeURIComponent(m[1]).split('|')
  return parts.length === 3 ? parts[1] : null
}

export class RotatingProxy {
  private readonly server: http.Server
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256 })
  private readonly down = new Set<number>()
  private readonly last = new Map<string, number>()
  private readonly routes = new Map<string, number[]>()
  private next = 0

  constructor(private readonly upstreams: readonly Upstream[]) {
    this.server = http.createServer((req, res) => void this.handle(req, res))
  }

  /** Listens on a loopback port; resolves the origin, e.g. `http://127.0.0.1:PORT`. */
  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
  }

  get sessions(): SessionRoutes {
    return this.routes
  }

  /** Forgets the routes seen so far (between tests). */
  resetRoutes(): void {
    this.routes.clear()
  }

  /** Sessions whose requests landed twice in a row on one gateway (should be none). */
  repeats(): string[] {
    const out: string[] = []
    for (const [sid, seq] of this.routes) {
      for (let i = 1; i < seq.length; i++) if (seq[i] === seq[i - 1]) out.push(`${sid}: request ${i} on gateway ${seq[i]} again`)
    }
    return out
  }

  isDown(i: number): boolean {
    return this.down.has(i)
  }

  async close(): Promise<void> {
    this.agent.destroy()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
    this.server.closeAllConnections()
  }

  /** The next live gateway after `after` (or after the global counter). */
  private pick(after: number | undefined): number | null {
    const n = this.upstreams.length
    const start = after === undefined ? this.next++ % n : after + 1
    for (let k = 0; k < n; k++) {
      const i = (start + k) % n
      if (!this.down.has(i)) return i
    }
    return null
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const body = Buffer.concat(chunks)
    const sid = sessionKey(req.headers.cookie)
    for (;;) {
      const target = this.pick(sid === null ? undefined : this.last.get(sid))
      if (target === null) return this.fail(res, 'no gateway is available')
      if (sid !== null) {
        this.last.set(sid, target)
        const seq = this.routes.get(sid) ?? []
        seq.push(target)
        this.routes.set(sid, seq)
      }
      const outcome = await this.forward(target, req, res, body)
      if (outcome !== 'not-connected') return
      this.down.add(target)
      if (sid !== null) this.routes.get(sid)!.pop()
    }
  }

  /** Sends one request to one gateway and streams its answer back. */
  private forward(target: number, req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): Promise<'done' | 'not-connected'> {
    const { host, port } = this.upstreams[target]
    return new Promise((resolve) => {
      const headers = { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '', 'content-length': String(body.length) }
      delete headers['transfer-encoding']
      const up = http.request({ host, port, method: req.method, path: req.url, headers, agent: this.agent }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
        answer.on('error', () => res.destroy())
        answer.on('aborted', () => res.destroy())
        answer.on('close', () => resolve('done'))
      })
      let connected = false
      up.on('socket', (s) => {
        if (!s.connecting) connected = true
        else s.once('connect', () => (connected = true))
      })
      up.on('error', (err: NodeJS.ErrnoException) => {
        if (!connected && NOT_CONNECTED.has(err.code ?? '')) return resolve('not-connected')
        if (!res.headersSent) this.fail(res, `gateway ${target} failed: ${err.code ?? err.message}`)
        else res.destroy()
        resolve('done')
      })
      // The client went away before the answer ended: abort the gateway's request too.
      res.on('close', () => {
        if (!res.writableFinished) up.destroy()
      })
      up.end(body)
    })
  }

  private fail(res: http.ServerResponse, message: string): void {
    res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' })
    res.end(JSON.stringify({ error: message, code: 'bad_gateway' }))
  }
}
