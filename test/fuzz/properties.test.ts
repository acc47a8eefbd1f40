/**
 * Property-based fuzzing of every parser that reads client text (targets.ts): the macro-query
 * parser and checker, the expression parser, the SQL guard and table-path rewriting, the API path
 * parser and the cookie parser. Each property tries a fixed number of seeded cases and proves that
 * every one returns or fails with a 4xx AppError, quickly — never a 500, never a hang. The
 * positive controls (valid-inputs.ts) feed valid inputs only, and every one must be accepted.
 */
import { expect } from 'chai'
import { FUZZ_TARGETS, runFuzzTarget } from './targets.js'

describe('fuzzing the parsers of client input', function () {
  // Each property takes a few seconds; the bound is for a busy machine.
  this.timeout(60_000)

  for (const t of FUZZ_TARGETS) {
    it(`${t.name}: ${t.numRuns} cases ${t.mustAccept ? 'all return' : 'return or give a 4xx'}, in time`, () => {
      const report = runFuzzTarget(t)
      expect(report.failed, report.message).to.equal(false)
      expect(report.casesTried).to.equal(t.numRuns)
    })
  }
})
