/**
 * What a load run reads about the processes under test, from outside them: a Redis server's INFO
 * (memory, commands, bytes, CPU) and a process's resident memory and CPU time from /proc. Reading
 * from outside means the gateways need no hook for the benchmark, and a figure is what an
 * operator's own tools would show.
 */
import { readFileSync } from 'node:fs'
import { Redis } from 'ioredis'

/** The INFO fields a run compares before and after. */
export interface RedisSample {
  readonly usedMemory: number
  readonly keys: number
  /** Commands processed, all kinds (INFO stats total_commands_processed). */
  readonly commands: number
  /** Per command name (INFO commandstats calls), lower case. */
  readonly calls: Readonly<Record<string, number>>
  /**
   * Read events the server handled (INFO stats total_reads_processed): one per batch of bytes a
   * client sent, so about one per round trip, however many commands a pipeline or MULTI carried.
   */
  readonly reads: number
  readonly netInputBytes: number
  readonly netOutputBytes: number
  /** used_cpu_user + used_cpu_sys of the server, in microseconds. */
  readonly cpuUs: number
}

function infoFields(text: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const line of text.split('\r\n')) {
    const i = line.indexOf(':')
    if (i > 0 && !line.startsWith('#')) out.set(line.slice(0, i), line.slice(i + 1))
  }
  return out
}

export class RedisProbe {
  readonly #redis: Redis

  constructor(url: string) {
    this.#redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2 })
  }

  async sample(): Promise<RedisSample> {
    const f = infoFields(await this.#redis.info('all'))
    const calls: Record<string, number> = {}
    for (const [k, v] of f) {
      if (!k.startsWith('cmdstat_')) continue
      const m = /calls=(\d+)/.exec(v)
      if (m) calls[k.slice('cmdstat_'.length)] = Number(m[1])
    }
    const num = (k: string): number => Number(f.get(k) ?? 0)
    const keys = /keys=(\d+)/.exec(f.get('db0') ?? '')
    // This probe's own INFO is one command with a large reply; the caller subtracts it by taking
    // differences of two samples, each of which counted one INFO.
    return {
      usedMemory: num('used_memory'),
      keys: keys ? Number(keys[1]) : 0,
      commands: num('total_commands_processed'),
      calls,
      reads: num('total_reads_processed'),
      netInputBytes: num('total_net_input_bytes'),
      netOutputBytes: num('total_net_output_bytes'),
      cpuUs: Math.round((num('used_cpu_user') + num('used_cpu_sys')) * 1e6),
    }
  }

  close(): Promise<void> {
    return this.#redis.quit().then(() => undefined)
  }
}

/** After minus before: commands and bytes of the interval, per command name too. */
export function redisDelta(a: RedisSample, b: RedisSample): RedisSample {
  const calls: Record<string, number> = {}
  for (const [k, v] of Object.entries(b.calls)) {
    const d = v - (a.calls[k] ?? 0)
    if (d > 0) calls[k] = d
  }
  return {
    usedMemory: b.usedMemory - a.usedMemory,
    keys: b.keys - a.keys,
    commands: b.commands - a.commands,
    calls,
    reads: b.reads - a.reads,
    netInputBytes: b.netInputBytes - a.netInputBytes,
    netOutputBytes: b.netOutputBytes - a.netOutputBytes,
    cpuUs: b.cpuUs - a.cpuUs,
  }
}

/** /proc reports process times in clock ticks of 1/100 s (USER_HZ) on Linux. */
const TICK_US = 10_000

/** User + system CPU time of a process (all its threads), in microseconds; null off Linux. */
export function processCpuUs(pid: number | undefined): number | null {
  if (pid === undefined) return null
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) * TICK_US
  } catch {
    return null
  }
}

/** Resident memory of a process in bytes (VmRSS), or null off Linux. */
export function processRssBytes(pid: number | undefined): number | null {
  if (pid === undefined) return null
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) * 1024 : null
  } catch {
    return null
  }
}

/** Sum over processes; null when any one cannot be read. */
export function sumOver(pids: readonly (number | undefined)[], read: (pid: number | undefined) => number | null): number | null {
  let total = 0
  for (const pid of pids) {
    const v = read(pid)
    if (v === null) return null
    total += v
  }
  return total
}

/** The q-quantile (0..1) of sorted values, nearest rank; NaN when empty. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]
}

/** The machine, for every report: cores and CPU model as /proc/cpuinfo names it. */
export function machineLine(): string {
  let model = '?'
  try {
    model = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? '?'
  } catch {
    // not Linux: leave it unknown
  }
  return `${model}`
}

/** Busy and total jiffies of the whole machine (/proc/stat), for how loaded it was over a phase. */
export function machineTicks(): { busy: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]
    const v = line.trim().split(/\s+/).slice(1).map(Number)
    const total = v.reduce((s, x) => s + x, 0)
    // idle and iowait are the 4th and 5th fields.
    return { busy: total - v[3] - (v[4] ?? 0), total }
  } catch {
    return null
  }
}
