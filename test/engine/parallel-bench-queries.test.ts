/**
 * Every benchmark query (bench/queries.ts) over the benchmark tables at 200,000 rows, split into
 * 1, 2, 3 and 7 parts with small summing blocks: the answers are identical to a worker's run of
 * the whole query, float bits included, and agree with the interpreter (float sums to rounding).
 */
import { expect } from 'chai'
import type { ResultSet } from '../../shared/protocol.js'
import { makeBenchData, toTableInput } from '../../bench/data.js'
import { QUERIES } from '../../bench/queries.js'
import { planParallel } from '../../engine/parallel/plan.js'
import { checkedOps, expectClose, expectIdentical, interpreted, single, split, taskOf } from './parallel-harness.js'

const BLOCK = 4096
const data = makeBenchData(200_000)
const tables = [toTableInput(data.item), toTableInput(data.products), toTableInput(data.stores)]

describe('parallel scans: the benchmark queries', function () {
  this.timeout(120_000)
  for (const q of QUERIES) {
    it(`${q.name}: ${q.title}`, () => {
      const ops = checkedOps(q.xml, tables)
      const task = taskOf(ops, tables)
      const alone: ResultSet = single(task, BLOCK)
      expectClose(alone, interpreted(ops, tables), `${q.name} against the interpreter`)
      if (q.name === 'sort') {
        expect(planParallel(ops)).to.equal(null)
        return
      }
      for (const parts of [1, 2, 3, 7]) {
        const got = split(task, parts, BLOCK)
        expect(got, `${q.name} has a plan`).to.not.equal(null)
        expect(got!.ranges).to.equal(parts)
        expectIdentical(got!.result, alone, `${q.name} in ${parts} parts`)
      }
    })
  }
})
