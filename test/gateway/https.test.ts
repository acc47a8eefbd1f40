/**
 * HTTPS as users turn it on: `node gateway/server.js` with TLS_CERT and TLS_KEY naming a
 * self-signed certificate made by openssl. Proves that login and queries work over real TLS (a
 * client trusting only that certificate gets through, one that does not is stopped by its own
 * check), that nothing is served in clear on the TLS port, that the session cookie is Secure
 * exactly when the connection is HTTPS, and that half a TLS configuration stops the start.
 */
import { expect } from 'chai'
import { spawn } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SERVER, children, start, stop, type Running } from '../helpers/processes.js'
import { createTestCertificate, rawHttpsRequest, type TestCertificate } from '../helpers/tls.js'
import { childEnv } from '../../shared/child-env.js'

const PASSWORD = 'https-secret-1'
const COUNT_SQL = JSON.stringify({ sql: 'select count(*) n from pub.demo.retail.item' })

function serverEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', DEMO_ROWS: '2000', WORKERS: '1', ADMIN_PASSWORD: PASSWORD, ...extra }
}

/** The attributes of one Set-Cookie line, without the name=value pair ("HttpOnly", "Path=/"…). */
function cookieAttributes(setCookie: string): string[] {
  return setCookie
    .split(';')
    .slice(1)
    .map((a) => a.trim())
}

/** The single Set-Cookie line of a reply; two would make "which one is checked" ambiguous. */
function onlySetCookie(header: string | string[] | undefined): string {
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [header]
  expect(lines, 'Set-Cookie lines').to.have.length(1)
  return lines[0]
}

/**
 * Writes a plain-HTTP request to the port and collects every byte that comes back until the
 * server closes the connection: what an eavesdropper would see if the port spoke HTTP in clear.
 */
function plainHttpExchange(port: number, request: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(request))
    const chunks: Buffer[] = []
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('close', () => resolve(Buffer.concat(chunks)))
    // A reset is one way of refusing; what matters is what arrived before it.
    socket.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' ? undefined : reject(err)))
  })
}

function makeTempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'tabula-https-'))
}

describe('gateway/server.js over HTTPS (TLS_CERT and TLS_KEY)', function () {
  this.timeout(90_000)
  let cert: TestCertificate
  let dataDir: string
  let server: Running
  let cookie = ''

  before(async () => {
    cert = await createTestCertificate()
    dataDir = await makeTempDir()
    server = await start(serverEnv(dataDir, { TLS_CERT: cert.certPath, TLS_KEY: cert.keyPath }))
  })
  after(async () => {
    for (const child of children) child.kill('SIGKILL')
    await rm(dataDir, { recursive: true, force: true })
    await cert?.remove()
  })

  const port = () => Number(new URL(server.base).port)

  it('prints an https address for its API', () => {
    expect(server.base).to.match(/^https:\/\/127\.0\.0\.1:\d+\/v1\/api$/)
  })

  it('logs in over TLS and sets the session cookie Secure, HttpOnly and SameSite=Lax', async () => {
    const res = await rawHttpsRequest({
      url: `${server.base}/!login:json`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ uid: 'admin', pw: PASSWORD }).toString(),
      ca: cert.cert,
    })
    expect(res.status, res.text).to.equal(200)
    const creds = JSON.parse(res.text) as { uid: string; sid: string; epw: string }
    expect(creds.uid).to.equal('admin')
    const setCookie = onlySetCookie(res.headers['set-cookie'])
    expect(setCookie.startsWith(`session=admin|${creds.sid}|${creds.epw};`), setCookie).to.equal(true)
    expect(cookieAttributes(setCookie)).to.include.members(['Secure', 'HttpOnly', 'SameSite=Lax', 'Path=/'])
    cookie = `session=${creds.uid}|${creds.sid}|${creds.epw}`
  })

  it('answers an API call with 200 and JSON through the session cookie', async () => {
    const res = await rawHttpsRequest({
      url: `${server.base}/sql:json`,
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: COUNT_SQL,
      ca: cert.cert,
    })
    expect(res.status, res.text).to.equal(200)
    expect(String(res.headers['content-type'])).to.match(/^application\/json/)
    expect(JSON.parse(res.text)).to.deep.equal({ n: [2000] })
  })

  it('presents the certificate it was configured with', async () => {
    const res = await rawHttpsRequest({ url: new URL('/healthz', server.base).href, method: 'GET', ca: cert.cert })
    expect(res.status, res.text).to.equal(200)
    expect(res.peerFingerprint).to.equal(new X509Certificate(cert.cert).fingerprint256)
  })

  it('is refused by the TLS check of a client that does not trust its certificate', async () => {
    let failure: NodeJS.ErrnoException | null = null
    try {
      await rawHttpsRequest({ url: `${server.base}/sql:json`, headers: { 'Content-Type': 'application/json', Cookie: cookie }, body: COUNT_SQL })
    } catch (err) {
      failure = err as NodeJS.ErrnoException
    }
    // The client's own verification, not anything the server said, ends the exchange.
    expect(failure?.code, String(failure)).to.equal('DEPTH_ZERO_SELF_SIGNED_CERT')
  })

  it('serves nothing in clear to a plain-HTTP request on its port, even with a valid cookie', async () => {
    const request = [
      'POST /v1/api/sql:json HTTP/1.1',
      `Host: 127.0.0.1:${port()}`,
      `Cookie: ${cookie}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(COUNT_SQL)}`,
      'Connection: close',
      '',
      COUNT_SQL,
    ].join('\r\n')
    const reply = (await plainHttpExchange(port(), request)).toString('latin1')
    expect(reply.startsWith('HTTP/'), JSON.stringify(reply)).to.equal(false)
    expect(reply).not.to.contain('2000')
  })

  it('clears the cookie at logout with the same Secure attributes', async () => {
    const res = await rawHttpsRequest({ url: `${server.base}/!logout:json`, headers: { Cookie: cookie, 'Content-Length': 0 }, ca: cert.cert })
    expect(res.status, res.text).to.equal(200)
    expect(cookieAttributes(onlySetCookie(res.headers['set-cookie']))).to.include.members(['Secure', 'HttpOnly', 'SameSite=Lax', 'Max-Age=0'])
  })

  it('stops on SIGTERM with exit code 0', async () => {
    expect(await stop(server)).to.equal(0)
  })
})

