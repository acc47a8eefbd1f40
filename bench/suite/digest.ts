/**
 * The suite's answer fingerprint: bench/digest.ts's (row count, per column its non-N/A count and
 * sum) plus what that one leaves out: each column's kind (int, float or text: an int answer
 * where 1010data gives a decimal is a wrong answer), order-sensitive sums that accept text keys
 * (a text value counts as a hash of its characters), and the first rows, printed when answers
 * differ.
 */
import { compareDigests, orderWeight, type Digest } from '../digest.js'

export type Kind = 'int' | 'float' | 'text'

export interface SuiteDigest extends Digest {
  readonly kinds: readonly Kind[]
  /** The first few rows, values separated by " | ", for reports. */
  readonly sample: readonly string[]
}

/** How many rows a digest's sample holds. */
export const SAMPLE_ROWS = 3

/** An N/A in an order key: no value of any kind weighs this. */
const NA_WEIGHT = -0.5

/** A text value as a number: a polynomial hash of its UTF-16 code units. */
function textWeight(s: string): number {
  let h = 0
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) % 1_000_003
  return h + 1
}

/** One value of an order key as a number; null, '' and NaN are N/A. */
export function orderValue(v: unknown): number {
  if (v === null || v === undefined || v === '') return NA_WEIGHT
  if (typeof v === 'string') return textWeight(v)
  const n = Number(v)
  return Number.isNaN(n) ? NA_WEIGHT : n
}

/**
 * The column an order key names among an answer's column names: by name (any case), or `#n`
 * for the n-th column (for answers whose forms name their columns differently).
 */
export function orderKeyIndex(names: readonly string[], key: string): number {
  const i = /^#\d+$/.test(key) ? Number(key.slice(1)) - 1 : names.findIndex((n) => n.toLowerCase() === key)
  if (i < 0 || i >= names.length) throw new Error(`order key ${key} is not in the answer`)
  return i
}

/** The order-sensitive sum of one key column, given its values in result order. */
export function orderedSum(values: Iterable<unknown>): number {
  let sum = 0
  let i = 0
  for (const v of values) sum += orderWeight(i++) * orderValue(v)
  return sum
}

/** Differences between two suite digests, as readable lines; empty when they agree. */
export function compareSuiteDigests(expected: SuiteDigest, actual: SuiteDigest): string[] {
  const out = compareDigests(expected, actual)
  expected.kinds.forEach((k, i) => {
    const a = actual.kinds[i]
    if (a !== undefined && a !== k) out.push(`${expected.columns[i].name}: ${a} values, expected ${k}`)
  })
  return out
}

/** A digest as report lines: rows, then per column kind, non-N/A count and sum, then the sample. */
export function describeDigest(d: SuiteDigest): string {
  const cols = d.columns.map((c, i) => `${c.name}:${d.kinds[i]} n=${c.nonNull} sum=${c.sum}`).join('; ')
  return `${d.rows} rows; ${cols}; order sums [${d.ordered.join(', ')}]; first rows: ${d.sample.map((r) => `(${r})`).join(' ')}`
}
