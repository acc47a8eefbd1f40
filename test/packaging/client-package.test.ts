/**
 * `tabula/client` as others get it: `npm pack` of this project (package.json "files": the client,
 * the CLI and what they import, with the client's .d.ts), installed into a new project with
 * `npm ci --offline` (consumer-lock.ts says why a lock), then a consumer's TypeScript is
 * type-checked against the installed declarations with `skipLibCheck: false`, without any of
 * tabula's sources. A second consumer with type errors must be refused at exactly those lines, so
 * declarations that had decayed to `any` (a missing shared/api-answers.d.ts, say) fail here.
 */
import { expect } from 'chai'
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { consumerFiles, type Lock, type Manifest } from './consumer-lock.js'

const exec = promisify(execFile)
const REPO = fileURLToPath(new URL('../../../', import.meta.url))
const TSC = join(REPO, 'node_modules/.bin/tsc')

/** Uses the client as its README shows: every call here must type-check. */
const GOOD_CONSUMER = `import { Client, TabulaError, type QueryStatus, type RowsResult } from 'tabula/client'

export async function storeCounts(baseUrl: string, password: string): Promise<{ rows: RowsResult; done: number | null }> {
  const client = new Client({ baseUrl, retry: { retries: 2 } })
  await client.login('admin', password, { kill: 'no' })
  const rows = await client.sql('select store, count(*) n from pub.demo.retail.item group by store', { format: 'json.rows' })
  const firstColumn: string = rows.cols[0]
  const keyed = await client.sql(\`select '\${firstColumn}' c\`, { format: 'json.keyed' })
  keyed.forEach((row) => Object.keys(row))
  const instance = await client.newInstance('sql')
  const status: QueryStatus = await instance.status()
  await client.dbm('make_dir', { path: 'team' })
  return { rows, done: status.done }
}

export function describeError(err: unknown): string {
  return err instanceof TabulaError ? \`\${err.status} \${err.code}: \${err.message}\` : String(err)
}
`

/** Three misuses, each caught only if its type came through the package: [line, TS error code]. */
const BAD_CONSUMER = `import { Client, type QueryStatus } from 'tabula/client'

export async function wrong(client: Client, status: QueryStatus): Promise<void> {
  const elapsed: string = status.elapsed_ms
  await client.sql(42)
  const rows = await client.sql('select 1', { format: 'json.rows' })
  rows.cols.push(7)
  void elapsed
}
`
const BAD_LINES = [
  [4, 'TS2322'], // QueryStatus.elapsed_ms is number | null (shipped shared/api-answers.d.ts)
  [5, 'TS2345'], // the query text is a string
  [7, 'TS2345'], // json.rows' cols are strings
]

