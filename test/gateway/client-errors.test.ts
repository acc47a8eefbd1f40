import { expect } from 'chai'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { answerClientErrors, bodyLengthMismatch } from '../../gateway/http/client-errors.js'

/** A server that reads each request's body and remembers the requests it saw. */
async function server(): Promise<{ server: Server; port: number; seen: IncomingMessage[]; logged: Record<string, unknown>[] }> {
  const seen: IncomingMessage[] = []
  const logged: Record<string, unknown>[] = []
  const s = createServer((req, res) => {
    seen.push(req)
    req.resume()
    req.on('end', () => res.end('ok'))
  })
  answerClientErrors(s, (line) => void logged.push(line as Record<string, unknown>))
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  return { server: s, port: (s.address() as AddressInfo).port, seen, logged }
}

/** Sends raw bytes (and ends the connection when `end`), collecting the whole answer. */
function raw(port: number, bytes: Buffer | string, end: boolean): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => (end ? socket.end(bytes) : socket.write(bytes)))
    let got = ''
    socket.setEncoding('utf8')
    socket.on('data', (d: string) => (got += d))
    socket.on('error', () => {})
    socket.on('close', () => resolve(got))
  })
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { code: string; error: string; requestId: string }

describe('gateway/http/client-errors.ts', () => {
  const servers: Server[] = []
  after(() => servers.forEach((s) => s.close()))

  it('answers a body longer than its Content-Length with a JSON body_length_mismatch, and marks the request', async () => {
    const s = await server()
    servers.push(s.server)
    // `Zürich` counted in characters (6) but sent as UTF-8 (7 bytes): one byte left over.
    const body = Buffer.from('Zürich')
    const head = `POST /x HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\n`
    const answer = await raw(s.port, Buffer.concat([Buffer.from(head), body, Buffer.from('\r\n\r\n')]), false)
    expect(answer).to.match(/^HTTP\/1\.1 400 Bad Request\r\n/)
    expect(answer).to.include('Content-Type: application/json')
    const json = bodyOf(answer)
    expect(json.code).to.equal('body_length_mismatch')
    expect(json.error).to.include('longer than its Content-Length (6 bytes)')
    expect(answer).to.include(`X-Request-Id: ${json.requestId}`)
    expect(s.seen).to.have.length(1)
    expect(bodyLengthMismatch(s.seen[0])).to.equal(true)
    expect(s.logged[0]).to.include({ msg: 'request body length mismatch', requestId: json.requestId, contentLength: '6' })
  })

  it('answers a body shorter than its Content-Length, ended by the client, the same way', async () => {
    const s = await server()
    servers.push(s.server)
    const answer = await raw(s.port, 'POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc', true)
    const json = bodyOf(answer)
    expect(json.code).to.equal('body_length_mismatch')
    expect(json.error).to.include('ended before the 10 bytes')
    expect(bodyLengthMismatch(s.seen[0])).to.equal(true)
  })

  it('leaves a request with the right length unmarked', async () => {
    const s = await server()
    servers.push(s.server)
    const answer = await raw(s.port, 'POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc', false)
    expect(answer).to.match(/^HTTP\/1\.1 200 OK/)
    expect(bodyLengthMismatch(s.seen[0])).to.equal(false)
  })

  it('answers other parser errors as Node does: a bare 400', async () => {
    const s = await server()
    servers.push(s.server)
    const answer = await raw(s.port, 'NOT HTTP AT ALL\r\n\r\n', false)
    expect(answer).to.equal('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n')
    expect(s.logged).to.deep.equal([])
  })
})
