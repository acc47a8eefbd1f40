/**
 * A second gateway in this process over the first one's Store (its own memo, pool and stop
 * registry), counting the queries its pool runs: what a request sees on another gateway of the
 * same installation. Closing it stops only its own parts; the Store belongs to the first.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import supertest from 'supertest'
import { createApp } from '../../gateway/http/app.js'
import { buildDeps } from '../../gateway/compose.js'
import type { Deps } from '../../gateway/deps.js'
import type { Logger } from '../../gateway/logger.js'
import type { QueryRunner } from '../../gateway/pool/runner.js'
import type { Store } from '../../shared/store/types.js'
import type { TestDeps } from './service.js'

export interface SecondGateway {
  readonly url: string
  readonly http: ReturnType<typeof supertest>
  /** Queries this gateway's pool has run. */
  runs(): number
  close(): Promise<void>
}

/** `store` replaces the first gateway's Store (e.g. a wrapper that fails on purpose); `log` takes its log lines. */
export async function startSecondGateway(first: TestDeps, opts: { store?: Store; log?: Logger } = {}): Promise<SecondGateway> {
  const base = await buildDeps(first.config, opts.log ?? (() => undefined), opts.store ?? first.store)
  let runs = 0
  const runner: QueryRunner = {
    get pending() {
      return base.runner.pending
    },
    run: (task, runOpts) => {
      runs++
      return base.runner.run(task, runOpts)
    },
    close: () => base.runner.close(),
  }
  const deps: Deps = { ...base, runner }
  const server = http.createServer(createApp(deps).callback())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    http: supertest(server),
    runs: () => runs,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await deps.stops.close()
      await deps.runner.close()
    },
  }
}
