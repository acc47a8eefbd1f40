/** The suite digest of an answer given as plain values per column (null for N/A), as JSON has it. */
import { orderedSum, orderKeyIndex, SAMPLE_ROWS, type Kind, type SuiteDigest } from './digest.js'

export interface ValuesColumn {
  readonly name: string
  readonly kind: Kind
  readonly values: readonly unknown[]
}

const isNA = (v: unknown): boolean => v === null || v === undefined || v === '' || (typeof v === 'number' && Number.isNaN(v))

export function digestRows(columns: readonly ValuesColumn[], orderKeys: readonly string[]): SuiteDigest {
  const rows = columns[0]?.values.length ?? 0
  const digests = columns.map((c) => {
    let nonNull = 0
    let sum = 0
    for (const v of c.values) {
      if (isNA(v)) continue
      nonNull++
      // Text counts its length, as bench/digest.ts does.
      sum += c.kind === 'text' ? String(v).length : Number(v)
    }
    return { name: c.name.toLowerCase(), nonNull, sum }
  })
  const ordered = orderKeys.map((k) => {
    const c =
      columns[
        orderKeyIndex(
          columns.map((x) => x.name),
          k,
        )
      ]
    return orderedSum(c.values)
  })
  const sample: string[] = []
  for (let r = 0; r < Math.min(SAMPLE_ROWS, rows); r++) sample.push(columns.map((c) => (isNA(c.values[r]) ? 'N/A' : String(c.values[r]))).join(' | '))
  return { rows, columns: digests, ordered, kinds: columns.map((c) => c.kind), sample }
}
