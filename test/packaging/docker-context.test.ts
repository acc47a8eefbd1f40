/**
 * The Dockerfile, played without Docker (there is no daemon here or on CI): the build stage's
 * context is assembled in a temporary folder exactly as its COPY lines list it, its RUN lines run
 * there (npm ci replaced by a symlink to node_modules, see docker-stage.ts), and the final stage
 * is assembled from what it copies out of the build stage and started with its CMD and ENV, then
 * asked a query. So a COPY list that misses a folder the build needs, or a build that misses a
 * file the server needs at run time, fails `npm test` instead of the next `docker build`.
 */
import { expect } from 'chai'
import { spawn, type ChildProcess } from 'node:child_process'
import { builtinModules } from 'node:module'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '../../client/index.js'
import { parseDockerfile, type Stage } from './dockerfile.js'
import { playStage, type PlayedStage } from './docker-stage.js'

const REPO = fileURLToPath(new URL('../../../', import.meta.url))
const ADMIN_PASSWORD = 'docker-play-admin-1'

describe('Dockerfile, played without Docker', function () {
  let work: string
  let stages: Stage[]
  let build: PlayedStage
  let final: PlayedStage
  const at = (stage: PlayedStage, path: string): string => join(stage.root, posix.resolve(stage.workdir, path))

  before(async function () {
    // A cold compile of the server and the workbench: about a minute on 2 busy cores.
    this.timeout(10 * 60_000)
    stages = parseDockerfile(await readFile(join(REPO, 'Dockerfile'), 'utf8'))
    const buildStage = stages.find((s) => s.name === 'build')
    if (!buildStage) throw new Error('The Dockerfile has no stage named "build"')
    work = await mkdtemp(join(tmpdir(), 'tabula-docker-'))
    build = await playStage(buildStage, { context: REPO, root: join(work, 'build') })
    // The final stage's RUN installs the runtime packages and makes /data: node_modules stands
    // for the first (see the last test for what that cannot show), DATA_DIR for the second.
    final = await playStage(stages.at(-1)!, { context: REPO, root: join(work, 'final'), stages: { build }, skipRun: true })
    await symlink(join(REPO, 'node_modules'), at(final, 'node_modules'), 'dir')
  })

  after(async () => {
    if (work) await rm(work, { recursive: true, force: true })
  })

  it('builds the server, its worker entry points and the workbench in the build stage', () => {
    for (const file of ['dist/gateway/server.js', 'dist/engine/worker-door.cjs', 'dist/ui/workbench.css', 'dist/ui/favicon.svg']) {
      expect(existsSync(at(build, file)), `${file} in the build stage`).to.equal(true)
    }
  })

  it('starts the final stage with its CMD and ENV: the gateway answers health checks, the workbench and a query', async function () {
    this.timeout(120_000)
    const cmd = stages.at(-1)!.instructions.findLast((i) => i.keyword === 'CMD')
    expect(cmd?.args[0], 'CMD runs node').to.equal('node')
    const dataDir = join(work, 'data')
    const gateway = await startGateway(cmd!.args.slice(1), at(final, '.'), {
      ...final.env,
      // The image's own values are for a container; on a shared machine: loopback and a free port.
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD,
      WORKERS: '1',
      DEMO_ROWS: '2000',
    })
    try {
      const root = new URL(gateway.base).origin
      expect((await fetch(`${root}/healthz`)).status).to.equal(200)
      const page = await fetch(`${root}/ui/workbench.css`)
      expect(page.status, 'the workbench bundle is in the image').to.equal(200)
      const client = new Client({ baseUrl: root })
      await client.login('admin', ADMIN_PASSWORD)
      const answer = await client.sql('select count(*) n from pub.demo.retail.item', { format: 'json.keyed' })
      expect(answer).to.deep.equal([{ n: 2000 }])
    } finally {
      // SIGTERM drains; one that has not ended after 20 s is killed, so the test never hangs on it.
      const exited = new Promise((resolve) => (gateway.child.exitCode !== null ? resolve(null) : gateway.child.once('exit', resolve)))
      gateway.child.kill('SIGTERM')
      const kill = setTimeout(() => gateway.child.kill('SIGKILL'), 20_000)
      await exited
      clearTimeout(kill)
    }
  })

  it('runs no package that the final stage does not install (it installs dependencies only, not devDependencies)', async () => {
    const manifest = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
    const allowed = new Set([...Object.keys(manifest.dependencies), ...builtinModules])
    const missing = new Map<string, string>()
    const dist = at(final, 'dist')
    for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
      const file = join(entry.parentPath, entry.name)
      // dist/ui holds browser bundles: esbuild put every library they use inside them.
      if (!entry.isFile() || !/\.c?js$/.test(entry.name) || file.startsWith(join(dist, 'ui'))) continue
      for (const name of importedPackages(await readFile(file, 'utf8'))) if (!allowed.has(name)) missing.set(name, file.slice(dist.length + 1))
    }
    expect(Object.fromEntries(missing), 'packages imported by the server but not in "dependencies"').to.deep.equal({})
  })
})

/** Package names a compiled module imports or requires by bare specifier. */
function importedPackages(js: string): Set<string> {
  const names = new Set<string>()
  // Statements at the start of a line (tsc keeps one per line), and calls with a literal name.
  const statement = /^\s*(?:import\s*|(?:import|export)\b[^'"`;]*?\bfrom\s*)['"]([^'"]+)['"]/gm
  const call = /\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g
  for (const [, spec] of [...js.matchAll(statement), ...js.matchAll(call)]) {
    if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:')) continue
    const parts = spec.split('/')
    names.add(spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0])
  }
  return names
}

interface Gateway {
  readonly child: ChildProcess
  readonly base: string
}

/** Starts `node <args>` in cwd and waits for the line saying where it serves. */
function startGateway(args: string[], cwd: string, env: Record<string, string>): Promise<Gateway> {
  const child = spawn(process.execPath, args, { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  // Listeners stay attached once it is up (removing the 'exit' ones loses the exit event itself).
  let up = false
  return new Promise((resolve, reject) => {
    const fail = (why: string): void => {
      child.kill('SIGKILL')
      reject(new Error(`${why}:\n${output}`))
    }
    const timer = setTimeout(() => fail('the gateway did not start in 60 s'), 60_000)
    child.stderr!.on('data', (d) => (output += d))
    child.stdout!.on('data', (d) => {
      output += d
      const m = /serving (https?:\/\/\S+\/api)/.exec(output)
      if (!up && m && output.includes('Query:')) {
        up = true
        clearTimeout(timer)
        resolve({ child, base: m[1] })
      }
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      if (!up) reject(new Error(`the gateway exited with ${code}:\n${output}`))
    })
  })
}
