/**
 * The interpreter takes only what the checker produced (engine/check/checked.ts). The guarantee
 * is the compiler's: `uncheckedOperationsDoNotCompile` below is never called, but `npm run build`
 * fails when any `@ts-expect-error` in it stops being an error, that is when parsed operations
 * could reach the interpreter, a run task or the parallel planner without the checker. The tests
 * check the other half: the mark costs nothing at run time, and a task stays plain data.
 */
import { expect } from 'chai'
import type { Op } from '../../engine/ast.js'
import { checkQuery } from '../../engine/check/index.js'
import { runOps, step, type Tables } from '../../engine/interpret/run.js'
import { Worksheet } from '../../engine/interpret/worksheet.js'
import { executeRunTask } from '../../engine/task/execute.js'
import { planParallel } from '../../engine/parallel/plan.js'
import { fromWire } from '../../engine/parallel/wire.js'
import { parseQuery } from '../../engine/parse/index.js'
import { CompiledQueries } from '../../gateway/cache/compiled-queries.js'
import type { RunTask } from '../../shared/protocol.js'
import { columnsOf, makeTable } from '../helpers/engine.js'

/** Never called: each line below must not compile. */
export async function uncheckedOperationsDoNotCompile(parsed: readonly Op[], tables: Tables, task: RunTask): Promise<void> {
  // @ts-expect-error parsed operations are not checked ones
  runOps(parsed, tables)
  // @ts-expect-error nor is one of them
  step(parsed[0], new Worksheet(0, []), tables)
  // @ts-expect-error a run task carries checked operations only
  executeRunTask({ ...task, ops: parsed })
  // @ts-expect-error the gateway's parsed query is not its checked one
  const sent: RunTask = { kind: 'run', ops: (await new CompiledQueries().parseRun('<base table="t.x"/>', {})).ops, tables: [], maxRows: 1 }
  // @ts-expect-error the parallel planner plans checked queries only
  planParallel(parsed)
  void sent
}

const T = makeTable('t.x', [
  { name: 'g', type: 'text', values: ['p', 'q', 'p', ''] },
  { name: 'v', type: 'int', values: [1, 2, 3, null] },
])
const XML =
  '<base table="t.x"/><willbe name="w" value="g_sum(g;;v)"/><link table2="t.x" col="g" col2="g" cols="v" suffix="2"><sel value="v>1"/></link><sort col="g"/>'

describe('CheckedOps', () => {
  const parsed = parseQuery(XML, {})
  const checked = checkQuery(parsed, new Map([[T.path, T.columns.map((c) => c.spec)]])).ops

  it('is the checked operations as plain data, nested pipelines included', () => {
    expect(structuredClone(checked)).to.deep.equal(checked)
    const link = checked.find((op) => op.kind === 'Link')
    expect(link?.ops).to.have.length(1)
  })

  it('runs the same after a structured clone, as on a worker', () => {
    const task: RunTask = { kind: 'run', ops: checked, tables: [T], maxRows: 100 }
    const here = columnsOf(fromWire(executeRunTask(task)))
    const there = columnsOf(fromWire(executeRunTask(structuredClone(task))))
    expect(there).to.deep.equal(here)
    expect(here).to.deep.equal({ g: ['', 'p', 'p', 'q'], v: [null, 1, 3, 2], w: [0, 4, 4, 2], v2: [null, 3, 3, 2] })
  })
})
