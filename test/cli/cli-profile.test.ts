/**
 * Profiles against a gateway process: `tabula profile set/list/remove` write the config file
 * (mode 0600, no password unless asked), commands take the service and user from the chosen
 * profile, and the documented precedence holds: command line over environment over profile.
 */
import { expect } from 'chai'
import { chmod, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ADMIN_PASSWORD, cli, configDir, startGateway, type Gateway } from '../client/helpers.js'

/** A loopback port nothing listens on: a URL that must not be the one used. */
const NOWHERE = 'http://127.0.0.1:9'

describe('client: CLI profiles and precedence', function () {
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
  const env = (more: Record<string, string> = {}) => ({ TABULA_CONFIG_DIR: cfg.dir, ...more })
  const configText = () => readFile(join(cfg.dir, 'config.json'), 'utf8')

  it('adds a profile without a password; login and queries take URL and user from it, with a session of its own', async () => {
    const set = await cli(['profile', 'set', 'local', '--url', g.url, '--user', 'admin'], env())
    expect(set.code, set.stderr).to.equal(0)
    expect(set.stderr).to.contain('(the default)')
    expect((await stat(join(cfg.dir, 'config.json'))).mode & 0o777).to.equal(0o600)
    expect(JSON.parse(await configText())).to.deep.equal({ default: 'local', profiles: { local: { url: g.url, user: 'admin' } } })
    const list = await cli(['profile', 'list', '--format', 'json'], env())
    expect(JSON.parse(list.stdout)).to.deep.equal([{ profile: 'local *', url: g.url, user: 'admin', apiVersion: '', format: '', password: '' }])

    const login = await cli(['login'], env({ TABULA_PASSWORD: ADMIN_PASSWORD }))
    expect(login.code, login.stderr).to.equal(0)
    expect(login.stderr).to.contain('(profile local)')
    const saved = JSON.parse(await readFile(join(cfg.dir, 'credentials.local.json'), 'utf8')) as { url: string; uid: string }
    expect(saved).to.include({ url: g.url, uid: 'admin' })
    const q = await cli(['sql', 'select 7 x'], env())
    expect(q.code, q.stderr).to.equal(0)
    expect(JSON.parse(q.stdout)).to.deep.equal([{ x: 7 }])
    expect(await configText()).not.to.contain(ADMIN_PASSWORD)
  })

  it('takes the command line over the environment over the profile', async () => {
    expect((await cli(['profile', 'set', 'far', '--url', NOWHERE, '--user', 'nobody'], env())).code).to.equal(0)
    const login = { TABULA_UID: 'admin', TABULA_PASSWORD: ADMIN_PASSWORD }
    // Profile alone: its URL, which does not answer (exit 4).
    const profileOnly = await cli(['sql', 'select 1 x'], env({ TABULA_PASSWORD: ADMIN_PASSWORD }))
    expect(profileOnly.code).to.equal(4)
    // The environment beats the profile: URL and user.
    const envWins = await cli(['sql', 'select 1 x'], env({ ...login, TABULA_URL: g.url }))
    expect(envWins.code, envWins.stderr).to.equal(0)
    expect(JSON.parse(envWins.stdout)).to.deep.equal([{ x: 1 }])
    // The command line beats the environment.
    const flagWins = await cli(['sql', 'select 1 x', '--url', NOWHERE], env({ ...login, TABULA_URL: g.url }))
    expect(flagWins.code).to.equal(4)
    const flagGood = await cli(['sql', 'select 1 x', '--url', g.url], env({ ...login, TABULA_URL: NOWHERE }))
    expect(flagGood.code, flagGood.stderr).to.equal(0)
    // The user: the profile's "nobody" has no account, so a login as them fails; the environment's admin logs in.
    const profileUser = await cli(['sql', 'select 1 x'], env({ TABULA_PASSWORD: ADMIN_PASSWORD, TABULA_URL: g.url }))
    expect(profileUser.code).to.equal(1)
    expect(profileUser.stderr).to.match(/login|password|user/i)
    const envUser = await cli(['sql', 'select 1 x'], env({ TABULA_UID: 'admin', TABULA_PASSWORD: ADMIN_PASSWORD, TABULA_URL: g.url }))
    expect(envUser.code, envUser.stderr).to.equal(0)
  })

  it('chooses the profile by --profile, else $TABULA_PROFILE, else the default, and names the profiles when one is unknown', async () => {
    expect((await cli(['profile', 'set', 'far', '--url', NOWHERE, '--user', 'admin'], env())).code).to.equal(0)
    expect((await cli(['profile', 'set', 'near', '--url', g.url, '--user', 'admin'], env())).code).to.equal(0)
    const pw = { TABULA_PASSWORD: ADMIN_PASSWORD }
    expect((await cli(['sql', 'select 1 x'], env(pw))).code, 'the default, far').to.equal(4)
    expect((await cli(['sql', 'select 1 x'], env({ ...pw, TABULA_PROFILE: 'near' }))).code).to.equal(0)
    expect((await cli(['sql', 'select 1 x', '--profile', 'far'], env({ ...pw, TABULA_PROFILE: 'near' }))).code).to.equal(4)
    expect((await cli(['sql', 'select 1 x', '-P', 'near'], env(pw))).code).to.equal(0)
    const unknown = await cli(['sql', 'select 1', '--profile', 'mars'], env(pw))
    expect(unknown.code).to.equal(2)
    expect(unknown.stderr).to.contain('No profile "mars"').and.to.contain('(profiles: far, near)')
    expect((await cli(['profile', 'remove', 'far'], env())).code).to.equal(0)
    expect(JSON.parse(await configText()).profiles).to.have.keys(['near'])
  })

  it('stores a password only when asked, uses it only from a file others cannot read, and prefers a password command', async () => {
    const none = await cli(['profile', 'set', 'p', '--url', g.url, '--user', 'admin'], env())
    expect(none.code).to.equal(0)
    // No password anywhere: not logged in (exit 3).
    expect((await cli(['sql', 'select 1'], env())).code).to.equal(3)

    const stored = await cli(['profile', 'set', 'p', '--save-password'], env(), `${ADMIN_PASSWORD}\n`)
    expect(stored.code, stored.stderr).to.equal(0)
    expect(JSON.parse(await configText()).profiles.p.password).to.equal(ADMIN_PASSWORD)
    const q = await cli(['sql', 'select 2 x'], env())
    expect(q.code, q.stderr).to.equal(0)
    expect(JSON.parse(q.stdout)).to.deep.equal([{ x: 2 }])

    await chmod(join(cfg.dir, 'config.json'), 0o644)
    const open = await cli(['sql', 'select 2 x'], env())
    expect(open.code).to.equal(2)
    expect(open.stderr).to.contain('others may read it').and.to.contain('chmod 600')

    // A password command replaces the stored password, which leaves the file.
    await writeFile(join(cfg.dir, 'pw.sh'), `printf '%s\\n' '${ADMIN_PASSWORD}'\n`)
    const command = await cli(['profile', 'set', 'p', '--password-command', `sh ${join(cfg.dir, 'pw.sh')}`], env())
    expect(command.code, command.stderr).to.equal(0)
    expect(await configText()).not.to.contain(ADMIN_PASSWORD)
    const viaCommand = await cli(['sql', 'select 3 x'], env())
    expect(viaCommand.code, viaCommand.stderr).to.equal(0)
    expect(JSON.parse(viaCommand.stdout)).to.deep.equal([{ x: 3 }])
  })

  it('refuses a config file with an unknown key or bad JSON, naming the file and what is wrong', async () => {
    await writeFile(join(cfg.dir, 'config.json'), JSON.stringify({ profiles: { a: { url: g.url, pasword: 'x' } } }))
    const typo = await cli(['sql', 'select 1'], env())
    expect(typo.code).to.equal(2)
    expect(typo.stderr).to.contain('unknown key "pasword"').and.to.contain(join(cfg.dir, 'config.json'))
    await writeFile(join(cfg.dir, 'other.json'), '{"profiles": ')
    const bad = await cli(['sql', 'select 1'], env({ TABULA_CONFIG: join(cfg.dir, 'other.json') }))
    expect(bad.code).to.equal(2)
    expect(bad.stderr).to.contain(`The config file ${join(cfg.dir, 'other.json')} is not valid JSON`)
  })
})
