/**
 * Issue 37: a module's tests are findable from the module, by the rule of tests-of.ts (stated in
 * README.md, "Development"; `node dist/scripts/tests-of.js <module>` applies it). Every product
 * module follows it, and a new module must follow it from the start. NOT_FINDABLE_YET, the list of
 * exceptions, is empty; an entry put there must still exist and still lack a test, or it fails.
 */
import { expect } from 'chai'
import { importsOfTests, PRODUCT_FOLDERS, productModules, testsOf, type TestImports } from './tests-of.js'
import { readTree } from './source-tree.js'

const NOT_FINDABLE_YET: readonly string[] = []

describe('test layout: every module has tests the rule finds (issue 37)', () => {
  let modules: string[]
  let tests: TestImports
  before(function () {
    this.timeout(60_000)
    modules = productModules(readTree([...PRODUCT_FOLDERS]).keys())
    tests = importsOfTests(new Map([...readTree(['test'])].filter(([path]) => path.endsWith('.test.ts'))))
  })

  it('finds tests for every product module not listed as not findable yet', () => {
    const missing = modules.filter((m) => !NOT_FINDABLE_YET.includes(m) && testsOf(m, tests).length === 0)
    expect(missing, 'modules without a test the rule finds: name a test file after the module or its folder, or import it').to.deep.equal([])
  })

  it('lists as not findable only modules that exist and still have no test the rule finds', () => {
    const stale = NOT_FINDABLE_YET.filter((m) => !modules.includes(m) || testsOf(m, tests).length > 0)
    expect(stale, 'take these off NOT_FINDABLE_YET').to.deep.equal([])
  })

  it('reads the tree: hundreds of modules, and a module found by each part of the rule', () => {
    expect(modules.length).to.be.above(400)
    expect(testsOf('gateway/query/results/store/codec.ts', tests), 'by import').to.include('test/gateway/results-codec.test.ts')
    expect(testsOf('gateway/dbm/users.ts', tests), 'by folder name').to.include('test/gateway/dbm-users.test.ts')
    expect(testsOf('gateway/security/cors.ts', tests), 'by test folder').to.include('test/security/csrf-http.test.ts')
    expect(testsOf('cli/args.ts', tests), 'as a whole').to.include('test/cli/cli-query.test.ts')
  })

  it('takes a file named after the top folder as a test of the whole only in its own test folder', () => {
    const planted = importsOfTests(
      new Map([
        ['test/cli/cli-run.test.ts', ''],
        ['test/engine/cli-words.test.ts', ''],
        ['test/engine/shared-dictionary.test.ts', ''],
      ]),
    )
    expect(testsOf('cli/args.ts', planted)).to.deep.equal(['test/cli/cli-run.test.ts'])
    expect(testsOf('shared/turns.ts', planted)).to.deep.equal([])
  })

  it('does not take a longer name for the module name: "store" is not "stores"', () => {
    const planted = importsOfTests(
      new Map([
        ['test/x/stores.test.ts', ''],
        ['test/x/store-keys.test.ts', ''],
        ['test/x/other.test.ts', "import '../../shared/store/index.js'"],
      ]),
    )
    expect(testsOf('shared/store/index.ts', planted)).to.deep.equal(['test/x/other.test.ts', 'test/x/store-keys.test.ts'])
  })
})
