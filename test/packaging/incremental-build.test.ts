/**
 * `npm run build` with nothing changed must not redo the work (the build `npm start` runs before
 * every start): every tsc project in the build script is incremental, with its state in dist, and
 * a second build finds them all up to date and rewrites nothing. Checked by the files' times and
 * contents, not by a duration, so a busy machine cannot make it flaky.
 *
 * It builds this checkout's own dist: the first build brings it up to date (a no-op after
 * `npm test`'s build), the second is the one checked.
 */
import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { readdir, readFile, stat } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import ts from 'typescript'

const exec = promisify(execFile)
const REPO = fileURLToPath(new URL('../../../', import.meta.url))
const DIST = join(REPO, 'dist')
/** esbuild's bundles: rebuilt every time on purpose (0.2 s), checked by content instead. */
const BUNDLES = join(DIST, 'ui')

interface Snapshot {
  readonly times: Map<string, number>
  readonly bundles: Map<string, string>
}

async function snapshot(): Promise<Snapshot> {
  const times = new Map<string, number>()
  const bundles = new Map<string, string>()
  for (const entry of await readdir(DIST, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const file = join(entry.parentPath, entry.name)
    if (file.startsWith(BUNDLES + '/')) bundles.set(relative(DIST, file), await readFile(file, 'base64'))
    else times.set(relative(DIST, file), (await stat(file)).mtimeMs)
  }
  return { times, bundles }
}

describe('npm run build, again with nothing changed', () => {
  it('finds every tsc project up to date and rewrites no file in dist; the bundles come out the same', async function () {
    this.timeout(10 * 60_000)
    const manifest = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    const tscBuild = /\btsc -b ((?:[\w.-]+\.json\s*)+)/.exec(manifest.scripts.build)
    expect(tscBuild, 'the build script compiles with tsc -b').to.not.equal(null)
    const projects = tscBuild![1].trim().split(/\s+/)

    await exec('npm', ['run', 'build'], { cwd: REPO, maxBuffer: 16 << 20 })
    const before = await snapshot()
    await exec('npm', ['run', 'build'], { cwd: REPO, maxBuffer: 16 << 20 })
    const after = await snapshot()

    // Each project is incremental and keeps its state in dist (so deleting dist resets it).
    for (const project of projects) {
      const options = ts.getParsedCommandLineOfConfigFile(join(REPO, project), undefined, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!.options
      expect(options.incremental, `${project} is incremental`).to.equal(true)
      expect(relative(DIST, options.tsBuildInfoFile ?? ''), `${project}'s tsBuildInfoFile`).to.not.match(/^\.\.|^$/)
      expect(before.times.has(relative(DIST, options.tsBuildInfoFile!)), `${project}'s .tsbuildinfo exists`).to.equal(true)
    }
    const rewritten = [...after.times].filter(([file, time]) => before.times.get(file) !== time).map(([file]) => file)
    expect(rewritten, 'files the second build wrote again').to.deep.equal([])
    expect(after.times.size).to.equal(before.times.size)
    expect(after.bundles).to.deep.equal(before.bundles)

    // And tsc says why: each project is up to date, judged by the inputs' times alone.
    const { stdout } = await exec(join(REPO, 'node_modules/.bin/tsc'), ['-b', '--verbose', ...projects], { cwd: REPO })
    for (const project of projects) expect(stdout, project).to.match(new RegExp(`Project '${project.replace(/\./g, '\\.')}' is up to date`))
  })
})
