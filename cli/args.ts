/**
 * A small command-line parser (no dependency): `--name value`, `--name=value`, `-x value`,
 * boolean flags, `--` to end options, and positional arguments. Unknown options and missing
 * values are usage errors, which the CLI reports with exit code 2.
 */

export class UsageError extends Error {
  override readonly name = 'UsageError'
}

export interface OptionSpec {
  readonly type: 'string' | 'boolean'
  readonly short?: string
  /** Placeholder in the help text (`--url URL`). */
  readonly arg?: string
  readonly help: string
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>

export interface Parsed {
  readonly options: Record<string, string | boolean | undefined>
  readonly positionals: string[]
}

export function parseArgs(argv: readonly string[], specs: OptionSpecs): Parsed {
  const options: Record<string, string | boolean | undefined> = {}
  const positionals: string[] = []
  const byShort = new Map(Object.entries(specs).flatMap(([name, s]) => (s.short ? [[s.short, name] as const] : [])))
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1))
      break
    }
    // A lone '-' is a positional: stdin.
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg)
      continue
    }
    let name: string
    let inline: string | undefined
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=')
      name = eq === -1 ? arg.slice(2) : arg.slice(2, eq)
      inline = eq === -1 ? undefined : arg.slice(eq + 1)
    } else {
      const short = arg.slice(1, 2)
      const long = byShort.get(short)
      if (!long) throw new UsageError(`Unknown option -${short}.`)
      name = long
      inline = arg.length > 2 ? arg.slice(2) : undefined
    }
    const spec = specs[name]
    if (!spec) throw new UsageError(`Unknown option --${name}.`)
    if (spec.type === 'boolean') {
      if (inline !== undefined) throw new UsageError(`The option --${name} takes no value.`)
      options[name] = true
      continue
    }
    const value = inline ?? argv[++i]
    if (value === undefined) throw new UsageError(`The option --${name} needs a value${spec.arg ? ` (${spec.arg})` : ''}.`)
    options[name] = value
  }
  return { options, positionals }
}

/** The option lines of a help text, aligned. */
export function describeOptions(specs: OptionSpecs): string {
  const rows = Object.entries(specs).map(([name, s]) => [`${s.short ? `-${s.short}, ` : '    '}--${name}${s.arg ? ` ${s.arg}` : ''}`, s.help] as const)
  const width = Math.max(0, ...rows.map(([left]) => left.length))
  return rows.map(([left, help]) => `  ${left.padEnd(width)}  ${help}`).join('\n')
}
