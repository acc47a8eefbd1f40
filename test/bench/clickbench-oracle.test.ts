/**
 * `npm run bench:clickbench` kept honest at a tiny size: the synthetic hits table (bench/clickbench/
 * generate.ts) at 5,000 rows, and a few of ClickBench's queries of each kind (a count, a distinct
 * count of a 64-bit id, a top-10 by a text key with ties broken, a LIKE, the host of a Referer, a
 * filter on CounterID 62 and the dates, a minute of EventTime) run in their macro form as a worker
 * runs them (whole and split in 2 parts) and checked against DuckDB's answer to their DuckDB form,
 * by the suite's digest with columns compared by position, as the benchmark checks them.
 */
import { expect } from 'chai'
import type { ResultSet, RunTask } from '../../shared/protocol.js'
import { withPlan } from '../../engine/parallel/plan.js'
import { loadDuckDb, DuckDb } from '../../bench/duck.js'
import { toTableInput } from '../../bench/data.js'
import { checkAnswers } from '../../bench/suite/check.js'
import { DuckTarget } from '../../bench/suite/duck-target.js'
import type { EnginePool } from '../../bench/suite/run-on-pool.js'
import { TabulaTarget } from '../../bench/suite/tabula-target.js'
import { HITS_PATH, HITS_SPECS, makeHits, QUERY_USER_ID } from '../../bench/clickbench/generate.js'
import { clickQuestions } from '../../bench/clickbench/questions.js'
import { Positional, type BenchClickQuestion } from '../../bench/clickbench/targets.js'
import { MAX_ROWS, single, split } from '../engine/parallel-harness.js'

const ROWS = 5000
const BLOCK = 512
const SOME = ['Q1', 'Q5', 'Q8', 'Q13', 'Q19', 'Q20', 'Q21', 'Q23', 'Q29', 'Q37', 'Q43']

function inProcessPool(parts: number): EnginePool {
  return {
    workers: parts,
    maxRows: MAX_ROWS,
    splitMinRows: 1,
    run: async (task: RunTask): Promise<ResultSet> => {
      const planned = withPlan(task)
      return (parts > 1 ? split(planned, parts, BLOCK)?.result : undefined) ?? single(planned, BLOCK)
    },
    close: async () => undefined,
  }
}

describe('bench:clickbench: the synthetic hits table and ClickBench queries against DuckDB', function () {
  this.timeout(60_000)
  let db: DuckDb
  let duck: Positional
  let tabula: Positional[]
  const hits = makeHits(ROWS)

  before(async () => {
    const loaded = await loadDuckDb()
    if (!('api' in loaded)) throw new Error(`DuckDB is needed as the oracle: ${loaded.error}`)
    db = await DuckDb.open(loaded.api)
    await db.load(hits)
    duck = new Positional(new DuckTarget(db, 1, 'DuckDB'))
    const tables = new Map([[HITS_PATH, toTableInput(hits)]])
    tabula = [1, 2].map((parts) => new Positional(new TabulaTarget(parts === 1 ? 'tabula whole' : 'tabula in 2 parts', inProcessPool(parts), tables)))
  })

  after(() => db?.close())

  it("has ClickBench's 105 columns, the same at every run, with the values its queries look for", () => {
    expect(HITS_SPECS).to.have.length(105)
    const again = makeHits(ROWS)
    hits.data.forEach((d, i) => expect(again.data[i], hits.columns[i].name).to.deep.equal(d))
    const col = (name: string) => hits.data[hits.columns.findIndex((c) => c.name === name)]
    expect([...(col('UserID') as BigInt64Array)]).to.include(QUERY_USER_ID)
    expect([...(col('CounterID') as Int32Array)].filter((c) => c === 62).length).to.be.above(ROWS * 0.05)
    const phrases = col('SearchPhrase') as { codes: Int32Array }
    expect(phrases.codes.filter((c) => c === 0).length / ROWS).to.be.within(0.8, 0.95)
  })

  for (const q of clickQuestions(ROWS).filter((x) => SOME.includes(x.name))) {
    it(`${q.name}: ${q.title}`, async () => {
      const check = await checkAnswers({ ...q, family: 'clickbench' } as BenchClickQuestion, duck, tabula)
      expect(check.kind, check.kind === 'agree' ? '' : check.lines.join('\n')).to.equal('agree')
    })
  }
})
