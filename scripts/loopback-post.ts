/**
 * The HTTP client of the long-running scripts (soak.ts, hog-share.ts): a POST over a keep-alive
 * agent to a gateway on loopback, whose answer is parsed as JSON when it is JSON. A socket failure
 * is a reply with status 0, so a script counts it instead of stopping.
 */
import http from 'node:http'

export interface Reply {
  readonly status: number
  readonly body: unknown
}

/** A POST function over `agent`: JSON bodies, or form bodies for URLSearchParams; `null` sends none. */
export function poster(agent: http.Agent) {
  return function post(base: string, path: string, body: object | URLSearchParams | null, cookie = '', signal?: AbortSignal): Promise<Reply> {
    const url = new URL(`${base}/${path}`)
    const form = body instanceof URLSearchParams
    const payload = body === null ? '' : form ? body.toString() : JSON.stringify(body)
    return new Promise((resolve) => {
      const req = http.request(
        url,
        {
          method: 'POST',
          agent,
          signal,
          headers: {
            cookie,
            'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
            'content-length': Buffer.byteLength(payload),
          },
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8')
            let parsed: unknown = text
            try {
              parsed = JSON.parse(text)
            } catch {
              // not JSON: keep the text
            }
            resolve({ status: res.statusCode ?? 0, body: parsed })
          })
          res.on('error', () => resolve({ status: 0, body: 'response cut' }))
        },
      )
      req.on('error', (e) => resolve({ status: 0, body: e.message }))
      req.end(payload)
    })
  }
}

/** The session cookie of a `!login:json` answer. */
export const cookieOf = (b: unknown): string => {
  const c = b as { uid: string; sid: string; epw: string }
  return `session=${c.uid}|${c.sid}|${c.epw}`
}
