/**
 * How long the gateway's thread held its event loop: a timer every TICK_MS notes the wall time
 * and the thread's own CPU time since its last turn, and a stretch counts for the smaller of the
 * two. The wall time alone (prom-client's nodejs_eventloop_lag_*) also counts the time the thread
 * was ready but not running because other processes had the cores, which on a shared machine is
 * often longer than anything the gateway does; the CPU time alone would count work spread over
 * many turns. Their minimum is the gateway's own work between two turns of its loop, give or take
 * the CPU clock's 10 ms. Linux reads the thread's CPU time from /proc/thread-self/stat; elsewhere
 * the wall time is all there is.
 */
import { readFileSync } from 'node:fs'

const TICK_MS = 10

/** Milliseconds per clock tick of /proc's CPU times (USER_HZ, 100 on Linux). */
const MS_PER_CLOCK_TICK = 10

/** The thread's CPU time in ms, or null where /proc/thread-self is not there. */
function threadCpuMs(): number | null {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8')
    // Fields after the command name, which may hold spaces: state is the first, utime the 12th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * MS_PER_CLOCK_TICK
  } catch {
    return null
  }
}

/** The longest stretch each reader has not yet been told of. */
const readers = new Set<{ max: number }>()
let timer: NodeJS.Timeout | null = null

function start(): void {
  let wall = performance.now()
  let cpu = threadCpuMs()
  timer = setInterval(() => {
    const nowWall = performance.now()
    const nowCpu = cpu === null ? null : threadCpuMs()
    const held = nowCpu === null || cpu === null ? nowWall - wall - TICK_MS : Math.min(nowWall - wall - TICK_MS, nowCpu - cpu)
    wall = nowWall
    cpu = nowCpu
    for (const r of readers) if (held > r.max) r.max = held
  }, TICK_MS)
  // Measuring must never be what keeps a process alive.
  timer.unref()
}

/**
 * A reader of the longest stretch (ms) the thread held its event loop since the reader was last
 * called (or made). One timer serves every reader of the process.
 */
export function loopHeldReader(): () => number {
  const state = { max: 0 }
  readers.add(state)
  if (timer === null) start()
  return () => {
    const max = state.max
    state.max = 0
    return max
  }
}
