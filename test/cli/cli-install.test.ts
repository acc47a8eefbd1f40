/**
 * The `tabula` command as people install it: `npm pack` of this project, installed by npm into a
 * project (`npm ci --offline` with a lock, as test/packaging/consumer-lock.ts explains), then
 * run the three ways docs/cli.md gives:
 *
 * - `npx tabula` in that project (npx runs node_modules/.bin/tabula, the link npm made);
 * - the project's node_modules/.bin/tabula directly;
 * - a global install's layout, `<prefix>/bin/tabula` → `<prefix>/lib/node_modules/tabula/dist/cli/main.js`.
 *   `npm install -g --prefix P tabula-0.1.0.tgz` cannot run here: a global install resolves each
 *   dependency range from the registry's package documents, which an offline npm cache lacks
 *   (ENOTCACHED). So the layout npm would create is built with the same symlinks npm makes, over
 *   the package npm installed, and the command is run through it from another folder.
 *
 * Each must find its own files (package.json for --version, its modules) through the link.
 */
import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { consumerFiles, type Lock, type Manifest } from '../packaging/consumer-lock.js'

const exec = promisify(execFile)
const REPO = fileURLToPath(new URL('../../../', import.meta.url))

describe('client: CLI installed from the packed tarball', function () {
  this.timeout(5 * 60_000)
  let work: string
  let consumer: string
  let version: string

  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'tabula-cli-install-'))
    const manifest = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as Manifest
    version = manifest.version
    const { stdout } = await exec('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: REPO, maxBuffer: 16 << 20 })
    const [pack] = JSON.parse(stdout) as { filename: string }[]
    consumer = join(work, 'project')
    await mkdir(consumer)
    const lock = JSON.parse(await readFile(join(REPO, 'package-lock.json'), 'utf8')) as Lock
    const registry = (await exec('npm', ['config', 'get', 'registry'], { cwd: consumer })).stdout.trim()
    const files = consumerFiles(lock, manifest, `file:../${pack.filename}`, await readFile(join(work, pack.filename)), registry, [])
    await writeFile(join(consumer, 'package.json'), JSON.stringify(files.manifest, null, 2))
    await writeFile(join(consumer, 'package-lock.json'), JSON.stringify(files.lock, null, 2))
    await exec('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: consumer, maxBuffer: 16 << 20 }).catch(
      (err: { stderr?: string }) => {
        throw new Error(`npm ci --offline of the packed tarball failed (\`npm ci\` in the project fills the npm cache):\n${err.stderr}`)
      },
    )
  })
  after(async () => {
    if (work) await rm(work, { recursive: true, force: true })
  })

  it('ships main.js with a node shebang, made executable by npm', async () => {
    const main = join(consumer, 'node_modules/tabula/dist/cli/main.js')
    expect((await readFile(main, 'utf8')).split('\n')[0]).to.equal('#!/usr/bin/env node')
    expect((await stat(main)).mode & 0o111, 'executable').to.equal(0o111)
  })

  it('runs as `npx tabula` and as node_modules/.bin/tabula in a project that installed it', async () => {
    const npx = await exec('npx', ['--offline', '--no-install', 'tabula', '--version'], { cwd: consumer })
    expect(npx.stdout).to.equal(`tabula ${version}\n`)
    const bin = await exec(join(consumer, 'node_modules/.bin/tabula'), ['--version'], { cwd: tmpdir() })
    expect(bin.stdout).to.equal(`tabula ${version}\n`)
  })

  it("runs through a global install's links, from anywhere on the PATH", async () => {
    // What `npm install -g --prefix <prefix>` creates: the package under lib/node_modules, and a
    // link named after the bin in bin/.
    const prefix = join(work, 'global')
    await mkdir(join(prefix, 'bin'), { recursive: true })
    await mkdir(join(prefix, 'lib'))
    await symlink(join(consumer, 'node_modules'), join(prefix, 'lib/node_modules'))
    await symlink('../lib/node_modules/tabula/dist/cli/main.js', join(prefix, 'bin/tabula'))
    const env = { PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`, HOME: work }
    const r = await exec('tabula', ['--version'], { cwd: tmpdir(), env })
    expect(r.stdout).to.equal(`tabula ${version}\n`)
    const help = await exec('tabula', ['help', 'shell'], { cwd: '/', env })
    expect(help.stdout).to.match(/^Usage: tabula shell/)
  })
})
