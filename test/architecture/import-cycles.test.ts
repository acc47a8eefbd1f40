/**
 * Issue 18: no import cycles among the files of gateway/, engine/ and shared/ (type imports
 * count). The tree is checked as it is; planted cycles show that one would fail this suite (and
 * so CI, which runs every test).
 */
import { expect } from 'chai'
import { describeCycle, importCycles, importGraph, staleAllowances, withoutAllowed, type AllowedImport, type ImportGraph } from './import-cycles.js'
import { readTree } from './source-tree.js'

const CHECKED_FOLDERS = ['gateway', 'engine', 'shared']

/**
 * Imports that close a cycle which another branch breaks, outside the files of the branch that
 * wrote this check (i18-deps). Each entry is one import the check ignores. When the cycle is gone
 * the entry is reported stale and must be deleted, so this list only shrinks: empty it, never add
 * to it (cut a new cycle where it forms instead).
 */
const ALLOWED_IMPORTS: readonly AllowedImport[] = [
  {
    from: 'engine/expr/call.ts',
    to: 'engine/expr/pratt.ts',
    why: "the type ExprParser lives in pratt.ts, which calls prefix.ts, which calls call.ts; moving the interface to a file of its own ends it, but engine/expr is not i18-deps's folder",
  },
  {
    from: 'engine/expr/prefix.ts',
    to: 'engine/expr/pratt.ts',
    why: 'the same ExprParser type, imported by prefix.ts (see the entry above)',
  },
]

/** The cycles of planted files, described. */
function plantedCycles(files: Record<string, string>, allowed: readonly AllowedImport[] = []): string[] {
  const graph = withoutAllowed(importGraph(new Map(Object.entries(files))), allowed)
  return importCycles(graph).map((group) => describeCycle(graph, group))
}

describe('import cycles (issue 18)', () => {
  let graph: ImportGraph
  before(() => {
    graph = importGraph(readTree(CHECKED_FOLDERS))
  })

  it('the source tree has no import cycle but the allowed ones', () => {
    const rest = withoutAllowed(graph, ALLOWED_IMPORTS)
    expect(
      importCycles(rest).map((group) => describeCycle(rest, group)),
      'import cycles: cut one import of each',
    ).to.deep.equal([])
  })

  it('every allowed import still closes a cycle (delete the entries this reports)', () => {
    expect(staleAllowances(graph, ALLOWED_IMPORTS).map((a) => `${a.from} -> ${a.to}`)).to.deep.equal([])
  })

  it('the tree is really read: hundreds of files, the gateway importing shared/ and its own files', () => {
    const edges = [...graph.values()].reduce((n, targets) => n + targets.length, 0)
    expect(graph.size).to.be.greaterThan(300)
    expect(edges).to.be.greaterThan(1000)
    expect(graph.get('gateway/http/app.ts')).to.include.members(['gateway/deps.ts', 'gateway/http/errors.ts', 'shared/errors.ts'])
  })

  it('reports two files that import each other, even when both imports are type-only', () => {
    const files = {
      'gateway/a.ts': `import type { B } from './b.js'\nexport interface A { b: B }\n`,
      'gateway/b.ts': `import type { A } from './a.js'\nexport interface B { a: A }\n`,
    }
    expect(plantedCycles(files)).to.deep.equal(['gateway/a.ts -> gateway/b.ts -> gateway/a.ts'])
  })

  it('reports a longer cycle once, through export-from and a type-level import(), naming every file of its group', () => {
    const files = {
      'gateway/deps.ts': `import type { Logger } from './errors.js'\n`,
      'gateway/errors.ts': `export type { AuthState } from './session.js'\n`,
      'gateway/session.ts': `type D = import('./deps.js').Deps\nimport { x } from './observe/index.js'\n`,
      'gateway/observe/index.ts': `import type { Deps } from '../deps.js'\n`,
      'gateway/outside.ts': `import type { Deps } from './deps.js'\n`,
    }
    expect(plantedCycles(files)).to.deep.equal([
      'gateway/deps.ts -> gateway/errors.ts -> gateway/session.ts -> gateway/deps.ts ' +
        '(the group has 4 files: gateway/deps.ts, gateway/errors.ts, gateway/observe/index.ts, gateway/session.ts)',
    ])
  })

  it('reports a cycle through a dynamic import() and a file importing itself', () => {
    const files = {
      'engine/a.ts': `export const load = () => import('./b.js')\n`,
      'engine/b.ts': `import { load } from './a.js'\n`,
      'shared/self.ts': `export * from './self.js'\n`,
    }
    expect(plantedCycles(files)).to.deep.equal(['engine/a.ts -> engine/b.ts -> engine/a.ts', 'shared/self.ts -> shared/self.ts'])
  })

  it('does not count a worker named by URL, packages, files outside the checked set, or imports quoted in comments', () => {
    const files = {
      'gateway/runner.ts': `const WORKER = new URL('../engine/worker.js', import.meta.url)\nimport Koa from 'koa'\nimport { y } from '../client/index.js'\n`,
      'engine/worker.ts': `// import { PoolRunner } from '../gateway/runner.js'\nconst s = "import '../gateway/runner.js'"\n`,
    }
    expect(plantedCycles(files)).to.deep.equal([])
  })

  it('an allowed import removes its cycle, and is stale once the cycle is gone another way', () => {
    const files = {
      'gateway/routes/abort.ts': `import { stoppable } from './stop.js'\n`,
      'gateway/routes/stop.ts': `import { clientGoneSignal } from './abort.js'\n`,
    }
    const allowed: AllowedImport[] = [{ from: 'gateway/routes/stop.ts', to: 'gateway/routes/abort.ts', why: 'planted' }]
    expect(plantedCycles(files, allowed)).to.deep.equal([])
    expect(staleAllowances(importGraph(new Map(Object.entries(files))), allowed)).to.deep.equal([])

    const otherCut = { ...files, 'gateway/routes/abort.ts': `export const clientGoneSignal = 1\n` }
    expect(staleAllowances(importGraph(new Map(Object.entries(otherCut))), allowed)).to.deep.equal(allowed)
    const importGone = { ...files, 'gateway/routes/stop.ts': `export const stoppable = 1\n` }
    expect(staleAllowances(importGraph(new Map(Object.entries(importGone))), allowed)).to.deep.equal(allowed)
  })

  it('finds a cycle through 100 000 files without running out of stack', () => {
    const n = 100_000
    const chain = new Map(Array.from({ length: n }, (_, i) => [`f${String(i).padStart(6, '0')}`, [`f${String((i + 1) % n).padStart(6, '0')}`]]))
    const groups = importCycles(chain)
    expect(groups).to.have.length(1)
    expect(groups[0]).to.have.length(n)
  })
})
