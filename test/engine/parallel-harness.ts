/**
 * Runs a macro query the ways engine/parallel can: in the interpreter (runOps), as a worker runs
 * it alone (executeRunTask: planned queries with one part), and split into N parts whose tasks (and
 * the merge tasks after them) and answers go through structuredClone as they would between
 * threads. Workers' answers are read back as the gateway reads them (fromWire). Plus a comparison that
 * tells two results apart down to the bits of a float (NaN equal to NaN, -0 apart from 0).
 */
import { expect } from 'chai'
import type { ResultSet, RunTask, TableInput } from '../../shared/protocol.js'
import { parseQuery } from '../../engine/parse/index.js'
import { checkQuery, type CheckedOps } from '../../engine/check/index.js'
import { runOps } from '../../engine/interpret/index.js'
import { toResultSet } from '../../engine/parallel/wire.js'
import { setBlockRowsForTests } from '../../engine/parallel/blocks.js'
import { driveSplitRun, partRanges } from '../../engine/parallel/driver.js'
import { executeRunTask } from '../../engine/task/execute.js'
import { planOf, withPlan } from '../../engine/parallel/plan.js'
import { fromWire } from '../../engine/parallel/wire.js'
import { dataOf } from '../helpers/columns.js'
import { isTextColumn } from '../../shared/result-text.js'

export const MAX_ROWS = 1e9

export function checkedOps(xml: string, tables: readonly TableInput[]): CheckedOps {
  const ops = parseQuery(xml, {})
  return checkQuery(ops, new Map(tables.map((t) => [t.path, t.columns.map((c) => c.spec)]))).ops
}

/** The task as the gateway sends it: with its plan. */
export const taskOf = (ops: CheckedOps, tables: readonly TableInput[], maxRows = MAX_ROWS, truncate = false): RunTask =>
  withPlan({ kind: 'run', ops, tables, maxRows, truncate })

/** The interpreter's answer, as before engine/parallel. */
export function interpreted(ops: CheckedOps, tables: readonly TableInput[]): ResultSet {
  return toResultSet(runOps(ops, new Map(tables.map((t) => [t.path, t]))), MAX_ROWS)
}

/** A worker's answer to the whole query, with summing blocks of `blockRows` rows. */
export function single(task: RunTask, blockRows: number): ResultSet {
  const before = setBlockRowsForTests(blockRows)
  try {
    return fromWire(executeRunTask(task))
  } finally {
    setBlockRowsForTests(before)
  }
}

/** The answer split into `parts` parts (null when the query has no plan), and how many ranges it made. */
export function split(task: RunTask, parts: number, blockRows: number): { result: ResultSet; ranges: number } | null {
  const plan = planOf(task)
  if (plan === null) return null
  const ranges = partRanges(plan, task, parts, blockRows)
  // Each task and each answer is cloned, as it would be between threads.
  const result = driveSplitRun(plan, task, ranges, blockRows, (tasks) => tasks.map((t) => structuredClone(executeRunTask(structuredClone(t)))))
  return { result: fromWire(result), ranges: ranges.length }
}

const bits = (x: number): string => (Number.isNaN(x) ? 'NaN' : Object.is(x, -0) ? '-0' : String(x))

/** Same columns (names, types, labels, formats) and the same values, float bits included. */
export function expectIdentical(actual: ResultSet, expected: ResultSet, what: string): void {
  expect(actual.cols, `${what}: columns`).to.deep.equal(expected.cols)
  expect(actual.rowCount, `${what}: rows`).to.equal(expected.rowCount)
  expect(actual.totalRows, `${what}: totalRows`).to.equal(expected.totalRows)
  expected.columns.forEach((e, c) => {
    const a = actual.columns[c]
    const name = `${what}: column ${expected.cols[c].name}`
    expect(isTextColumn(a) ? 'text' : a.kind, name).to.equal(isTextColumn(e) ? 'text' : e.kind)
    const ad = dataOf(a) as ArrayLike<number | string>
    const ed = dataOf(e) as ArrayLike<number | string>
    expect(ad.length, name).to.equal(ed.length)
    if (e.kind === 'float') {
      for (let i = 0; i < ed.length; i++)
        if (bits(ad[i] as number) !== bits(ed[i] as number)) expect.fail(`${name} row ${i}: ${bits(ad[i] as number)}, expected ${bits(ed[i] as number)}`)
    } else {
      for (let i = 0; i < ed.length; i++) if (ad[i] !== ed[i]) expect.fail(`${name} row ${i}: ${ad[i]}, expected ${ed[i]}`)
    }
  })
}

/** Equal but for the last bits of float sums (the interpreter adds in one run, the planner by blocks). */
export function expectClose(actual: ResultSet, expected: ResultSet, what: string): void {
  expect(actual.cols, `${what}: columns`).to.deep.equal(expected.cols)
  expect(actual.rowCount, `${what}: rows`).to.equal(expected.rowCount)
  expected.columns.forEach((e, c) => {
    const a = actual.columns[c]
    const name = `${what}: column ${expected.cols[c].name}`
    expect(isTextColumn(a) ? 'text' : a.kind, name).to.equal(isTextColumn(e) ? 'text' : e.kind)
    const ad = dataOf(a)
    const ed = dataOf(e)
    for (let i = 0; i < ed.length; i++) {
      const x = ad[i]
      const y = ed[i]
      if (typeof x === 'number' && typeof y === 'number' && e.kind === 'float') {
        if (Number.isNaN(x) !== Number.isNaN(y) || Math.abs(x - y) > 1e-9 * Math.max(1, Math.abs(y))) expect.fail(`${name} row ${i}: ${x}, expected about ${y}`)
      } else if (x !== y) expect.fail(`${name} row ${i}: ${x}, expected ${y}`)
    }
  })
}
