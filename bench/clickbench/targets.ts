/**
 * The benchmark's targets beyond the suite's (bench/suite/): tabula's `api/sql` through HTTP, and
 * a wrapper that makes the answers of forms that name their columns differently comparable.
 */
import type { SuiteDigest, Kind } from '../suite/digest.js'
import { digestRows } from '../suite/digest-rows.js'
import type { SuiteService } from '../suite/http-service.js'
import type { SuiteQuestion } from '../suite/questions/index.js'
import type { SuiteTarget } from '../suite/target.js'
import type { ClickQuestion } from './questions.js'

/** A question as the suite's targets take it (DuckDB runs `sql`, tabula's macro targets `xml`). */
export type BenchClickQuestion = SuiteQuestion & ClickQuestion

/**
 * tabula's `api/sql` through HTTP: the question's SQLite form posted to `api/sql:json`, the answer
 * read and parsed; the engine that answered is read from `X-Tabula-Engine`. JSON does not say
 * whether a number is an int or a float, so the kinds of this target's answer are only number or
 * text.
 */
export class HttpSqlTarget implements SuiteTarget {
  private answer: Record<string, unknown[]> | null = null
  private runs = 0
  /** The engine of the last answer: columnar or sqlite. */
  engine = '?'

  constructor(
    readonly label: string,
    private readonly suite: SuiteService,
  ) {}

  async run(q: SuiteQuestion): Promise<void> {
    // A comment makes each run's text new: the gateway memoises answers by recipe.
    const sql = `${(q as BenchClickQuestion).sqlite} /* run ${++this.runs} */`
    const res = await this.suite.service.http.post('/v1/api/sql:json').set('Cookie', this.suite.cookie).send({ sql })
    if (res.status !== 200) throw new Error(`api/sql answered ${res.status}: ${res.text.slice(0, 300)}`)
    this.engine = String(res.headers['x-tabula-engine'] ?? '?')
    this.answer = JSON.parse(res.text) as Record<string, unknown[]>
  }

  async digest(q: SuiteQuestion): Promise<SuiteDigest> {
    if (!this.answer) throw new Error('no answer')
    // JSON writes text as strings (N/A as "") and numbers as numbers (N/A as null): a column with
    // a string is text, one with a number a number, one with neither (no rows) says no kind.
    const columns = Object.entries(this.answer).map(([name, values]) => ({
      name,
      kind: (values.some((v) => typeof v === 'string') ? 'text' : values.some((v) => typeof v === 'number') ? 'float' : undefined) as Kind,
      values,
    }))
    return digestRows(columns, q.orderKeys)
  }

  async release(): Promise<void> {
    this.answer = null
  }
}

/**
 * A target whose digests name columns by position (`#1`, `#2` …: ClickBench's SQL names them
 * `count_star()`, `COUNT(*)` or `c` depending on the engine, the macro form otherwise), with
 * numeric kinds merged (the macro language's sums are always decimal, SQL's of integers are
 * integers, and JSON does not tell them apart: the values are compared, the types are each
 * language's own), and for
 * a question whose rows are any rows of the right shape (Q18), only the row count, column count
 * and kinds.
 */
export class Positional implements SuiteTarget {
  readonly label: string

  constructor(private readonly inner: SuiteTarget) {
    this.label = inner.label
  }

  before(): Promise<void> {
    return this.inner.before?.() ?? Promise.resolve()
  }

  run(q: SuiteQuestion): Promise<void> {
    return this.inner.run(q)
  }

  async digest(q: SuiteQuestion): Promise<SuiteDigest> {
    const d = await this.inner.digest(q)
    const any = (q as BenchClickQuestion).anyRows === true
    return {
      ...d,
      columns: d.columns.map((c, i) => ({ name: `#${i + 1}`, nonNull: any ? 0 : c.nonNull, sum: any ? 0 : c.sum })),
      kinds: d.kinds.map((k) => (k === 'text' || k === undefined ? k : 'float')),
      ordered: any ? [] : d.ordered,
    }
  }

  release(): Promise<void> {
    return this.inner.release()
  }
}
