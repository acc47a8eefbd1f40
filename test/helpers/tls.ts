/**
 * TLS for process tests: a throw-away self-signed certificate made with the `openssl` command,
 * and a raw `node:https` request that trusts exactly that certificate (never a global switch
 * such as NODE_TLS_REJECT_UNAUTHORIZED), so every header and body byte is the test's own.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import https from 'node:https'
import { tmpdir } from 'node:os'
import type { TLSSocket } from 'node:tls'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export interface TestCertificate {
  readonly dir: string
  readonly certPath: string
  readonly keyPath: string
  /** The certificate in PEM, to pass as `ca` to a client that should trust the server. */
  readonly cert: string
  /** Deletes the folder holding the key and the certificate. */
  remove(): Promise<void>
}

/**
 * A one-day certificate for 127.0.0.1 and localhost in a new temporary folder. The subject
 * alternative names matter: Node checks the IP or host name against them, not against the CN.
 */
export async function createTestCertificate(): Promise<TestCertificate> {
  const dir = await mkdtemp(join(tmpdir(), 'tabula-tls-'))
  const keyPath = join(dir, 'key.pem')
  const certPath = join(dir, 'cert.pem')
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    keyPath,
    '-out',
    certPath,
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=IP:127.0.0.1,DNS:localhost',
  ])
  const cert = await readFile(certPath, 'utf8')
  return { dir, certPath, keyPath, cert, remove: () => rm(dir, { recursive: true, force: true }) }
}

export interface RawReply {
  readonly status: number
  readonly headers: Readonly<Record<string, string | string[] | undefined>>
  readonly text: string
  /** SHA-256 fingerprint of the certificate the server presented ("AB:CD:…"). */
  readonly peerFingerprint: string
}

export interface RawRequest {
  readonly url: string
  readonly method?: string
  /** Sent exactly as given: no header is added for the caller apart from Host. */
  readonly headers?: Readonly<Record<string, string | number>>
  /** Written as is; omitted means nothing is written. */
  readonly body?: string
  /** The PEM to trust; omitted means Node's default CA list, which does not know our certificate. */
  readonly ca?: string
}

/**
 * One HTTPS request on its own connection (no agent: a kept-alive socket would hold a server's
 * SIGTERM drain open and could carry one test's TLS settings into another).
 */
export function rawHttpsRequest(req: RawRequest): Promise<RawReply> {
  const url = new URL(req.url)
  return new Promise((resolve, reject) => {
    const outgoing = https.request(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: req.method ?? 'POST',
        headers: { ...req.headers },
        ca: req.ca,
        rejectUnauthorized: true,
        agent: false,
      },
      (res) => {
        // Read while the socket is open: the certificate is gone once the connection closes.
        const peerFingerprint = (res.socket as TLSSocket).getPeerCertificate().fingerprint256
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, peerFingerprint }))
        res.on('error', reject)
      },
    )
    outgoing.on('error', reject)
    if (req.body !== undefined && req.body !== '') outgoing.write(req.body)
    outgoing.end()
  })
}