describe('tabula/client, packed and installed as a package', function () {
  let work: string
  let consumer: string
  let packed: string[]

  before(async function () {
    this.timeout(5 * 60_000)
    if (!existsSync(join(REPO, 'dist/client/index.d.ts'))) {
      throw new Error('dist/client/index.d.ts is missing: build with `npm run build` (tsconfig.client.json emits the client declarations)')
    }
    work = await mkdtemp(join(tmpdir(), 'tabula-pack-'))
    // --ignore-scripts: a future prepack/prepare script must not start a build from inside a test.
    const { stdout } = await exec('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: REPO, maxBuffer: 16 << 20 })
    const [pack] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[]
    packed = pack.files.map((f) => f.path)
    consumer = join(work, 'consumer')
    await mkdir(consumer)
    const repoLock = JSON.parse(await readFile(join(REPO, 'package-lock.json'), 'utf8')) as Lock
    const manifest = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as Manifest
    const registry = (await exec('npm', ['config', 'get', 'registry'], { cwd: consumer })).stdout.trim()
    const tarball = await readFile(join(work, pack.filename))
    const files = consumerFiles(repoLock, manifest, `file:../${pack.filename}`, tarball, registry, ['@types/node'])
    await writeFile(join(consumer, 'package.json'), JSON.stringify(files.manifest, null, 2))
    await writeFile(join(consumer, 'package-lock.json'), JSON.stringify(files.lock, null, 2))
    try {
      await exec('npm', ['ci', '--offline', '--include=dev', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: consumer, maxBuffer: 16 << 20 })
    } catch (err) {
      const e = err as { stderr?: string }
      throw new Error(
        `npm ci --offline of the packed tarball failed (a package missing from the npm cache? \`npm ci\` in the project fills it):\n${e.stderr}`,
        { cause: err },
      )
    }
  })

  after(async () => {
    if (work) await rm(work, { recursive: true, force: true })
  })

  it('packs the client with its declarations, the CLI and the shared declarations, and no TypeScript source or source map', () => {
    for (const file of ['package.json', 'dist/client/index.js', 'dist/client/index.d.ts', 'dist/shared/api-answers.d.ts', 'dist/cli/main.js']) {
      expect(packed, file).to.include(file)
    }
    expect(packed.filter((f) => (f.endsWith('.ts') && !f.endsWith('.d.ts')) || f.endsWith('.map'))).to.deep.equal([])
  })

  it('resolves every relative import of the installed modules and declarations inside the package', async () => {
    const pkg = join(consumer, 'node_modules/tabula')
    const unresolved: string[] = []
    for (const entry of await readdir(pkg, { recursive: true, withFileTypes: true })) {
      const file = join(entry.parentPath, entry.name)
      if (!entry.isFile() || !/\.(js|d\.ts)$/.test(entry.name)) continue
      const text = await readFile(file, 'utf8')
      for (const [, spec] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*)['"](\.{1,2}\/[^'"]+)['"]/gm)) {
        const target = resolve(dirname(file), file.endsWith('.d.ts') ? spec.replace(/\.js$/, '.d.ts') : spec)
        if (!target.startsWith(pkg + '/') || !existsSync(target)) unresolved.push(`${relative(pkg, file)} → ${spec}`)
      }
    }
    expect(unresolved).to.deep.equal([])
  })

  it("type-checks a consumer of tabula/client with skipLibCheck off, with Node's types or the browser's", async function () {
    this.timeout(300_000)
    await writeFile(join(consumer, 'good.ts'), GOOD_CONSUMER)
    for (const types of ['node', 'dom']) {
      const result = await typeCheck(consumer, 'good.ts', types as 'node' | 'dom')
      expect(result, `with ${types} types`).to.deep.equal({ ok: true, output: '' })
    }
  })

  it('reports the type errors of a consumer that misuses the types the package declares', async function () {
    this.timeout(300_000)
    await writeFile(join(consumer, 'bad.ts'), BAD_CONSUMER)
    const result = await typeCheck(consumer, 'bad.ts', 'node')
    expect(result.ok).to.equal(false)
    const errors = [...result.output.matchAll(/^(\S+)\((\d+),\d+\): error (TS\d+)/gm)].map(([, file, line, code]) => [file, Number(line), code])
    expect(errors).to.deep.equal(BAD_LINES.map(([line, code]) => ['bad.ts', line, code]))
  })

  it('runs from the install: Node imports tabula/client and the tabula command answers', async () => {
    const { stdout } = await exec(
      process.execPath,
      ['--input-type=module', '-e', "const m = await import('tabula/client'); console.log(typeof m.Client, typeof m.TabulaError)"],
      {
        cwd: consumer,
      },
    )
    expect(stdout.trim()).to.equal('function function')
    const help = await exec(join(consumer, 'node_modules/.bin/tabula'), ['help'], { cwd: consumer })
    expect(help.stdout).to.match(/^Usage: tabula COMMAND/)
  })
})

/** tsc over one file of the consumer, strict, skipLibCheck off, with Node's or the DOM's globals. */
async function typeCheck(dir: string, file: string, types: 'node' | 'dom'): Promise<{ ok: boolean; output: string }> {
  const config = {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      strict: true,
      skipLibCheck: false,
      noEmit: true,
      ...(types === 'node' ? { lib: ['ES2022'], types: ['node'] } : { lib: ['ES2022', 'DOM'], types: [] }),
    },
    files: [file],
  }
  const configFile = join(dir, `tsconfig.${file}.${types}.json`)
  await writeFile(configFile, JSON.stringify(config, null, 2))
  try {
    const { stdout } = await exec(TSC, ['-p', configFile, '--pretty', 'false'], { cwd: dir })
    return { ok: true, output: stdout.trim() }
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string }
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}`.trim() }
  }
}
