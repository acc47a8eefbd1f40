/**
 * A child process for heap-growth.test.ts: applies GC_HEAP_GROWTH_PERCENT from its environment as
 * the gateway does at start, then holds a large live set while churning garbage that lives long
 * enough to be promoted, and prints the peak of its heap as JSON.
 */
import { loadConfig } from '../../shared/config.js'
import { applyHeapGrowth } from '../../gateway/observe/heap-growth.js'

applyHeapGrowth(loadConfig(process.env).gcHeapGrowthPercent)
const live = Array.from({ length: 1_000_000 }, (_, i) => ({ i, s: `live-${i}-${'x'.repeat(100)}` }))
const recent: unknown[] = []
let peak = 0
for (let round = 0; round < 6_000; round++) {
  recent.push(Array.from({ length: 2_000 }, (_, i) => ({ round, i, s: `g-${round}-${i}` })))
  if (recent.length > 60) recent.shift()
  if (round % 50 === 0) peak = Math.max(peak, process.memoryUsage().heapTotal)
}
process.stdout.write(`${JSON.stringify({ peakBytes: peak, live: live.length })}\n`)
