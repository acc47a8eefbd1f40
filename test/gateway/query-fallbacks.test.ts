/**
 * gateway/query/fallbacks.ts: the one place a query follows its tasks' fallbacks. Each runner
 * names what it can do instead; a fallback it has no way for goes on up unchanged, so a split
 * part's `widen` reaches the macro query around it. And the fallback's way there: a worker's
 * `{ ok: false, fallback }` raised again by the PoolRunner, a split part's `whole` run whole.
 */
import { expect } from 'chai'
import { checkMacro, FallbackError, fallbackOf, parseMacro, type Fallback } from '../../engine/index.js'
import { PoolRunner, type QueryRunner } from '../../gateway/pool/runner.js'
import { followFallbacks, goesOnWhole } from '../../gateway/query/fallbacks.js'
import { runOnPool } from '../../gateway/query/pool.js'
import { loadConfig } from '../../shared/config.js'
import { AppError } from '../../shared/errors.js'
import type { EngineTask, ResultSet, RunTask } from '../../shared/protocol.js'
import { makeTable } from '../helpers/engine.js'

const failing = (f: Fallback) => (): Promise<string> => Promise.reject(new FallbackError(f))
const overflow = {
  code: 'CHECK_ERROR' as const,
  message: 'Integer overflow: 2000000000 + 2000000000 is 4000000000, past the 32-bit integer range.',
  detail: {},
}
const rejection = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e,
  )

describe('followFallbacks', () => {
  it('answers the run’s result, and passes an error through as it is', async () => {
    expect(await followFallbacks(() => Promise.resolve('r'), { sqlite: () => Promise.resolve('s') })).to.equal('r')
    const err = new AppError('CHECK_ERROR', 'bad')
    expect(await rejection(followFallbacks(() => Promise.reject(err), { sqlite: () => Promise.resolve('s') }))).to.equal(err)
  })

  it('follows whole and sqlite to the ways the runner names', async () => {
    expect(await followFallbacks(failing({ kind: 'whole', why: 'text extremes' }), { whole: (why) => Promise.resolve(`whole: ${why}`) })).to.equal(
      'whole: text extremes',
    )
    expect(await followFallbacks(failing({ kind: 'sqlite', why: 'beyond 2^53' }), { sqlite: () => Promise.resolve('on sql.js') })).to.equal('on sql.js')
  })

  it('widens the operator and runs again, and answers the overflow once it was wide already', async () => {
    const widened: string[] = []
    let runs = 0
    const run = () => (++runs === 1 ? Promise.reject(new FallbackError({ kind: 'widen', operator: '1:5:+', overflow })) : Promise.resolve(`run ${runs}`))
    const widen = (operator: string) => {
      widened.push(operator)
      return Promise.resolve(true)
    }
    expect(await followFallbacks(run, { widen })).to.equal('run 2')
    expect(widened).to.deep.equal(['1:5:+'])

    const err = await rejection(followFallbacks(failing({ kind: 'widen', operator: '1:5:+', overflow }), { widen: () => Promise.resolve(false) }))
    expect(err).to.be.instanceOf(AppError).and.to.include({ code: 'CHECK_ERROR', message: overflow.message })
  })

  it('sends a fallback it has no way for on up unchanged, to the runner around it', async () => {
    const thrown = new FallbackError({ kind: 'widen', operator: '1:5:*', overflow })
    const inner = () => followFallbacks<string | null>(() => Promise.reject(thrown), { whole: () => Promise.resolve(null) })
    expect(await rejection(inner())).to.equal(thrown)
    let widened = false
    const outer = await followFallbacks(() => (widened ? Promise.resolve('wide') : inner()), {
      widen: () => {
        widened = true
        return Promise.resolve(true)
      },
    })
    expect(outer).to.equal('wide')
  })

  it('lets a split run go on whole under its signal only for a whole fallback', () => {
    expect(goesOnWhole(new FallbackError({ kind: 'whole', why: 'x' }))).to.equal(true)
    expect(goesOnWhole(new FallbackError({ kind: 'sqlite', why: 'x' }))).to.equal(false)
    expect(goesOnWhole(new AppError('INTERNAL', 'x'))).to.equal(false)
  })
})

describe('fallbacks on their way to followFallbacks', function () {
  this.timeout(60_000)
  const rows = 4000
  const t = makeTable('t.n', [{ name: 'a', type: 'int', values: Array.from({ length: rows }, (_, i) => (i === 0 ? 2000000000 : i)) }])
  const taskOf = (xml: string): RunTask => {
    const { ops } = parseMacro(`<base table="t.n"/>${xml}`, {})
    return { kind: 'run', ops: checkMacro(ops, new Map([['t.n', t.columns.map((c) => c.spec)]])), tables: [t], maxRows: 1e9 }
  }

  it('crosses from a worker as a value and comes out of the PoolRunner as the one FallbackError', async () => {
    const pool = new PoolRunner({ workers: 1 })
    try {
      const err = await rejection(pool.run(taskOf('<willbe name="x" value="a+a"/>')))
      expect(err).to.be.instanceOf(FallbackError)
      const fallback = fallbackOf(err)
      expect(fallback?.kind).to.equal('widen')
      if (fallback?.kind === 'widen') expect(fallback.overflow).to.include({ code: 'CHECK_ERROR' })
    } finally {
      await pool.close()
    }
  })

  it('runs a split run whole, under the same signal, when its parts answer whole', async () => {
    const answer: ResultSet = { cols: [{ name: 'a', type: 'i' }], columns: [{ kind: 'int', data: new Int32Array([7]) }], rowCount: 1 } as unknown as ResultSet
    const runs: { part: boolean; signal: AbortSignal | undefined }[] = []
    const runner: QueryRunner = {
      run: (task: EngineTask, opts) => {
        const part = task.kind === 'run' && task.part !== undefined
        runs.push({ part, signal: opts?.signal })
        return part ? Promise.reject(new FallbackError({ kind: 'whole', why: 'text extremes' })) : Promise.resolve(answer)
      },
      pending: 0,
      close: () => Promise.resolve(),
    }
    const deps = { config: loadConfig({ WORKERS: '2', PARALLEL_MIN_ROWS: '1000' }), runner }
    const result = await runOnPool(deps, taskOf('<sel value="a>1"/>'), {})
    expect(result.rowCount).to.equal(1)
    expect(runs.filter((r) => r.part).length, 'parts').to.equal(2)
    expect(runs.filter((r) => !r.part).length, 'whole runs').to.equal(1)
    // A declined split does not stop the query: every task ran under its one signal, never aborted.
    expect(new Set(runs.map((r) => r.signal)).size).to.equal(1)
    expect(runs[0].signal?.aborted).to.equal(false)
  })
})
