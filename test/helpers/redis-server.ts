/**
 * A throwaway redis-server for tests: a free loopback port, no persistence, its own temp folder.
 * Tests never depend on a Redis someone left running, and never touch one that matters.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { findOnPath, spawnKeepingOutput, terminate } from './child-process.js'

/** How long a fresh server may take to answer PING; it usually takes a few milliseconds. */
const STARTUP_TIMEOUT_MS = 10_000
/** Grace period between SIGTERM and SIGKILL on stop. */
const STOP_TIMEOUT_MS = 5_000

/** A running test server. */
export interface RedisServer {
  /** redis://127.0.0.1:PORT */
  readonly url: string
  readonly port: number
  /** Kills the server, waits for it to exit and removes its folder. Safe to call twice. */
  stop(): Promise<void>
  /** SIGKILL, as a crash or power loss would end it; the folder stays. */
  crash(): Promise<void>
}

/** The redis-server binary: the first on PATH, else /usr/bin/redis-server; null when there is none. */
export function findRedisServer(): string | null {
  return findOnPath('redis-server', '/usr/bin/redis-server')
}

/**
 * Starts redis-server and resolves once it answers PING. Retries with another port when the one
 * picked was taken in the moment between choosing it and redis binding it. `port` restarts a
 * server on a known port (to test reconnection); it is not retried.
 */
export async function startRedisServer(opts: { port?: number; aofDir?: string; args?: readonly string[] } = {}): Promise<RedisServer> {
  const binary = findRedisServer()
  if (!binary) throw new Error('redis-server is not installed (looked on PATH and at /usr/bin/redis-server).')
  if (opts.port !== undefined) return startOnce(binary, opts.port, opts.aofDir, opts.args)
  let lastError: unknown
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(binary, await freePort(), opts.aofDir, opts.args)
    } catch (err) {
      lastError = err
    }
  }
  throw lastError
}

/**
 * With `aofDir`, the server keeps an append-only file there, fsynced on every write (the
 * production setting of docker-compose.yml is everysec; `always` makes a test after SIGKILL
 * deterministic), and stop() leaves the folder for a restart to read.
 */
async function startOnce(binary: string, port: number, aofDir?: string, args: readonly string[] = []): Promise<RedisServer> {
  const dir = aofDir ?? (await mkdtemp(join(tmpdir(), 'tabula-redis-')))
  const persistence = aofDir ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']
  const server = spawnKeepingOutput(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', dir, ...args], 4000)
  const { child, exited } = server

  const stop = async (): Promise<void> => {
    await terminate(server, STOP_TIMEOUT_MS)
    if (!aofDir) await rm(dir, { recursive: true, force: true })
  }

  try {
    await waitForPong(port, exited, server.output)
  } catch (err) {
    await stop()
    throw err
  }
  const crash = async (): Promise<void> => {
    if (server.alive()) child.kill('SIGKILL')
    await exited
  }
  return { url: `redis://127.0.0.1:${port}`, port, stop, crash }
}

/** Asks the OS for a free port by listening on port 0, then releases it for redis. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => (port ? resolve(port) : reject(new Error('Could not read the port the OS assigned.'))))
    })
  })
}

/** Polls with a raw PING until +PONG, the process dies, or the bounded wait runs out. */
async function waitForPong(port: number, exited: Promise<void>, output: () => string): Promise<void> {
  let dead = false
  void exited.then(() => (dead = true))
  const deadline = Date.now() + STARTUP_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (dead) throw new Error(`redis-server exited during startup on port ${port}:\n${output()}`)
    if (await pingOnce(port)) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`redis-server did not answer PING on port ${port} within ${STARTUP_TIMEOUT_MS} ms:\n${output()}`)
}

function pingOnce(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    let reply = ''
    const done = (ok: boolean): void => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(1000, () => done(false))
    socket.once('error', () => done(false))
    socket.once('connect', () => socket.write('PING\r\n'))
    socket.on('data', (chunk) => {
      reply += chunk.toString()
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'))
    })
  })
}
