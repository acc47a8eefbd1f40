/**
 * Lists the test files of a product module, by the rule of test/architecture/tests-of.ts (README,
 * "Development"): the tests that import it, and the ones named after it or one of its folders.
 *
 *   node dist/scripts/tests-of.js gateway/query/results/results.ts [more modules…]
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readTree } from '../test/architecture/source-tree.js'
import { importsOfTests, productModules, testsOf } from '../test/architecture/tests-of.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

const modules = process.argv.slice(2)
if (modules.length === 0) {
  console.error('usage: node dist/scripts/tests-of.js <module path, e.g. gateway/dbm/users.ts> …')
  process.exit(2)
}
const tests = importsOfTests(new Map([...readTree(['test'])].filter(([path]) => path.endsWith('.test.ts'))))
let missing = 0
for (const module of modules) {
  if (!existsSync(join(ROOT, module)) || productModules([module]).length === 0) {
    console.error(`${module}: not a product module (a .ts file under engine/, gateway/, shared/, client/ or cli/)`)
    missing++
    continue
  }
  const found = testsOf(module, tests)
  console.log(`${module}: ${found.length === 0 ? 'no test the rule finds (tested only through other modules)' : ''}`)
  for (const test of found) console.log(`  ${test}`)
}
process.exit(missing > 0 ? 1 : 0)
