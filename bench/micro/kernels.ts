/**
 * Micro-benchmark of the hot kernels on 10M rows (not a test):
 *
 *   node dist/bench/micro/kernels.js [rows]
 *
 * Prints the best and median time of several runs per kernel, after a warm-up run, so the
 * figures show optimised code. Also times a plain comparator sort against the radix sort on
 * 1M rows, the comparison that decided how sortPermutation works. The first lines calibrate
 * the machine: a copy into an existing array, and the same into a fresh one (the difference
 * is the cost of first-touching new memory, which every kernel's output pays).
 */
import { FUNCTIONS } from '../../engine/functions/registry.js'
import type { KernelArg } from '../../engine/functions/types.js'
import { firstIndexLookup } from '../../engine/columns/lookup.js'
import { groupBy } from '../../engine/columns/group-by.js'
import { randomFloatColumn, randomIntColumn, Rng } from '../../engine/columns/random.js'
import { sortPermutation } from '../../engine/columns/sort.js'
import type { Column, IntColumn } from '../../engine/columns/types.js'

const ROWS = Number(process.argv[2] ?? 10_000_000)
const RUNS = 5

function time(label: string, run: () => unknown, rows = ROWS): void {
  run() // warm-up: lets V8 optimise before measuring
  const ms: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now()
    run()
    ms.push(performance.now() - t0)
  }
  ms.sort((a, b) => a - b)
  const best = ms[0]
  const median = ms[RUNS >> 1]
  console.log(
    `${label.padEnd(52)} best ${best.toFixed(1).padStart(7)} ms  median ${median.toFixed(1).padStart(7)} ms  (${((best * 1e6) / rows).toFixed(2)} ns/row)`,
  )
}

const value = (v: KernelArg extends infer K ? (K extends { kind: 'value'; value: infer V } ? V : never) : never): KernelArg => ({ kind: 'value', value: v })
const num = (n: number, type: 'int' | 'float' = 'int'): KernelArg => value({ kind: 'scalar', type, value: n })

/** The simple alternative to the radix sort: a stable comparator sort of row numbers. */
function comparatorSort(keys: readonly IntColumn[], rows: number): Int32Array {
  const perm = Int32Array.from({ length: rows }, (_, i) => i)
  return perm.sort((a, b) => {
    for (const k of keys) {
      const d = k.data[a] - k.data[b] // NA_INT is the smallest Int32, so it sorts first as wanted
      if (d !== 0) return d
    }
    return a - b
  })
}

function main(): void {
  const rng = new Rng(42)
  console.log(`Generating ${ROWS.toLocaleString('en-US')} rows…`)
  const ints = randomIntColumn(rng, ROWS, 0, 1_000_000, { na: 0.05 })
  const keys1k = randomIntColumn(rng, ROWS, 0, 999)
  const keys100k = randomIntColumn(rng, ROWS, 0, 99_999)
  const spread100k: IntColumn = { type: 'int', data: keys100k.data.map((k) => Math.imul(k, 2654435761) | 0) }
  const fa = randomFloatColumn(rng, ROWS, 0, 1000, { na: 0.05 })
  const fb = randomFloatColumn(rng, ROWS, 0, 1000)
  const ctx = { rows: ROWS }
  const scratch = new Int32Array(ROWS)
  time('calibration: copy 10M Int32 into an existing array', () => scratch.set(ints.data))
  time('calibration: copy 10M Int32 into a new array', () => new Int32Array(ints.data))

  time('filter compare: int col > 500000', () => FUNCTIONS['>'].kernel([value(ints), num(500_000)], ctx))
  time('float arithmetic: float col * float col', () => FUNCTIONS['*'].kernel([value(fa), value(fb)], ctx))
  time('float arithmetic: float col + 1.5', () => FUNCTIONS['+'].kernel([value(fa), num(1.5, 'float')], ctx))
  time('groupBy: 1,000-key int column', () => groupBy([keys1k], ROWS))
  time('groupBy: 100,000-key int column (dense range)', () => groupBy([keys100k], ROWS))
  time('groupBy: 100,000 keys spread over Int32 (hash)', () => groupBy([spread100k], ROWS))
  const keys100 = randomIntColumn(rng, ROWS, 0, 99)
  time('groupBy: two int columns (1,000 x 100 keys)', () => groupBy([keys1k, keys100], ROWS))
  time('groupBy: two int columns (1,000 x 100,000: ~10M groups)', () => groupBy([keys1k, keys100k], ROWS))
  const g1k: KernelArg = { kind: 'group', groups: groupBy([keys1k], ROWS) }
  const omitted: KernelArg = { kind: 'omitted' }
  time('g_sum broadcast: 1,000 groups, float X', () => FUNCTIONS.g_sum.kernel([g1k, omitted, value(fa)], ctx))
  time('sortPermutation: two int keys (1,000 x 100,000)', () =>
    sortPermutation(
      [
        { col: keys1k, desc: false },
        { col: keys100k, desc: true },
      ],
      ROWS,
    ),
  )
  time('sortPermutation: one int key (0…1,000,000 + N/A)', () => sortPermutation([{ col: ints, desc: false }], ROWS))
  const table: Column = { type: 'int', data: Int32Array.from({ length: 10_000 }, (_, i) => i * 7) }
  const probe = randomIntColumn(rng, ROWS, 0, 80_000)
  time('firstIndexLookup: 10M probes into 10,000 rows', () => firstIndexLookup([table], 10_000, [probe], ROWS))

  const small = 1_000_000
  const s1 = randomIntColumn(rng, small, 0, 999)
  const s2 = randomIntColumn(rng, small, 0, 99_999)
  time(
    '1M rows, two int keys: radix sortPermutation',
    () =>
      sortPermutation(
        [
          { col: s1, desc: false },
          { col: s2, desc: false },
        ],
        small,
      ),
    small,
  )
  time('1M rows, two int keys: comparator sort', () => comparatorSort([s1, s2], small), small)
}

main()
