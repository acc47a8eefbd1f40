/**
 * tabula through HTTP: the question's XML posted to `api/run:json` on a SuiteService, the whole
 * answer read and parsed as a client would, each run a query the gateway has not answered before. The digest (untimed) reads the column types from
 * `api/run/!cols:json`, since JSON writes a whole float as it writes an int.
 */
import { digestRows } from './digest-rows.js'
import type { SuiteDigest, Kind } from './digest.js'
import type { SuiteService } from './http-service.js'
import type { SuiteQuestion } from './questions/index.js'
import type { SuiteTarget } from './target.js'

const KIND: Record<string, Kind> = { i: 'int', j: 'int', f: 'float', a: 'text' }

export class HttpTarget implements SuiteTarget {
  private answer: Record<string, unknown[]> | null = null
  private runs = 0

  constructor(
    readonly label: string,
    private readonly suite: SuiteService,
  ) {}

  private post(path: string, body?: object) {
    const req = this.suite.service.http.post(path).set('Cookie', this.suite.cookie)
    return body === undefined ? req : req.send(body)
  }

  async run(q: SuiteQuestion): Promise<void> {
    // A comment makes each run's recipe new: the gateway memoises answers by recipe, and a question
    // answered from the memo would time the memo, not the engine.
    const res = await this.post('/v1/api/run:json', { xml: `${q.xml}<!-- run ${++this.runs} -->` })
    if (res.status !== 200) throw new Error(`api/run answered ${res.status}: ${res.text.slice(0, 300)}`)
    this.answer = JSON.parse(res.text) as Record<string, unknown[]>
  }

  async digest(q: SuiteQuestion): Promise<SuiteDigest> {
    if (!this.answer) throw new Error('no answer')
    const res = await this.post('/v1/api/run/!cols:json')
    if (res.status !== 200) throw new Error(`!cols answered ${res.status}: ${res.text.slice(0, 300)}`)
    const meta = res.body as { name: string[]; type: string[] }
    const columns = meta.name.map((name, i) => ({ name, kind: KIND[meta.type[i]], values: this.answer![name] ?? [] }))
    return digestRows(columns, q.orderKeys)
  }

  async release(): Promise<void> {
    this.answer = null
  }
}
