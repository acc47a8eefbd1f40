/**
 * The reference of a load run, measured in the same run: the same number of keep-alive
 * connections and the same open-loop rate against a bare Koa process (bench/bare-koa.ts) that
 * answers a small JSON body. Its latency is what this machine, this load generator and Node's
 * HTTP server give with no gateway work at all; the gateways' figures are read beside it.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { childEnv } from '../../shared/child-env.js'
import { Connection } from './connection.js'
import { openLoop } from './open-loop.js'
import { phaseFigures, type PhaseFigures } from './phase.js'

const BARE_KOA = fileURLToPath(new URL('../bare-koa.js', import.meta.url))
/** Long enough for a stable p99 at the rates used; the reference is not the point of the run. */
const MAX_REFERENCE_SECONDS = 15

export async function referenceRun(opts: { connections: number; rate: number; seconds: number; seed: number }): Promise<PhaseFigures> {
  const child = spawn(process.execPath, [BARE_KOA], { env: childEnv(), stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let text = ''
      child.stdout!.on('data', (d) => {
        text += d
        const m = /listening (\d+)/.exec(text)
        if (m) resolve(Number(m[1]))
      })
      child.once('exit', (code) => reject(new Error(`bare Koa exited with ${code}`)))
    })
    const conns = Array.from({ length: opts.connections }, () => new Connection('127.0.0.1', port))
    const seconds = Math.min(opts.seconds, MAX_REFERENCE_SECONDS)
    try {
      // Every connection opens first, as the gateways' run opens them all in its prime phase.
      await Promise.all(conns.map((c) => c.send({ kind: 'bare koa', method: 'GET', path: '/hello', cookie: '' })))
      const outcomes = await openLoop(conns, { ...opts, seconds }, () => ({ kind: 'bare koa', method: 'GET', path: '/hello', cookie: '' }))
      return phaseFigures(`reference: bare Koa, same rate and connections`, outcomes, seconds)
    } finally {
      for (const c of conns) c.close()
    }
  } finally {
    child.kill('SIGTERM')
    await exited
  }
}
