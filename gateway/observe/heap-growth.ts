/**
 * How far V8 lets the process's heaps grow past their live data before a full collection
 * (GC_HEAP_GROWTH_PERCENT). Left to itself, V8 sets the next collection's limit at up to about four
 * times what the last one found live, when collections are cheap against the allocation rate: the
 * gateway's heap, holding some 110 MiB of caches under distinct small queries, climbed to 390 MiB
 * of mostly garbage before each full collection, so memory levelled off far above what the
 * caches' budgets suggest. At 50 % it climbed to 160 MiB (npm run soak -- --distinct, 300 s,
 * 2026-11-27), at the cost of more frequent full collections, most of whose marking V8 does on a
 * helper thread.
 *
 * V8 reads the factor each time it sets a limit, so setting the flag at start, before the worker
 * threads exist, applies it to the gateway and to every worker (flags are per process).
 */
import { setFlagsFromString } from 'node:v8'

/** Applies the growth factor; 0 leaves V8's own heuristics. */
export function applyHeapGrowth(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`)
}
