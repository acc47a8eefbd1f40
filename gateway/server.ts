/**
 * The process entry point and composition root: reads the environment (the only place that
 * does), builds the store, the engine pool and the app, seeds a new installation, listens, and
 * shuts down cleanly on SIGTERM/SIGINT (in-flight requests finish first).
 */
import { readFileSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import { createSecureContext } from 'node:tls'
import { loadConfig, type Config } from '../shared/config.js'
import { createApp } from './http/app.js'
import { buildDeps, closeDeps } from './compose.js'
import { createLogger } from './observe/index.js'
import { ensureAdmin, seedDemoData } from './catalog/seed.js'
import { removeStaleTempFolders, removeUncommittedVersions } from '../engine/index.js'
import type { Store } from '../shared/store/types.js'
import { knownVersions } from './catalog/tables.js'
import { removeEndedUploads } from './dbm/uploads/index.js'
import type { Logger } from './logger.js'
import { memoryTuningWarning } from './observe/memory-tuning.js'
import { serveHalfClosed } from './http/half-close.js'
import { answerClientErrors } from './http/client-errors.js'
import { applyHeapGrowth } from './observe/heap-growth.js'

/** How long an idle keep-alive connection is kept: longer than any balancer in front keeps its own. */
const KEEP_ALIVE_MS = 65_000

/**
 * Connections the kernel may hold ready for the gateway to accept (capped by net.core.somaxconn,
 * 4096 on current Linux). With Node's default of 511, a burst of thousands of clients through the
 * balancer filled the queue of a busy gateway; the kernel then dropped new connections' SYNs,
 * nginx's 2 s connect timeout expired, it marked the gateway down (max_fails=1), and once all were
 * down it answered 502 to everyone (npm run load:clients, 2,000 connections). A queued connection
 * is complete for the balancer and only waits for the event loop.
 */
const LISTEN_BACKLOG = 4096

/** The PEM files of TLS_CERT and TLS_KEY, checked to be a usable pair; null without TLS. */
function readTlsFiles(config: Config): { cert: Buffer; key: Buffer } | null {
  if (!config.tlsCert || !config.tlsKey) return null
  const read = (name: string, path: string): Buffer => {
    try {
      return readFileSync(path)
    } catch (err) {
      throw new Error(`config: ${name} names "${path}", which cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, {
        cause: err,
      })
    }
  }
  const cert = read('TLS_CERT', config.tlsCert)
  const key = read('TLS_KEY', config.tlsKey)
  try {
    createSecureContext({ cert, key })
  } catch (err) {
    throw new Error(`config: TLS_CERT and TLS_KEY must be a PEM certificate and its private key (${(err as Error).message})`, { cause: err })
  }
  return { cert, key }
}

/**
 * Removes the leftovers of table writes that a crash cut short: temporary folders, and versions
 * written but never committed to the catalog. With the embedded store this process is the only
 * one writing to DATA_DIR and it is not serving yet, so every leftover can go. With Redis other
 * gateways may be writing right now, and their version between write and commit looks just like
 * a leftover: there only temporary folders a day old go, and uncommitted versions stay.
 */
async function removeUnfinishedWrites(store: Store, config: Config, log: Logger): Promise<void> {
  const { dataDir } = config
  const soleWriter = store.kind === 'memory'
  const temporary = await removeStaleTempFolders(dataDir, soleWriter ? 0 : undefined)
  const uncommitted = soleWriter ? await removeUncommittedVersions(dataDir, await knownVersions(store)) : []
  // Chunked uploads that are over, with whatever their chunks left (gateway/dbm/uploads/cleanup.ts).
  const uploads = await removeEndedUploads(store, dataDir, config.sessionTtl)
  if (temporary.length + uncommitted.length + uploads.length > 0) {
    log({ level: 'info', msg: 'removed unfinished table writes', folders: temporary, versions: uncommitted, uploads })
  }
}

async function main(): Promise<void> {
  let config: Config
  try {
    config = loadConfig(process.env)
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`)
    process.exit(2)
  }
  // Read the certificate before anything is written, so a bad path stops the start cleanly.
  let tls: { cert: Buffer; key: Buffer } | null = null
  try {
    tls = readTlsFiles(config)
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`)
    process.exit(2)
  }
  applyHeapGrowth(config.gcHeapGrowthPercent)
  const deps = await buildDeps(config, createLogger({ level: config.logLevel }))
  const log = deps.log
  await removeUnfinishedWrites(deps.store, config, log)
  const admin = await ensureAdmin(deps.store, config)
  if (admin.generated) {
    process.stdout.write(
      `Created user "admin" with the generated password: ${admin.generated}\n(It is shown only this once; set ADMIN_PASSWORD to choose it.)\n`,
    )
  }
  if (config.demoData) {
    const seeded = await seedDemoData(deps.store, config)
    if (seeded.length > 0) log({ level: 'info', msg: 'seeded demo data', tables: seeded, rows: config.demoRows })
  }
  const tuning = memoryTuningWarning(process.platform, process.env)
  if (tuning !== null) log({ level: 'warn', msg: tuning })
  const app = createApp(deps)
  const server = tls ? https.createServer(tls, app.callback()) : http.createServer(app.callback())
  serveHalfClosed(server)
  answerClientErrors(server, log)
  // Idle keep-alive connections outlive the balancer's (nginx's upstream keepalive_timeout, 60 s):
  // with Node's default of 5 s the gateway closed connections nginx was about to reuse, and a POST
  // sent on one fails with a 502 (nginx retries only idempotent requests). Headers must be allowed
  // longer still, or an idle connection would be cut by the headers timer first.
  server.keepAliveTimeout = KEEP_ALIVE_MS
  server.headersTimeout = KEEP_ALIVE_MS + 1000
  server.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG }, () => {
    const addr = server.address()
    const port = typeof addr === 'object' && addr ? addr.port : config.port
    const origin = `${tls ? 'https' : 'http'}://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`
    const base = `${origin}/${config.apiVersions[0]}/api`
    process.stdout.write(
      `tabula is serving ${base} (store: ${deps.store.kind}, workers: ${config.workers}, data: ${config.dataDir})\n` +
        `Log in:  curl -c cookies.txt -d uid=admin -d pw=<password> ${base}/!login:json\n` +
        `Query:   curl -b cookies.txt -d sql='select store, count(*) n from pub.demo.retail.item group by store' ${base}/sql:json\n` +
        `Workbench: ${origin}/ in a browser (log in as admin; SQL at ${base}/sql, macro queries at ${base}/run)\n`,
    )
  })
  let stopping = false
  const shutdown = (signal: string): void => {
    if (stopping) return
    stopping = true
    // /readyz answers 503 from now on, so balancers stop sending work while requests finish.
    deps.observe.readiness.startDraining()
    log({ level: 'info', msg: `received ${signal}, draining` })
    // Keep-alive connections (a balancer keeps many) go idle only when their request ends:
    // close each as soon as it does, so the drain lasts as long as the slowest request.
    const closeIdle = setInterval(() => server.closeIdleConnections(), 50)
    server.close(async () => {
      clearInterval(closeIdle)
      await closeDeps(deps)
      process.exit(0)
    })
    server.closeIdleConnections()
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
}

await main()
