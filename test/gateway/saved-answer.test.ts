import { expect } from 'chai'
import type { Context } from 'koa'
import type { Deps } from '../../gateway/deps.js'
import { savedOnlyAnswer } from '../../gateway/routes/saved-answer.js'

describe('gateway/routes/saved-answer.ts: savedOnlyAnswer()', () => {
  it('answers, as JSON, that the table was saved and where to read it, and logs the cause', () => {
    const logged: Record<string, unknown>[] = []
    const deps = { log: (line: Record<string, unknown>) => logged.push(line) } as unknown as Deps
    const ctx = { state: { requestId: 'req-1' } } as unknown as Context
    const answer = savedOnlyAnswer(ctx, deps, { path: 'uploads.big', rows: 12_000_000 }, new RangeError('Invalid string length'))
    expect(answer.type).to.equal('application/json; charset=utf-8')
    const body = JSON.parse(answer.body) as { saved: unknown; message: string }
    expect(body.saved).to.deep.equal({ path: 'uploads.big', rows: 12_000_000 })
    expect(body.message).to.include('"uploads.big"').and.include('12000000 rows').and.include('!data')
    expect(body, 'the answer must not read as a failure').not.to.have.property('error')
    expect(logged).to.have.length(1)
    expect(logged[0]).to.include({ level: 'warn', requestId: 'req-1', table: 'uploads.big', err: 'Invalid string length' })
  })

  it('logs a cause that is not an Error as text', () => {
    const logged: Record<string, unknown>[] = []
    const deps = { log: (line: Record<string, unknown>) => logged.push(line) } as unknown as Deps
    savedOnlyAnswer({ state: {} } as unknown as Context, deps, { path: 'a.b', rows: 1 }, 'out of memory')
    expect(logged[0].err).to.equal('out of memory')
  })
})
