/**
 * Retries only where they are safe. A small HTTP server stands in for a gateway that fails in
 * chosen ways and counts what reaches it: reads are tried again on 502/503 and failed
 * connections (and after Retry-After), a bounded number of times; a query or a dbm transaction
 * is sent exactly once whatever happens, since its first copy may have run.
 */
import { expect } from 'chai'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Client, TabulaError } from '../../client/index.js'

interface Fake {
  readonly url: string
  readonly hits: { method: string; path: string }[]
  /** The answers to give, in order; the last one repeats. */
  script: { status: number; body?: unknown; headers?: Record<string, string> }[]
  close(): Promise<void>
}

async function fakeGateway(): Promise<Fake> {
  const hits: { method: string; path: string }[] = []
  const fake = { hits, script: [] as Fake['script'] } as Fake & { script: Fake['script'] }
  const server = http.createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      hits.push({ method: req.method ?? '', path: req.url ?? '' })
      const answer = fake.script[Math.min(hits.length - 1, fake.script.length - 1)]
      res.writeHead(answer.status, { 'Content-Type': 'application/json', ...answer.headers })
      res.end(JSON.stringify(answer.body ?? { error: `status ${answer.status}`, code: answer.status === 503 ? 'unavailable' : 'internal' }))
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return Object.assign(fake, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  })
}

const session = { uid: 'ann', sid: '1', epw: 'x' }

describe('client: retries only where safe', function () {
  let fake: Fake
  beforeEach(async () => {
    fake = await fakeGateway()
  })
  afterEach(async () => {
    await fake.close()
  })
  const client = () => new Client({ baseUrl: fake.url, session, retry: { retries: 3, baseDelayMs: 5, maxDelayMs: 2000 } })

  it('sends a query once, even when the answer is a 503', async () => {
    fake.script = [{ status: 503 }, { status: 200, body: { x: [1] } }]
    const err = await client()
      .sql('select 1')
      .then(
        () => null,
        (e: unknown) => e,
      )
    expect(err).to.be.instanceOf(TabulaError)
    expect((err as TabulaError).status).to.equal(503)
    expect(fake.hits).to.have.length(1)
  })

  it('sends a dbm transaction once, even on 502', async () => {
    fake.script = [
      { status: 502, body: 'bad gateway' },
      { status: 200, body: { rc: 0, value: 1 } },
    ]
    await client()
      .dbm('make_dir', { path: 'x' })
      .then(
        () => expect.fail('should fail'),
        () => undefined,
      )
    expect(fake.hits.map((h) => h.method)).to.deep.equal(['POST'])
  })

  it('tries a read again after 502 and 503, then succeeds', async () => {
    fake.script = [{ status: 502, body: 'bad gateway' }, { status: 503 }, { status: 200, body: 42 }]
    expect(await client().results('sql').rows()).to.equal(42)
    expect(fake.hits.map((h) => h.method)).to.deep.equal(['GET', 'GET', 'GET'])
    expect(fake.hits[0].path).to.equal('/v1/api/sql/!rows:json')
  })

  it('gives up on a read after the bounded number of retries', async () => {
    fake.script = [{ status: 503 }]
    const err = await client()
      .instance(7)
      .rows()
      .then(
        () => null,
        (e: unknown) => e,
      )
    expect((err as TabulaError).status).to.equal(503)
    // The first try and three more.
    expect(fake.hits).to.have.length(4)
  })

  it('honours Retry-After on a 429 for reads only', async () => {
    fake.script = [
      { status: 429, body: { error: 'slow down', code: 'too_many_requests' }, headers: { 'Retry-After': '1' } },
      { status: 200, body: 5 },
    ]
    expect(await client().results('run').rows()).to.equal(5)
    expect(fake.hits).to.have.length(2)
    fake.hits.length = 0
    // The same answer with a limit below Retry-After's second: the wait asked for is what counts
    // (not the 5 ms backoff), so it is not retried.
    const impatient = new Client({ baseUrl: fake.url, session, retry: { retries: 3, baseDelayMs: 5, maxDelayMs: 500 } })
    const refused = await impatient
      .results('run')
      .rows()
      .then(
        () => null,
        (e: unknown) => e,
      )
    expect((refused as TabulaError).status).to.equal(429)
    expect(fake.hits).to.have.length(1)
    fake.hits.length = 0
    fake.script = [
      { status: 429, body: { error: 'slow down', code: 'too_many_requests' }, headers: { 'Retry-After': '1' } },
      { status: 200, body: { x: [1] } },
    ]
    const err = await client()
      .run('<table cols="x">1</table>')
      .then(
        () => null,
        (e: unknown) => e,
      )
    expect(err as TabulaError).to.include({ status: 429, code: 'too_many_requests', retryAfter: 1 })
    expect(fake.hits).to.have.length(1)
  })

  it('does not wait for a Retry-After longer than its limit', async () => {
    fake.script = [
      { status: 503, headers: { 'Retry-After': '3600' } },
      { status: 200, body: 1 },
    ]
    const err = await client()
      .results('sql')
      .rows()
      .then(
        () => null,
        (e: unknown) => e,
      )
    expect((err as TabulaError).retryAfter).to.equal(3600)
    expect(fake.hits).to.have.length(1)
  })

  it('tries a read again when the connection fails, then reports connection_failed', async () => {
    const url = fake.url
    await fake.close()
    let calls = 0
    const counting = (input: string, init: RequestInit) => {
      calls++
      return fetch(input, init)
    }
    const c = new Client({ baseUrl: url, session, fetch: counting, retry: { retries: 2, baseDelayMs: 5 } })
    const read = await c.ls().then(
      () => null,
      (e: unknown) => e,
    )
    expect(read as TabulaError).to.include({ status: 0, code: 'connection_failed' })
    expect(calls).to.equal(3)
    calls = 0
    await c.sql('select 1').then(
      () => null,
      () => undefined,
    )
    expect(calls).to.equal(1)
    fake = await fakeGateway()
  })
})
