/** Gateways as real child processes on loopback ports, for tests that need whole processes. */
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { childEnv } from '../../shared/child-env.js'

export const SERVER = fileURLToPath(new URL('../../gateway/server.js', import.meta.url))

export interface Running {
  readonly child: ChildProcess
  readonly base: string
  /** What the process printed before it was ready. */
  readonly stdout: string
  /** Everything it printed so far (stdout, then stderr), for a failing test to show. */
  readonly output: () => string
}

/** Every server started here, so a failing test never leaves one running. */
export const children = new Set<ChildProcess>()

/**
 * Starts a gateway process with `env`; `nodeArgs` go to node itself (a profiler's flags, say).
 * `readyMs` bounds the wait for it to serve (a benchmark seeding millions of demo rows needs more).
 */
export function start(env: Record<string, string>, nodeArgs: readonly string[] = [], readyMs = 30_000): Promise<Running> {
  const child = spawn(process.execPath, [...nodeArgs, SERVER], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
  children.add(child)
  child.on('exit', () => children.delete(child))
  let stdout = ''
  let stderr = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within ${readyMs} ms:\n${stdout}\n${stderr}`)), readyMs)
    child.stderr!.on('data', (d) => (stderr += d))
    child.stdout!.on('data', (d) => {
      stdout += d
      const m = /serving (https?:\/\/\S+\/api)/.exec(stdout)
      if (m && stdout.includes('Query:')) {
        clearTimeout(timer)
        resolve({ child, base: m[1], stdout, output: () => `${stdout}\n${stderr}` })
      }
    })
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${stdout}\n${stderr}`)))
  })
}

export function stop(r: Running): Promise<number | null> {
  return new Promise((resolve) => {
    r.child.removeAllListeners('exit')
    r.child.on('exit', (code) => resolve(code))
    r.child.kill('SIGTERM')
  })
}
