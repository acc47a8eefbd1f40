/**
 * The quickapp-devbox node client (1010api2-node.js), replayed byte for byte over HTTPS against
 * `node gateway/server.js`: form-encoded login without URL escaping, a cookie built from the
 * JSON reply, every call a POST with `Content-type: application/json` (an empty body with
 * `Content-length: 0` when there are no arguments), `:json` glued to the last path segment
 * before the `?`, and widget calls at `{tag}/{widget}/!{method}` with JSON-encoded args (the
 * shape of the browser client's API2Widget.invoke, which quickserve relays through the node
 * client). Also the shapes of reference §1.1 the client can send through `call`: `!methods`
 * glued to a tag or a widget, `{tag}/@` (the widget status table) and `{tag}/{path}` (a trailing
 * segment that sets `path`). Proves each of these answers 200 with JSON under a JSON content
 * type, that a failed login is still JSON with a string `error`, and that the cookie dies with
 * `!logout`.
 */
import { expect } from 'chai'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { children, start, stop, type Running } from '../helpers/processes.js'
import { createTestCertificate, rawHttpsRequest, type RawReply, type TestCertificate } from '../helpers/tls.js'

/** The client's default platform version, served here so its paths need no rewriting. */
const VERSION = 'prime-latest'
/** Only characters that survive the client's unescaped `uid=…&pw=…` body. */
const PASSWORD = 'devbox-secret-7'

/** What the client posts to `new:json`: a `<macro>` around a `<dynamic>`, indented with newlines. */
const QUICKAPP = `<macro>
  <dynamic region="South" x="1" y="0">
    <do on_="change(x)"><set y="@x*10"/></do>
    <widget name="index" class_="grid">
      <base table="pub.demo.retail.stores"/>
      <sel value="region='{@region}'"/>
      <willbe name="y" value="{@y}"/>
      <colord cols="store,region,y"/>
    </widget>
    <widget name="cities" class_="grid">
      <base table="pub.demo.retail.stores"/>
      <sel value="region='{@region}'"/>
      <colord cols="store,city"/>
    </widget>
    <widget name="title" class_="text" text_="Region {@region}"/>
  </dynamic>
</macro>`

/** A QuickApp that takes a trailing path segment, as 1010data's `ls/{path}` does. */
const PATH_APP = `<macro>
  <dynamic path="South">
    <widget name="index" class_="grid">
      <base table="pub.demo.retail.stores"/>
      <sel value="region='{@path}'"/>
      <colord cols="store"/>
    </widget>
    <widget name="heading" class_="text" text_="Stores of {@path}"/>
  </dynamic>
</macro>`

interface Sent {
  /** The path as it went on the wire, to check the client's suffix rule was applied. */
  readonly path: string
  readonly reply: RawReply
}

/**
 * API2Client of 1010api2-node.js with the network calls kept and the promise handling dropped,
 * so a test sees the raw reply (status, content type, text) the real client would judge.
 */
class DevboxClient {
  uid = ''
  sid = ''
  epw = ''

  constructor(
    private readonly origin: string,
    private readonly ca: string,
  ) {}

  cookie(): string {
    return this.sid !== '' ? `session=${this.uid}|${this.sid}|${this.epw}` : ''
  }

  /** The client's login: a hand-built form body and no Cookie header. */
  login(uid: string, pw: string): Promise<RawReply> {
    const postBody = `uid=${uid}&pw=${pw}`
    return rawHttpsRequest({
      url: `${this.origin}/${VERSION}/api/!login:json`,
      headers: { 'Content-type': 'application/x-www-form-urlencoded', 'Content-length': postBody.length },
      body: postBody,
      ca: this.ca,
    })
  }

  /** Adopts the credentials of a login reply exactly as the client does (Set-Cookie unused). */
  adopt(usp: { uid: string; sid: string; epw: string }): void {
    this.uid = usp.uid
    this.sid = usp.sid
    this.epw = usp.epw
  }

  /** The client's call(endp, body): `:json` added unless the path part already contains it. */
  async call(endp: string, body?: string): Promise<Sent> {
    if (endp.startsWith('/')) endp = endp.slice(1)
    const parts = endp.split('?')
    if (!parts[0].includes(':json')) parts[0] += ':json'
    const path = `/${VERSION}/api/${parts.join('?')}`
    const reply = await rawHttpsRequest({
      url: this.origin + path,
      headers: { 'Content-type': 'application/json', 'Content-length': (body || '').length, Cookie: this.cookie() },
      body: body || undefined,
      ca: this.ca,
    })
    return { path, reply }
  }

