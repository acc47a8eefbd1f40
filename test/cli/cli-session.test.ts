/**
 * The CLI's session handling and exit codes, driven as a child process: login saves the session
 * (never the password) in a 0600 file, later commands use it, logout ends it, and each kind of
 * failure gets its documented exit code.
 */
import { expect } from 'chai'
import { readFile, stat } from 'node:fs/promises'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { Client, TabulaError } from '../../client/index.js'
import { ADMIN_PASSWORD, cli, configDir, startGateway, type Gateway } from '../client/helpers.js'

describe('client: CLI sessions and exit codes', function () {
  this.timeout(60_000)
  let g: Gateway
  let cfg: { dir: string; remove(): Promise<void> }
  before(async () => {
    g = await startGateway()
  })
  after(async () => {
    await g?.close()
  })
  beforeEach(async () => {
    cfg = await configDir()
  })
  afterEach(async () => {
    await cfg.remove()
  })

  const env = () => ({ TABULA_CONFIG_DIR: cfg.dir })

  it('logs in with the password from the environment and saves only the session, mode 0600', async () => {
    const r = await cli(['login', '--url', g.url, '--user', 'admin'], { ...env(), TABULA_PASSWORD: ADMIN_PASSWORD })
    expect(r.code, r.stderr).to.equal(0)
    const file = join(cfg.dir, 'credentials.json')
    // Other users must not read a live session: exactly rw for the owner.
    expect((await stat(file)).mode & 0o777).to.equal(0o600)
    const text = await readFile(file, 'utf8')
    expect(text).not.to.contain(ADMIN_PASSWORD)
    const saved = JSON.parse(text) as Record<string, string>
    expect(saved).to.include({ url: g.url, uid: 'admin' })
    expect(saved.sid).to.match(/^\d+$/)
    // The saved session works without any password in the environment.
    const q = await cli(['sql', 'select 40 + 2 as x'], env())
    expect(q.code, q.stderr).to.equal(0)
    expect(JSON.parse(q.stdout)).to.deep.equal([{ x: 42 }])
  })

  it('reads the password from stdin with --password-stdin', async () => {
    const r = await cli(['login', '--url', g.url, '-u', 'admin', '--password-stdin'], env(), `${ADMIN_PASSWORD}\n`)
    expect(r.code, r.stderr).to.equal(0)
  })

  it('logout ends the session on the service and forgets it', async () => {
    await cli(['login', '--url', g.url, '--user', 'admin'], { ...env(), TABULA_PASSWORD: ADMIN_PASSWORD })
    const saved = JSON.parse(await readFile(join(cfg.dir, 'credentials.json'), 'utf8')) as { uid: string; sid: string; epw: string }
    const r = await cli(['logout'], env())
    expect(r.code, r.stderr).to.equal(0)
    await stat(join(cfg.dir, 'credentials.json')).then(
      () => expect.fail('credentials.json still exists'),
      () => undefined,
    )
    // The old cookie no longer works anywhere.
    const old = new Client({ baseUrl: g.api, session: saved })
    const err = await old.sql('select 1').then(
      () => null,
      (e: unknown) => e,
    )
    expect(err).to.be.instanceOf(TabulaError)
    expect((err as TabulaError).code).to.equal('no_session')
  })

  it('exits 3 when not logged in, and 3 when the saved session has expired', async () => {
    const none = await cli(['sql', 'select 1'], { ...env(), TABULA_URL: g.url })
    expect(none.code).to.equal(3)
    expect(none.stderr).to.contain('login')
    await cli(['login', '--url', g.url, '--user', 'admin'], { ...env(), TABULA_PASSWORD: ADMIN_PASSWORD })
    // Another login with kill=yes ends the saved session, as an expiry would.
    await new Client({ baseUrl: g.api }).login('admin', ADMIN_PASSWORD, { kill: 'yes' })
    const gone = await cli(['sql', 'select 1'], env())
    expect(gone.code).to.equal(3)
  })

  it('logs in by itself from TABULA_UID and TABULA_PASSWORD, and again when the saved session is gone', async () => {
    const direct = await cli(['sql', 'select 1 as one'], { ...env(), TABULA_URL: g.url, TABULA_UID: 'admin', TABULA_PASSWORD: ADMIN_PASSWORD })
    expect(direct.code, direct.stderr).to.equal(0)
    await cli(['login', '--url', g.url, '--user', 'admin'], { ...env(), TABULA_PASSWORD: ADMIN_PASSWORD })
    await new Client({ baseUrl: g.api }).login('admin', ADMIN_PASSWORD, { kill: 'yes' })
    const again = await cli(['sql', 'select 1 as one'], { ...env(), TABULA_UID: 'admin', TABULA_PASSWORD: ADMIN_PASSWORD })
    expect(again.code, again.stderr).to.equal(0)
  })

  it('exits 1 for an error the API answers, with its message and code', async () => {
    const r = await cli(['sql', 'select nope from pub.demo.retail.item'], { ...env(), TABULA_URL: g.url, TABULA_UID: 'admin', TABULA_PASSWORD: ADMIN_PASSWORD })
    expect(r.code).to.equal(1)
    expect(r.stderr).to.contain('sql_error').and.contain('nope')
    const bad = await cli(['login', '--url', g.url, '--user', 'admin'], { ...env(), TABULA_PASSWORD: 'wrong-password' })
    expect(bad.code).to.equal(1)
    expect(bad.stderr).to.contain('bad_credentials')
  })

  it('exits 2 for usage errors', async () => {
    for (const args of [
      [],
      ['frobnicate'],
      ['sql'],
      ['sql', 'a', 'b'],
      ['sql', 'select 1', '--no-such-option'],
      ['upload', 'x.csv'],
      ['run', '/no/such/file.xml'],
      ['stop', 'seven'],
    ]) {
      const r = await cli(args, { ...env(), TABULA_URL: g.url, TABULA_UID: 'admin', TABULA_PASSWORD: ADMIN_PASSWORD })
      expect(r.code, `tabula ${args.join(' ')}: ${r.stderr}`).to.equal(2)
    }
  })

  it('exits 4 when the service cannot be reached', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port
        s.close(() => resolve(p))
      })
    })
    const r = await cli(['sql', 'select 1'], { ...env(), TABULA_URL: `http://127.0.0.1:${port}`, TABULA_UID: 'admin', TABULA_PASSWORD: ADMIN_PASSWORD })
    expect(r.code).to.equal(4)
    expect(r.stderr).to.contain('Could not reach')
  })

  it('answers --help for every command with its usage and exits 0', async () => {
    const list = await cli(['help'], env())
    expect(list.code).to.equal(0)
    const names = [...list.stdout.matchAll(/^ {2}([a-z]+) {2,}/gm)].map((m) => m[1])
    expect(names).to.include.members(['login', 'logout', 'run', 'sql', 'ls', 'upload', 'download', 'dbm', 'stop', 'status'])
    for (const name of names) {
      const r = await cli([name, '--help'], env())
      expect(r.code, name).to.equal(0)
      expect(r.stdout, name).to.match(new RegExp(`^Usage: tabula ${name}`))
      expect(r.stdout, name).to.contain('Exit codes')
    }
  })
})
