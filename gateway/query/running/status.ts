/**
 * `!status` from the running records (running-marker.ts): whether a query runs under a key, for
 * how long, and how far it got. Read from the Store, so any gateway answers for every gateway.
 */
import type { QueryStatus } from '../../../shared/api-answers.js'
import { decodeRunningInfo, type RunningInfo } from './running-marker.js'

export const IDLE: QueryStatus = { running: false, elapsed_ms: null, done: null, total: null, unit: null, fraction: null, engine: null }

const fractionOf = (info: RunningInfo): number | null => (info.total !== null && info.done !== null && info.total > 0 ? info.done / info.total : null)

/**
 * Which of several running copies to show: the one furthest along, then the one running
 * longest. A copy without progress still counts as running (SQL reports none).
 */
function moreAdvanced(a: RunningInfo, b: RunningInfo): RunningInfo {
  const fa = fractionOf(a) ?? -1
  const fb = fractionOf(b) ?? -1
  if (fa !== fb) return fa > fb ? a : b
  return a.startedAt <= b.startedAt ? a : b
}

/** The status shown for the records of one key (`readRunning`), at time `now` (ms since the epoch). */
export function statusOf(records: Readonly<Record<string, string>>, now: number): QueryStatus {
  const fields = Object.values(records)
  if (fields.length === 0) return IDLE
  const infos = fields.map(decodeRunningInfo).filter((i): i is RunningInfo => i !== null)
  // A record that cannot be read still says "running", as it does for !stop.
  if (infos.length === 0) return { ...IDLE, running: true }
  const best = infos.reduce(moreAdvanced)
  const fraction = fractionOf(best)
  return {
    running: true,
    // Clocks of two gateways may differ a little; never show a negative time.
    elapsed_ms: Math.max(0, now - best.startedAt),
    done: fraction === null ? null : best.done,
    total: fraction === null ? null : best.total,
    unit: fraction === null ? null : 'ops',
    fraction: fraction === null ? null : Math.round(fraction * 10_000) / 10_000,
    engine: best.engine,
  }
}
