import { expect } from 'chai'
import { createServer, type Server } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import Koa from 'koa'
import { probeHalfClosed, serveHalfClosed } from '../../gateway/http/half-close.js'

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** A server whose one route answers `ok` after `delayMs`, probing a half-closed client meanwhile. */
async function slowServer(delayMs: number, halfOpen: boolean): Promise<{ server: Server; port: number; closes: number[] }> {
  const closes: number[] = []
  const app = new Koa()
  // The probe's failed write to a gone client is expected here, not worth a printed stack.
  app.silent = true
  app.use(async (ctx) => {
    probeHalfClosed(ctx)
    ctx.res.once('close', () => closes.push(Date.now()))
    await sleep(delayMs)
    ctx.body = 'ok'
  })
  const server = createServer(app.callback())
  if (halfOpen) serveHalfClosed(server)
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { server, port: (server.address() as AddressInfo).port, closes }
}

/** Sends a request, half-closes, and collects everything the server sends until it closes. */
function halfClosedRequest(port: number, version = '1.1'): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end(`GET / HTTP/${version}\r\nHost: x\r\n\r\n`)
    })
    let got = ''
    socket.setEncoding('latin1')
    socket.on('data', (d: string) => (got += d))
    socket.on('error', reject)
    socket.on('close', () => resolve(got))
  })
}

describe('gateway/http/half-close.ts', () => {
  const servers: Server[] = []
  after(() => servers.forEach((s) => s.close()))

  it('answers a client that half-closed after its request, sending 102 Processing while it waits', async () => {
    const { server, port } = await slowServer(700, true)
    servers.push(server)
    const got = await halfClosedRequest(port)
    expect(got).to.match(/^HTTP\/1\.1 102 Processing\r\n/)
    expect(got).to.include('HTTP/1.1 200 OK')
    expect(got.endsWith('ok')).to.equal(true)
  })

  it('sends no interim response to an HTTP/1.0 client, but still answers it', async () => {
    const { server, port } = await slowServer(400, true)
    servers.push(server)
    const got = await halfClosedRequest(port, '1.0')
    expect(got).not.to.include('102')
    expect(got).to.match(/^HTTP\/1\.1 200 OK/)
  })

  it('without serveHalfClosed, Node closes on the FIN and the answer is lost (what this file is for)', async () => {
    const { server, port } = await slowServer(300, false)
    servers.push(server)
    const got = await halfClosedRequest(port)
    expect(got).not.to.include('200 OK')
  })

  it('lets a client that went away be noticed: the probe write fails and the response closes', async () => {
    const { server, port, closes } = await slowServer(2000, true)
    servers.push(server)
    const socket = connect(port, '127.0.0.1', () => socket.end('GET / HTTP/1.1\r\nHost: x\r\n\r\n'))
    socket.on('error', () => {})
    await sleep(100)
    const gone = Date.now()
    // Reset: the peer is gone, not just half-closed.
    socket.resetAndDestroy()
    await sleep(1000)
    expect(closes, 'the response closed well before the answer was ready').to.have.length(1)
    expect(closes[0] - gone).to.be.below(900)
  })
})
