/**
 * engine/task/outcome.ts: a task that cannot answer exactly the way it ran answers a fallback, a
 * typed value of the worker's outcome (not an INTERNAL error with a marker in its detail), which
 * the gateway follows (gateway/query/fallbacks.ts).
 */
import { expect } from 'chai'
import { Piscina } from 'piscina'
import handleTask from '../../engine/worker.js'
import { checkMacro, parseMacro } from '../../engine/index.js'
import { compileSql } from '../../engine/sql/compile/index.js'
import { FallbackError, fallbackOf, sqlDeclined, splitDeclined, type TaskOutcome } from '../../engine/task/outcome.js'
import type { RunTask } from '../../shared/protocol.js'
import { makeTable } from '../helpers/engine.js'
import { taskOf } from './parallel-harness.js'

/** The worker's answer to a task, called here, in the test thread. */
function outcomeOf(task: RunTask): TaskOutcome {
  const moved = handleTask(task) as Record<symbol, unknown>
  return (moved[Piscina.valueSymbol] ?? moved) as TaskOutcome
}

describe('a task’s fallbacks', () => {
  const ints = makeTable('t.ints', [{ name: 'a', type: 'int', values: [2000000000, 1] }])

  it('answers an int overflow of + as a widen fallback naming the operator, with the overflow it stands for', () => {
    const { ops } = parseMacro('<base table="t.ints"/><willbe name="x" value="a+a"/>', {})
    const outcome = outcomeOf(taskOf(checkMacro(ops, new Map([['t.ints', ints.columns.map((c) => c.spec)]])), [ints]))
    expect(outcome.ok).to.equal(false)
    if (outcome.ok || !('fallback' in outcome)) throw new Error(`expected a fallback, got ${JSON.stringify(outcome)}`)
    if (outcome.fallback.kind !== 'widen') throw new Error(`expected widen, got ${outcome.fallback.kind}`)
    expect(outcome.fallback.operator).to.match(/:\+$/)
    expect(outcome.fallback.overflow.code).to.equal('CHECK_ERROR')
    expect(outcome.fallback.overflow.message).to.match(/^Integer overflow: 2000000000 \+ 2000000000 is 4000000000/)
  })

  it('answers compiled SQL over data it cannot answer exactly as SQLite as a sqlite fallback', async () => {
    const c = await compileSql('select a * a * a as cube from t.ints', [{ path: 't.ints', alias: 't0', columns: ints.columns.map((col) => col.spec) }])
    if (!('compiled' in c)) throw new Error(`not compiled: ${JSON.stringify(c)}`)
    const outcome = outcomeOf(taskOf(c.compiled.ops, [ints]))
    expect(outcome).to.deep.equal({ ok: false, fallback: { kind: 'sqlite', why: 'an integer result beyond 2^53' } })
  })

  it('is one error class while it is thrown, read back by fallbackOf; an error is not a fallback', () => {
    expect(fallbackOf(sqlDeclined('x'))).to.deep.equal({ kind: 'sqlite', why: 'x' })
    expect(fallbackOf(splitDeclined('y'))).to.deep.equal({ kind: 'whole', why: 'y' })
    expect(splitDeclined('y')).to.be.instanceOf(FallbackError).and.to.have.property('message', 'Not run in parallel: y.')
    expect(fallbackOf(new Error('x'))).to.equal(null)
    expect(fallbackOf({ fallback: { kind: 'sqlite', why: 'x' } })).to.equal(null)
  })
})
