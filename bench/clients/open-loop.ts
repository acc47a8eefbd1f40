/**
 * The open loop of a load run: every connection sends its share of the rate as a Poisson stream
 * for a bounded time. A request due while its connection still waits for the previous answer goes
 * right after that answer, its latency counted from when it was due, so a slow server shows in the
 * figures instead of quietly slowing the load down.
 */
import type { Connection, Outcome, Request } from './connection.js'
import { randomStream } from '../../engine/demo/random.js'
import { nextGapMs } from './schedule.js'

/**
 * The longest a connection stays quiet: a client with nothing else to do polls within this, as
 * the workbench does. Without it, an exponential gap now and then outlasts the balancer's
 * keep-alive (nginx: 75 s) at low rates, and the run would measure reconnects, not held
 * connections. Gaps this long are rare at the rates used (a mean gap of 10 s exceeds it 5 % of
 * the time), so the stream stays close to Poisson.
 */
const MAX_GAP_MS = 30_000

export interface OpenLoop {
  readonly seconds: number
  /** Requests per second over all connections. */
  readonly rate: number
  readonly seed: number
}

/** `next(c, i, random)`: the i-th request of connection c. */
export async function openLoop(
  conns: readonly Connection[],
  loop: OpenLoop,
  next: (c: number, i: number, random: () => number) => Request,
): Promise<Outcome[]> {
  const perConnection = loop.rate / conns.length
  const t0 = performance.now()
  const end = t0 + loop.seconds * 1000
  const each = conns.map(async (conn, c) => {
    const random = randomStream(loop.seed * 100_003 + c)
    const out: Outcome[] = []
    const gap = (): number => Math.min(MAX_GAP_MS, nextGapMs(random, perConnection))
    let due = t0 + gap()
    for (let i = 0; due < end; i++) {
      const wait = due - performance.now()
      if (wait > 0) await new Promise((r) => setTimeout(r, wait))
      out.push(await conn.send(next(c, i, random), due))
      due += gap()
    }
    return out
  })
  return (await Promise.all(each)).flat()
}