describe('gateway/server.js without TLS', function () {
  this.timeout(90_000)
  let dataDir: string
  let server: Running

  before(async () => {
    dataDir = await makeTempDir()
    server = await start(serverEnv(dataDir))
  })
  after(async () => {
    for (const child of children) child.kill('SIGKILL')
    await rm(dataDir, { recursive: true, force: true })
  })

  it('sets the session cookie HttpOnly and SameSite=Lax but not Secure (a browser would not send it back over http)', async () => {
    expect(server.base).to.match(/^http:\/\//)
    const res = await fetch(`${server.base}/!login:json`, { method: 'POST', body: new URLSearchParams({ uid: 'admin', pw: PASSWORD }) })
    expect(res.status).to.equal(200)
    const attributes = cookieAttributes(res.headers.get('set-cookie') ?? '')
    expect(attributes).to.include.members(['HttpOnly', 'SameSite=Lax'])
    expect(attributes).not.to.include('Secure')
  })

  it('stops on SIGTERM with exit code 0', async () => {
    expect(await stop(server)).to.equal(0)
  })
})

describe('gateway/server.js with half a TLS configuration', function () {
  this.timeout(60_000)
  let cert: TestCertificate
  let dataDir: string

  before(async () => {
    cert = await createTestCertificate()
    dataDir = await makeTempDir()
  })
  after(async () => {
    // A regression that lets the server start would leave it listening: end it here.
    for (const child of children) child.kill('SIGKILL')
    await rm(dataDir, { recursive: true, force: true })
    await cert?.remove()
  })

  /** Starts the server with the variables and resolves its exit code and stderr. */
  function exitOf(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
    const child = spawn(process.execPath, [SERVER], { env: childEnv({ ...serverEnv(dataDir), ...env }), stdio: ['ignore', 'ignore', 'pipe'] })
    children.add(child)
    child.on('exit', () => children.delete(child))
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })))
  }

  it('refuses to start with TLS_CERT alone, naming TLS_KEY', async () => {
    const { code, stderr } = await exitOf({ TLS_CERT: cert.certPath })
    expect(code, stderr).to.be.a('number').and.not.equal(0)
    expect(stderr).to.contain('TLS_KEY')
  })

  it('refuses to start, before writing anything, when TLS_CERT names a missing file or the pair is not PEM', async () => {
    const missing = await exitOf({ TLS_CERT: join(dataDir, 'no-such.pem'), TLS_KEY: cert.keyPath })
    expect(missing.code, missing.stderr).to.equal(2)
    expect(missing.stderr).to.contain('TLS_CERT').and.contain('no-such.pem').and.not.contain('    at ')
    const swapped = await exitOf({ TLS_CERT: cert.keyPath, TLS_KEY: cert.certPath })
    expect(swapped.code, swapped.stderr).to.equal(2)
    expect(swapped.stderr).to.contain('PEM').and.not.contain('    at ')
    expect(await readdir(dataDir), 'nothing written to DATA_DIR').to.deep.equal([])
  })

  it('refuses to start with TLS_KEY alone, naming TLS_CERT', async () => {
    const { code, stderr } = await exitOf({ TLS_KEY: cert.keyPath })
    expect(code, stderr).to.be.a('number').and.not.equal(0)
    expect(stderr).to.contain('TLS_CERT')
  })
})
