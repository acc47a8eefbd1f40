/**
 * `npm run load:clients`: many clients on the production topology of one machine (a private
 * redis-server, three gateway processes, nginx with the deployed configuration), bounded in time
 * and count. See bench/clients/run.ts for the phases.
 *
 *   node dist/bench/clients.js [--connections 2000] [--sessions 10000] [--seconds 60] [--rate 1000] [--seed 1]
 *
 * Exits 1 when any request failed, a connection was not held or a session was lost.
 */
import { availableParallelism, loadavg } from 'node:os'
import { mb, runClientsLoad, type ClientsLoadReport } from './clients/run.js'
import { phaseTable } from './clients/phase.js'
import { machineLine } from './clients/probes.js'

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`)
  const v = i > 0 ? Number(process.argv[i + 1]) : fallback
  if (!(Number.isFinite(v) && v > 0)) throw new Error(`--${name} takes a positive number (got "${process.argv[i + 1]}")`)
  return v
}

const out = (s = ''): void => void process.stdout.write(`${s}\n`)
const us = (v: number | null): string => (v === null ? '-' : `${v.toFixed(0)} us`)

export function reportText(r: ClientsLoadReport): string {
  const m = r.memory
  const lines = [
    phaseTable(r.reference ? [...r.phases, r.reference] : r.phases),
    '',
    `errors: ${r.errors}; connections held at the end of the steady phase: ${r.connectionsHeld} of ${r.connections} (reconnects: ${r.reconnects}); sessions valid at the end: ${r.sessionsValid} of ${r.sessions}`,
    `logins: ${r.loginsPerSecond.toFixed(0)}/s (32 at a time, light password hashes: bench/clients/users.ts)`,
    `Redis used_memory: ${mb(m.redisBytes.warm)} warm, ${mb(m.redisBytes.users)} with the users, ${mb(m.redisBytes.sessions)} after the logins, ${mb(m.redisBytes.primed)} after the prime, ${mb(m.redisBytes.end)} at the end; keys ${m.redisKeys.warm} -> ${m.redisKeys.primed}`,
    `gateways' RSS (sum of ${r.gateways}): ${mb(m.gatewayRssBytes.warm)} warm, ${mb(m.gatewayRssBytes.sessions)} after the logins, ${mb(m.gatewayRssBytes.primed)} after the prime, ${mb(m.gatewayRssBytes.end)} at the end`,
    `memory per session (session with a kept api/sql result): Redis ${m.redisPerSession.toFixed(0)} bytes (and ${m.redisPerUser.toFixed(0)} per user record), gateways' RSS ${m.gatewayRssPerSession === null ? '-' : m.gatewayRssPerSession.toFixed(0)} bytes (all ${r.gateways} together)`,
    `steady phase, per request: gateways' CPU ${us(r.cpu.gatewayUsPerRequest)} (all processes and workers; ${us(r.cpu.gatewayNetUsPerRequest)} net of their idle ${us(r.cpu.gatewayIdleUsPerSecond)}/s), Redis CPU ${us(r.cpu.redisUsPerRequest)} (${us(r.cpu.redisNetUsPerRequest)} net of idle), load generator CPU ${us(r.cpu.loadGeneratorUsPerRequest)}; Redis commands ${r.cpu.redisCommandsPerRequest.toFixed(2)}, bytes in ${r.cpu.redisBytesInPerRequest.toFixed(0)}, out ${r.cpu.redisBytesOutPerRequest.toFixed(0)}; machine busy ${r.cpu.machineBusy === null ? '-' : (r.cpu.machineBusy * 100).toFixed(0) + ' %'}`,
  ]
  for (const p of r.reference ? [...r.phases, r.reference] : r.phases) {
    for (const e of p.errorSamples) lines.push(`error in ${p.name.split(':')[0]}: ${e}`)
  }
  lines.push(`Redis commands per steady-phase request: ${r.cpu.redisTopCommands}`)
  if (r.balancerErrors) lines.push(`nginx error log, first messages:\n${r.balancerErrors}`)
  return lines.join('\n')
}

async function main(): Promise<void> {
  const opts = {
    connections: arg('connections', 2000),
    sessions: arg('sessions', 10_000),
    seconds: arg('seconds', 60),
    rate: arg('rate', 1000),
    seed: arg('seed', 1),
    reference: true,
    log: (s: string) => out(`  ${s}`),
  }
  out('# tabula load:clients')
  out(`date: ${new Date().toISOString()}`)
  out(
    `machine: ${availableParallelism()} cores (${machineLine()}), node ${process.version}; load average at start ${loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')}`,
  )
  out(
    `load: ${opts.connections} keep-alive connections, ${opts.sessions} sessions (one user each), steady mix at ${opts.rate} req/s for ${opts.seconds} s, seed ${opts.seed}`,
  )
  const report = await runClientsLoad(opts)
  out(`balancer: ${report.balancer}`)
  out()
  out(reportText(report))
  out(
    `load average at end: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')}`,
  )
  const ok = report.errors === 0 && report.connectionsHeld === report.connections && report.sessionsValid === report.sessions
  if (!ok) process.exitCode = 1
}

await main()
