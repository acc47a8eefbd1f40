/**
 * Debian's nginx running the balancer configuration that docker-compose deploys
 * (deploy/nginx/tabula.conf), with its own loopback gateway list, listen port and temporary
 * folders, as an unprivileged foreground process. The access log records which gateway served
 * each request, so tests can see that the balancer spreads them.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const NGINX_BINARIES = ['/usr/sbin/nginx', '/usr/bin/nginx']

/** The deployed configuration: three folders up from dist/test/helpers is the repository. */
export const DEPLOYED_CONF = fileURLToPath(new URL('../../../deploy/nginx/tabula.conf', import.meta.url))

export function findNginx(): string | null {
  return NGINX_BINARIES.find((p) => existsSync(p)) ?? null
}

export interface Nginx {
  readonly origin: string
  /** `upstream-address status` for every request served so far. */
  accessLog(): Promise<{ upstream: string; status: number }[]>
  /** The first distinct messages of nginx's error log (why it answered 502, say), timestamps and ids left out. */
  errorLogFirst(count?: number): Promise<string[]>
  close(): Promise<void>
}

async function freePort(): Promise<number> {
  const s = createServer()
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
  const port = (s.address() as { port: number }).port
  await new Promise<void>((resolve) => s.close(() => resolve()))
  return port
}

/**
 * The deployed server block with only its listen line changed; refuses a configuration whose
 * listen directive is not the single one this expects, so the test never drifts from the file.
 */
export async function deployedConfFor(port: number): Promise<string> {
  const text = await readFile(DEPLOYED_CONF, 'utf8')
  const listens = text.match(/^\s*listen\s+[^;]+;/gm) ?? []
  if (listens.length !== 1) throw new Error(`${DEPLOYED_CONF} should have exactly one listen directive, has ${listens.length}`)
  return text.replace(listens[0], `    listen 127.0.0.1:${port};`)
}

export interface NginxOptions {
  /**
   * Connections one nginx worker may hold, client and upstream sides together (1024 by default);
   * a load test of many clients needs more, and the descriptors to match (worker_rlimit_nofile).
   */
  readonly workerConnections?: number
}

export async function startNginx(gatewayPorts: readonly number[], opts: NginxOptions = {}): Promise<Nginx> {
  const workerConnections = opts.workerConnections ?? 1024
  const bin = findNginx()
  if (!bin) throw new Error('nginx is not installed (apt-get install nginx; .ci/run does it)')
  const dir = await mkdtemp(join(tmpdir(), 'tabula-nginx-'))
  // Run as root, nginx's workers drop to `nobody`, who must be able to reach the temp folders.
  await chmod(dir, 0o755)
  const port = await freePort()
  await writeFile(join(dir, 'tabula.conf'), await deployedConfFor(port))
  await writeFile(join(dir, 'tabula-upstreams.conf'), gatewayPorts.map((p) => `server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;\n`).join(''))
  const temp = (name: string) => join(dir, name)
  await writeFile(
    join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'master_process on;',
      'worker_processes 1;',
      `pid ${temp('nginx.pid')};`,
      `error_log ${temp('error.log')} warn;`,
      `worker_rlimit_nofile ${workerConnections * 2};`,
      `events { worker_connections ${workerConnections}; }`,
      'http {',
      `  client_body_temp_path ${temp('body')};`,
      `  proxy_temp_path ${temp('proxy')};`,
      `  fastcgi_temp_path ${temp('fastcgi')};`,
      `  uwsgi_temp_path ${temp('uwsgi')};`,
      `  scgi_temp_path ${temp('scgi')};`,
      "  log_format upstream '$upstream_addr $status';",
      `  access_log ${temp('access.log')} upstream;`,
      '  include tabula.conf;',
      '}',
      '',
    ].join('\n'),
  )
  const child: ChildProcess = spawn(bin, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', temp('error.log')], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (d) => (output += d))
  child.stderr!.on('data', (d) => (output += d))
  const origin = `http://127.0.0.1:${port}`
  await waitUntilServing(origin, child, () => output, temp('error.log'))
  return {
    origin,
    async accessLog() {
      const text = await readFile(temp('access.log'), 'utf8').catch(() => '')
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [upstream, status] = line.split(' ')
          return { upstream, status: Number(status) }
        })
    },
    async errorLogFirst(count = 5) {
      const text = await readFile(temp('error.log'), 'utf8').catch(() => '')
      // `2026/11/28 08:28:18 [error] 31270#31270: *3138 message, client: …`: keep the message.
      const messages = text.split('\n').map((line) => line.replace(/^\S+ \S+ (\[\w+\]) \d+#\d+: (\*\d+ )?/, '$1 ').replace(/, client: .*$/, ''))
      return [...new Set(messages.filter(Boolean))].slice(0, count)
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve())
          child.kill('SIGQUIT') // graceful: finish what is in flight
        })
      }
      await rm(dir, { recursive: true, force: true })
    },
  }
}

async function waitUntilServing(origin: string, child: ChildProcess, output: () => string, errorLog: string): Promise<void> {
  const deadline = Date.now() + 15_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      const log = await readFile(errorLog, 'utf8').catch(() => '')
      throw new Error(`nginx exited with ${child.exitCode}: ${output()}\n${log}`)
    }
    try {
      await fetch(`${origin}/healthz`)
      return
    } catch {
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  child.kill('SIGKILL')
  throw new Error(`nginx did not start serving ${origin} within 15 s: ${output()}`)
}
