/**
 * SQLite's sqllogictest corpus (vendored in test/slt/corpus/) against api/sql: every script's
 * first QUERIES_PER_SCRIPT queries, on an in-process gateway. Fails on a wrong answer, a 5xx, or a
 * refusal that is not a documented limit (test/slt/limits.ts). The whole corpus: `npm run slt`.
 */
import { expect } from 'chai'
import { corpusScripts, readScript, startSltService, type SltService } from './corpus.js'
import { runScript } from './runner.js'
import { countsOf, describeFailure, failuresOf } from './summary.js'

const CORPUS_SCRIPTS = await corpusScripts()

/** Scripts about what the runner cannot express: every query of theirs reads a table UPDATE changed. */
const SCRIPTS_ALL_SKIPPED = new Set(['evidence/slt_lang_update.test'])

/** Fixed, so the run is the same every time; chosen to keep the suite near a minute on 2 cores. */
const QUERIES_PER_SCRIPT = 150

describe(`sqllogictest: the first ${QUERIES_PER_SCRIPT} queries of every vendored script`, function () {
  this.timeout(120_000)
  let service: SltService
  before(async function () {
    this.timeout(90_000)
    service = await startSltService()
  })
  after(async () => {
    await service?.close()
  })

  it('has the vendored corpus', () => {
    expect(CORPUS_SCRIPTS.length).to.be.at.least(29)
  })

  for (const name of CORPUS_SCRIPTS) {
    it(`answers ${name} as SQLite does`, async () => {
      const report = await runScript(service.gateway, name, await readScript(name), { folder: await service.newFolder(), maxQueries: QUERIES_PER_SCRIPT })
      const failures = failuresOf(report)
      expect(failures.map((f) => describeFailure(name, f)).join('\n')).to.equal('')
      const counts = countsOf(report.queries)
      // A runner that skipped everything would pass without testing anything.
      if (counts.queries > 0 && !SCRIPTS_ALL_SKIPPED.has(name)) expect(counts.passed, JSON.stringify(counts)).to.be.greaterThan(0)
    })
  }
})
