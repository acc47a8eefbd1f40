/**
 * `npm run bench:bigint`: big-integer (`j`) keys against int (`i`) keys in the kernels a query
 * spends its time in with ids (grouping, linking, sorting, comparing with a constant), on the
 * same ids: 10M rows (ROWS) of 1M distinct values, spread over a 32-bit range as `i` and past
 * 2^53 as `j`. The target (issue 38) is `j` within 1.5x of `i` for grouping and linking; the `i`
 * figure is the reference, measured in the same run. Each figure is the median of five runs
 * after one untimed warm-up.
 */
import { performance } from 'node:perf_hooks'
import { firstIndexLookup, groupBy, sortPermutation, type BigIntColumn, type IntColumn } from '../engine/columns/index.js'
import { compare } from '../engine/functions/compare.js'

const ROWS = Number(process.env.ROWS ?? 10_000_000)
const DISTINCT = Math.min(1_000_000, ROWS)
/** Big-integer ids: value v as v·STEP + OFFSET, all past 2^53 and none a double can hold. */
const STEP = 9007199254741n
const OFFSET = 2n ** 53n + 1n

function ids(): { i: IntColumn; j: BigIntColumn; dimI: IntColumn; dimJ: BigIntColumn } {
  const i = new Int32Array(ROWS)
  const j = new BigInt64Array(ROWS)
  let s = 12345
  for (let r = 0; r < ROWS; r++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0
    const v = s % DISTINCT
    // Spread over the 32-bit range, so the int path hashes as the big-integer one must.
    i[r] = Math.imul(v, 2654435761) | 0 || 1
    j[r] = BigInt(v) * STEP + OFFSET
  }
  const dimI = Int32Array.from({ length: DISTINCT }, (_, v) => Math.imul(v, 2654435761) | 0 || 1)
  const dimJ = BigInt64Array.from({ length: DISTINCT }, (_, v) => BigInt(v) * STEP + OFFSET)
  return { i: { type: 'int', data: i }, j: { type: 'bigint', data: j }, dimI: { type: 'int', data: dimI }, dimJ: { type: 'bigint', data: dimJ } }
}

function median(f: () => unknown): number {
  f()
  const times: number[] = []
  for (let k = 0; k < 5; k++) {
    const t0 = performance.now()
    f()
    times.push(performance.now() - t0)
  }
  return times.sort((a, b) => a - b)[2]
}

const { i, j, dimI, dimJ } = ids()
const probeI = { kind: 'scalar', type: 'int', value: dimI.data[7] } as const
const probeJ = { kind: 'scalar', type: 'bigint', value: dimJ.data[7] } as const
const cases: [string, () => unknown, () => unknown][] = [
  ['group by the id', () => groupBy([i], ROWS), () => groupBy([j], ROWS)],
  ['link 10M rows to 1M ids', () => firstIndexLookup([dimI], DISTINCT, [i], ROWS), () => firstIndexLookup([dimJ], DISTINCT, [j], ROWS)],
  ['sort by the id', () => sortPermutation([{ col: i, desc: false }], ROWS), () => sortPermutation([{ col: j, desc: false }], ROWS)],
  ['id = constant', () => compare('=', i, probeI, ROWS), () => compare('=', j, probeJ, ROWS)],
]
console.log(`bench:bigint, ${ROWS.toLocaleString('en')} rows, ${DISTINCT.toLocaleString('en')} distinct ids (${new Date().toISOString()})`)
console.log('kernel'.padEnd(26), 'i ms'.padStart(8), 'j ms'.padStart(8), 'j / i'.padStart(7))
for (const [name, onI, onJ] of cases) {
  const ti = median(onI)
  const tj = median(onJ)
  console.log(name.padEnd(26), ti.toFixed(0).padStart(8), tj.toFixed(0).padStart(8), (tj / ti).toFixed(2).padStart(7))
}
