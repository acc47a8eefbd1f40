/** The command line of `npm run bench:suite`. */
import { QUESTIONS } from './questions/index.js'
import { DEFAULT_SEED } from './schema.js'

export interface SuiteOptions {
  readonly rows: number
  readonly seed: number
  readonly only: ReadonlySet<string> | null
  readonly markdown: boolean
  /** Time budget of one question over its four timed targets. */
  readonly maxSecondsPerQuestion: number
  /** Timed runs per target at most (their median is the figure). */
  readonly reps: number
  /**
   * tabula through HTTP (a gateway with 1 worker, another with 2) instead of straight on the
   * pool; the questions are then the seven shapes unless --only names others.
   */
  readonly http: boolean
}

export const USAGE = 'options: --rows N (10000000), --only name,name, --markdown, --max-seconds-per-question S (60), --reps N (5), --seed N, --http'

const positive = (flag: string, v: string): number => {
  const n = Number(v.replaceAll('_', ''))
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${flag} takes a positive whole number, not ${v}`)
  return n
}

export function parseOptions(argv: readonly string[]): SuiteOptions {
  let rows = 10_000_000
  let seed = DEFAULT_SEED
  let only: Set<string> | null = null
  let markdown = false
  let maxSecondsPerQuestion = 60
  let reps = 5
  let http = false
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]
    const value = (): string => {
      const v = argv[++i]
      if (v === undefined) throw new Error(`${flag} needs a value`)
      return v
    }
    if (flag === '--rows') rows = positive(flag, value())
    else if (flag === '--seed') seed = positive(flag, value())
    else if (flag === '--only')
      only = new Set(
        value()
          .split(',')
          .map((s) => s.trim().toLowerCase())
          .filter(Boolean),
      )
    else if (flag === '--markdown') markdown = true
    else if (flag === '--max-seconds-per-question') maxSecondsPerQuestion = positive(flag, value())
    else if (flag === '--reps') reps = positive(flag, value())
    else if (flag === '--http') http = true
    else throw new Error(`unknown option ${flag}; ${USAGE}`)
  }
  const known = new Set(QUESTIONS.map((q) => q.name))
  for (const o of only ?? []) if (!known.has(o)) throw new Error(`--only: unknown question ${o}; known: ${[...known].join(', ')}`)
  return { rows, seed, only, markdown, maxSecondsPerQuestion, reps, http }
}
