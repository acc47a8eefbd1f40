/** Figures of one phase of a load run: counts, errors, throughput and latency quantiles. */
import type { Outcome } from './connection.js'
import { quantile } from './probes.js'

export interface LatencyFigures {
  readonly requests: number
  readonly errors: number
  readonly p50: number
  readonly p95: number
  readonly p99: number
  readonly max: number
}

export interface PhaseFigures extends LatencyFigures {
  readonly name: string
  readonly seconds: number
  readonly perSecond: number
  readonly byKind: Readonly<Record<string, LatencyFigures>>
  /** The first few errors, verbatim, for the report. */
  readonly errorSamples: readonly string[]
}

function latency(outcomes: readonly Outcome[]): LatencyFigures {
  const ms = outcomes.map((o) => o.ms).sort((a, b) => a - b)
  return {
    requests: outcomes.length,
    errors: outcomes.filter((o) => o.error !== '').length,
    p50: quantile(ms, 0.5),
    p95: quantile(ms, 0.95),
    p99: quantile(ms, 0.99),
    max: ms.length ? ms[ms.length - 1] : NaN,
  }
}

export function phaseFigures(name: string, outcomes: readonly Outcome[], seconds: number): PhaseFigures {
  const byKind: Record<string, LatencyFigures> = {}
  for (const kind of [...new Set(outcomes.map((o) => o.kind))].sort()) byKind[kind] = latency(outcomes.filter((o) => o.kind === kind))
  return {
    name,
    seconds,
    perSecond: outcomes.length / seconds,
    ...latency(outcomes),
    byKind,
    errorSamples: [...new Set(outcomes.filter((o) => o.error).map((o) => o.error.replace(/"requestId":"[^"]*"/, '')))].slice(0, 8),
  }
}

const ms = (v: number): string => (Number.isFinite(v) ? v.toFixed(v < 10 ? 1 : 0) : '-')

/** One line per phase and per kind: a Markdown table. */
export function phaseTable(phases: readonly PhaseFigures[]): string {
  const lines = ['| phase | requests | errors | req/s | p50 ms | p95 ms | p99 ms | max ms |', '|---|---:|---:|---:|---:|---:|---:|---:|']
  for (const p of phases) {
    lines.push(`| ${p.name} | ${p.requests} | ${p.errors} | ${p.perSecond.toFixed(0)} | ${ms(p.p50)} | ${ms(p.p95)} | ${ms(p.p99)} | ${ms(p.max)} |`)
    if (Object.keys(p.byKind).length < 2) continue
    for (const [kind, f] of Object.entries(p.byKind)) {
      lines.push(`| &nbsp;&nbsp;${kind} | ${f.requests} | ${f.errors} | | ${ms(f.p50)} | ${ms(f.p95)} | ${ms(f.p99)} | ${ms(f.max)} |`)
    }
  }
  return lines.join('\n')
}
