/**
 * Where a module's tests are (issue 37: a module's tests are findable from the module). The rule,
 * stated in README.md ("Development"), is a pure function of the tree so that the layout test and
 * `node dist/scripts/tests-of.js <module>` say the same thing:
 *
 * A test file (`test/**\/*.test.ts`) tests a product module when
 * 1. it imports the module, or
 * 2. its name begins with the module's name or with the name of a folder the module is in, below
 *    its top folder, followed by `-` or `.test` (`gateway/query/running/registry.ts`: `registry*`,
 *    `running*`, `query*`, in any folder of test/), or
 * 3. it lies in a folder of test/ named after such a folder (`gateway/security/` → `test/security/`).
 */
import { findReferences, resolveSpecifier } from './import-graph.js'

/** The product folders whose modules the rule covers. */
export const PRODUCT_FOLDERS = ['engine', 'gateway', 'shared', 'client', 'cli'] as const

/** Browser code: tested as pages by test/browser/, not module by module. */
const NOT_MODULES = ['gateway/ui/client/']

/** The product modules among `paths` (repository paths): sources, not declarations or browser code. */
export const productModules = (paths: Iterable<string>): string[] =>
  [...paths]
    .filter((p) => /\.c?ts$/.test(p) && !p.endsWith('.d.ts') && !NOT_MODULES.some((n) => p.startsWith(n)))
    .filter((p) => PRODUCT_FOLDERS.some((f) => p.startsWith(`${f}/`)))
    .sort()

/** The names a test file of `module` may begin with: its own, then its folders' below the top. */
export function namesOf(module: string): string[] {
  const parts = module.replace(/\.c?ts$/, '').split('/')
  return parts.slice(1).reverse()
}

const fileName = (path: string): string => path.slice(path.lastIndexOf('/') + 1)

const namedAfter = (testFile: string, name: string): boolean => {
  const file = fileName(testFile)
  return file.startsWith(`${name}-`) || file.startsWith(`${name}.test.`)
}

/** Each test file (repository path → source) with the repository paths it imports: parsed once, asked many times. */
export type TestImports = ReadonlyMap<string, ReadonlySet<string>>

export function importsOfTests(tests: ReadonlyMap<string, string>): TestImports {
  const out = new Map<string, Set<string>>()
  for (const [test, source] of tests) out.set(test, new Set(findReferences(test, source).map((r) => resolveSpecifier(test, r.specifier) ?? '')))
  return out
}

/** The test files that test `module` by the rule, sorted. */
export function testsOf(module: string, tests: TestImports): string[] {
  const names = namesOf(module)
  const folders = names.slice(1)
  const top = module.slice(0, module.indexOf('/'))
  return [...tests.keys()]
    .filter(
      (test) =>
        names.some((name) => namedAfter(test, name)) ||
        folders.some((folder) => test.startsWith(`test/${folder}/`)) ||
        (test.startsWith(`test/${top}/`) && namedAfter(test, top)) ||
        tests.get(test)!.has(module),
    )
    .sort()
}
