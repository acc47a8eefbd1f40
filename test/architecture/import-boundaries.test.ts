/**
 * Issue 18: the gateway reaches the engine only through engine/index.ts, and neither the engine
 * nor shared/ imports the gateway. The tree is checked as it is; planted imports show that a
 * forbidden one would fail this suite (and so CI, which runs every test).
 */
import { expect } from 'chai'
import { checkBoundaries, describeViolation } from './boundaries.js'
import { findReferences, resolveSpecifier } from './import-graph.js'
import { readTree } from './source-tree.js'

const CHECKED_FOLDERS = ['gateway', 'engine', 'shared', 'client', 'cli']

/** The violations of one planted file, as "line specifier" strings. */
const planted = (path: string, source: string): string[] => checkBoundaries(new Map([[path, source]])).map((v) => `${v.line} ${v.specifier}`)

describe('import boundaries (issue 18)', () => {
  let tree: Map<string, string>
  before(() => {
    tree = readTree(CHECKED_FOLDERS)
  })

  it('the source tree keeps every boundary', () => {
    const violations = checkBoundaries(tree)
    expect(violations.map(describeViolation), 'forbidden references').to.deep.equal([])
  })

  it('the tree is really read: the gateway imports the door from many files', () => {
    const doorUsers = [...tree].filter(
      ([path, source]) => path.startsWith('gateway/') && findReferences(path, source).some((r) => resolveSpecifier(path, r.specifier) === 'engine/index.ts'),
    )
    expect(tree.size).to.be.greaterThan(300)
    expect(doorUsers.length).to.be.greaterThan(15)
  })

  it('reports a gateway file importing an engine internal, by line and specifier', () => {
    const source = `import { x } from '../shared/table.js'\nimport { parseQuery } from '../../engine/parse/index.js'\n`
    const [violation] = checkBoundaries(new Map([['gateway/cache/planted.ts', source]]))
    expect(violation).to.include({ file: 'gateway/cache/planted.ts', line: 2, specifier: '../../engine/parse/index.js', target: 'engine/parse/index.ts' })
    expect(describeViolation(violation)).to.contain('engine/index.ts')
  })

  it('reports every form of import: type, export-from, a type-level import(), a dynamic import()', () => {
    const source = [
      `import type { Op } from '../engine/ast.js'`,
      `export { planParallel } from '../engine/parallel/plan.js'`,
      `type T = import('../engine/retire.js').WorkerSetup`,
      `const m = await import('../engine/storage/index.js')`,
      `import '../engine/worker.js'`,
    ].join('\n')
    expect(planted('gateway/planted.ts', source)).to.deep.equal([
      '1 ../engine/ast.js',
      '2 ../engine/parallel/plan.js',
      '3 ../engine/retire.js',
      '4 ../engine/storage/index.js',
      '5 ../engine/worker.js',
    ])
  })

  it('reports an engine file importing the gateway', () => {
    expect(planted('engine/parallel/planted.ts', `import type { Deps } from '../../gateway/deps.js'\n`)).to.deep.equal(['1 ../../gateway/deps.js'])
  })

  it('reports a shared file importing the gateway or the engine', () => {
    const source = `import { runParallel } from '../gateway/query/parallel.js'\nimport type { Op } from '../engine/index.js'\n`
    expect(planted('shared/planted.ts', source)).to.deep.equal(['1 ../gateway/query/parallel.js', '2 ../engine/index.js'])
  })

  it('reports the HTTP client or the CLI importing the server', () => {
    expect(planted('client/planted.ts', `import { app } from '../gateway/app.js'\n`)).to.deep.equal(['1 ../gateway/app.js'])
    expect(planted('cli/planted.ts', `import { makeRetailDemo } from '../engine/index.js'\n`)).to.deep.equal(['1 ../engine/index.js'])
  })

  it('reports an import() of a computed name, which cannot be checked', () => {
    expect(planted('gateway/planted.ts', `const name = 'x'\nawait import(\`../engine/\${name}.js\`)\n`)).to.deep.equal(['2 (computed)'])
  })

  it('allows the door, a worker named as a thread entry, packages, and imports only quoted in comments or strings', () => {
    const source = [
      `import { parseMacro } from '../../engine/index.js'`,
      `import Koa from 'koa'`,
      `import { readFile } from 'node:fs/promises'`,
      `const WORKER = new URL('../../engine/storage/write-task-door.cjs', import.meta.url)`,
      `// import { x } from '../../engine/parse/index.js'`,
      `const text = "import { x } from '../../engine/parse/index.js'"`,
    ].join('\n')
    expect(planted('gateway/tables/planted.ts', source)).to.deep.equal([])
  })

  it('leaves tests free to reach internals', () => {
    const source = `import { parseQuery } from '../../engine/parse/index.js'\nimport { buildDeps } from '../../gateway/compose.js'\n`
    expect(planted('test/engine/planted.test.ts', source)).to.deep.equal([])
  })
})