  /** API2Widget.invoke(method, args): the args object JSON-encoded as the whole body. */
  invoke(tag: number, widget: string, method: string, args: object): Promise<Sent> {
    return this.call(`${tag}/${widget}/!${method}`, JSON.stringify(args))
  }
}

/** What the client accepts as a success: 200, and a body JSON.parse takes; plus a JSON type. */
function jsonOf<T = unknown>(reply: RawReply): T {
  expect(reply.status, reply.text).to.equal(200)
  expect(String(reply.headers['content-type'])).to.match(/^application\/json/)
  return JSON.parse(reply.text) as T
}

type Columns = Record<string, unknown[]>

describe('the quickapp-devbox node client over HTTPS', function () {
  this.timeout(90_000)
  let cert: TestCertificate
  let dataDir: string
  let server: Running
  let client: DevboxClient
  let tag = 0
  /** The West stores, from SQL, to check what the instance answers after region is set. */
  let westStores: number[] = []

  before(async () => {
    cert = await createTestCertificate()
    dataDir = await mkdtemp(join(tmpdir(), 'tabula-client-'))
    server = await start({
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      DEMO_ROWS: '2000',
      WORKERS: '1',
      ADMIN_PASSWORD: PASSWORD,
      API_VERSIONS: VERSION,
      TLS_CERT: cert.certPath,
      TLS_KEY: cert.keyPath,
    })
    client = new DevboxClient(new URL(server.base).origin, cert.cert)
  })
  after(async () => {
    for (const child of children) child.kill('SIGKILL')
    await rm(dataDir, { recursive: true, force: true })
    await cert?.remove()
  })

  it('logs in with the unescaped form body and gets {uid, sid, epw} as JSON', async () => {
    const usp = jsonOf<{ uid: string; sid: string; epw: string; error?: unknown }>(await client.login('admin', PASSWORD))
    expect(usp.error).to.equal(undefined)
    expect(usp.uid).to.equal('admin')
    expect(usp.sid).to.be.a('string').and.match(/^\d+$/)
    expect(usp.epw).to.be.a('string').and.not.equal('')
    client.adopt(usp)
  })

  it('accepts the cookie the client builds itself from that JSON', async () => {
    const sent = await client.call('sql', JSON.stringify({ sql: "select store from pub.demo.retail.stores where region = 'West' order by store" }))
    expect(sent.path).to.equal(`/${VERSION}/api/sql:json`)
    westStores = jsonOf<{ store: number[] }>(sent.reply).store
    expect(westStores.length).to.be.greaterThan(1)
  })

  it('answers a wrong password with JSON holding a string error, which is all the client reads', async () => {
    const reply = await new DevboxClient(new URL(server.base).origin, cert.cert).login('admin', 'not-the-password')
    expect(reply.status).to.equal(401)
    expect(String(reply.headers['content-type'])).to.match(/^application\/json/)
    const usp = JSON.parse(reply.text) as { error?: unknown; sid?: unknown }
    expect(usp.error).to.be.a('string').and.not.equal('')
    expect(usp.sid).to.equal(undefined)
  })

  it('creates an instance from {"xml": "<macro>\\n  <dynamic>…"} at new:json and answers an integer tag', async () => {
    const sent = await client.call('new', JSON.stringify({ xml: QUICKAPP }))
    expect(sent.path).to.equal(`/${VERSION}/api/new:json`)
    const r = jsonOf<{ tag: unknown }>(sent.reply)
    expect(r).to.have.keys('tag')
    expect(Number.isInteger(r.tag), String(r.tag)).to.equal(true)
    tag = r.tag as number
  })

  it('sets dynamic variables from a JSON object posted to {tag}:json and answers the index widget', async () => {
    const r = jsonOf<Columns>((await client.call(`${tag}`, JSON.stringify({ region: 'West', x: 3 }))).reply)
    expect(r.store).to.deep.equal(westStores)
    expect(new Set(r.region)).to.deep.equal(new Set(['West']))
    // y is set by the change(x) trigger, so it shows the trigger ran on the client's request.
    expect(new Set(r.y)).to.deep.equal(new Set([30]))
  })

  it('reads !cols and !rows through POSTs with an empty body and Content-length 0', async () => {
    const cols = await client.call(`${tag}/!cols`)
    expect(cols.path).to.equal(`/${VERSION}/api/${tag}/!cols:json`)
    expect(jsonOf<Columns>(cols.reply).name).to.deep.equal(['store', 'region', 'y'])
    expect(jsonOf((await client.call(`${tag}/!rows`)).reply)).to.equal(westStores.length)
  })

  it('glues :json before the query string, and leaves a :json.rows suffix as it is', async () => {
    const data = await client.call(`${tag}/!data?range_=0&to_=2`)
    expect(data.path).to.equal(`/${VERSION}/api/${tag}/!data:json?range_=0&to_=2`)
    const columns = jsonOf<Columns>(data.reply)
    expect(columns.store).to.deep.equal(westStores.slice(0, 2))
    const rows = await client.call(`${tag}/!data:json.rows?range_=0&to_=2`)
    expect(rows.path).to.equal(`/${VERSION}/api/${tag}/!data:json.rows?range_=0&to_=2`)
    expect(jsonOf(rows.reply)).to.deep.equal({ cols: ['store', 'region', 'y'], rows: [0, 1].map((i) => [columns.store[i], columns.region[i], columns.y[i]]) })
  })

  it('invokes methods of a named widget at {tag}/{widget}/!{method} with JSON-encoded args', async () => {
    const rows = await client.invoke(tag, 'cities', 'rows', {})
    expect(rows.path).to.equal(`/${VERSION}/api/${tag}/cities/!rows:json`)
    expect(jsonOf(rows.reply)).to.equal(westStores.length)
    const data = jsonOf<Columns>((await client.invoke(tag, 'cities', 'data', { range_: 1, to_: 3 })).reply)
    expect(Object.keys(data)).to.deep.equal(['store', 'city'])
    expect(data.store).to.deep.equal(westStores.slice(1, 3))
  })

  it("answers a text widget's value as a JSON string", async () => {
    expect(jsonOf((await client.call(`${tag}/title`)).reply)).to.equal('Region West')
  })

  it('lists methods at {tag}!methods, {tag}/!methods and {tag}/{widget}!methods as a JSON array of names', async () => {
    const grid = ['cols', 'rows', 'data', 'head', 'stop', 'status', 'methods']
    for (const [endp, methods] of [
      [`${tag}!methods`, grid],
      [`${tag}/!methods`, grid],
      [`${tag}/cities!methods`, grid],
      [`${tag}/title!methods`, ['stop', 'status', 'methods']],
    ] as const) {
      const sent = await client.call(endp)
      expect(sent.path).to.equal(`/${VERSION}/api/${endp}:json`)
      expect(jsonOf(sent.reply), endp).to.deep.equal(methods)
    }
    const invoked = await client.invoke(tag, 'cities', 'methods', {})
    expect(invoked.path).to.equal(`/${VERSION}/api/${tag}/cities/!methods:json`)
    expect(jsonOf(invoked.reply)).to.deep.equal(grid)
  })

  it('answers the widget status table at {tag}/@, with the variables the request changed', async () => {
    const sent = await client.call(`${tag}/@`, JSON.stringify({ x: 4 }))
    expect(sent.path).to.equal(`/${VERSION}/api/${tag}/@:json`)
    // x changed, the change(x) trigger set y, and only the index widget shows y.
    expect(jsonOf(sent.reply)).to.deep.equal({
      widgets: { name: ['index', 'cities', 'title'], class: ['grid', 'grid', 'text'], changed: [1, 0, 0] },
      changes: { x: '4', y: '40' },
    })
  })

  it('sets the variable path from a trailing segment {tag}/{path} and answers the index widget', async () => {
    const ptag = jsonOf<{ tag: number }>((await client.call('new', JSON.stringify({ xml: PATH_APP }))).reply).tag
    const sent = await client.call(`${ptag}/West`)
    expect(sent.path).to.equal(`/${VERSION}/api/${ptag}/West:json`)
    expect(jsonOf<Columns>(sent.reply).store).to.deep.equal(westStores)
    // The leading dot names a widget rather than a value of path.
    expect(jsonOf((await client.call(`${ptag}/.heading`)).reply)).to.equal('Stores of West')
  })

  it('logs out at !logout:json, after which the same cookie gets 403 with a JSON error', async () => {
    expect(jsonOf((await client.call('!logout')).reply)).to.deep.equal({ rc: '0', msg: 'Logged out' })
    const after = (await client.call(`${tag}/!rows`)).reply
    expect(after.status).to.equal(403)
    // The client hands status, content type and text on to the browser unchanged.
    expect(String(after.headers['content-type'])).to.match(/^application\/json/)
    expect((JSON.parse(after.text) as { error?: unknown }).error).to.be.a('string')
  })

  it('stops on SIGTERM with exit code 0', async () => {
    expect(await stop(server)).to.equal(0)
  })
})
