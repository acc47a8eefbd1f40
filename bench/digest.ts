/**
 * A result's fingerprint, computed the same way for every target so that answers can be compared
 * before anything is timed: the row count, and per column (by name) the number of non-N/A values
 * and their sum (text: the sum of the lengths). These are independent of row order, since SQL
 * without ORDER BY promises none; for queries whose order is part of the answer (sort, sorted
 * tabulations) the key columns also get an order-sensitive weighted sum.
 */
import type { ResultSet } from '../shared/protocol.js'
import { NA_BIGINT, NA_INT } from '../shared/table.js'
import { columnLength, isTextColumn, textReader } from '../shared/result-text.js'

export interface ColumnDigest {
  readonly name: string
  readonly nonNull: number
  readonly sum: number
}

export interface Digest {
  readonly rows: number
  readonly columns: readonly ColumnDigest[]
  /** Order-sensitive sums of the ordering key columns, in key order. */
  readonly ordered: readonly number[]
}

/** Weight of row i in the order-sensitive sum: 1..1000, repeating. */
export const orderWeight = (i: number): number => (i % 1000) + 1

function columnDigest(name: string, col: ResultSet['columns'][number]): ColumnDigest {
  let nonNull = 0
  let sum = 0
  if (isTextColumn(col)) {
    const text = textReader(col)
    for (let i = 0; i < columnLength(col); i++) {
      const s = text(i)
      if (s !== '') {
        nonNull++
        sum += s.length
      }
    }
  } else if (col.kind === 'int') {
    const d = col.data
    for (let i = 0; i < d.length; i++) {
      const v = d[i]
      if (v !== NA_INT) {
        nonNull++
        sum += v
      }
    }
  } else if (col.kind === 'bigint') {
    for (const v of col.data) {
      if (v !== NA_BIGINT) {
        nonNull++
        sum += Number(v)
      }
    }
  } else {
    const d = col.data
    for (let i = 0; i < d.length; i++) {
      const v = d[i]
      if (v === v) {
        nonNull++
        sum += v
      }
    }
  }
  return { name: name.toLowerCase(), nonNull, sum }
}

function orderedSum(col: ResultSet['columns'][number]): number {
  if (isTextColumn(col)) throw new Error('text order keys are not supported by the digest')
  let s = 0
  const d = col.kind === 'bigint' ? Float64Array.from(col.data, Number) : col.data
  for (let i = 0; i < d.length; i++) s += orderWeight(i) * d[i]
  return s
}

/** The digest of a ResultSet (ours, or sql.js through the product's api/sql executor). */
export function digestResult(r: ResultSet, orderKeys: readonly string[] = []): Digest {
  const columns = r.cols.map((c, i) => columnDigest(c.name, r.columns[i]))
  const ordered = orderKeys.map((k) => {
    const i = r.cols.findIndex((c) => c.name.toLowerCase() === k)
    if (i < 0) throw new Error(`order key ${k} is not in the result`)
    return orderedSum(r.columns[i])
  })
  return { rows: r.rowCount, columns, ordered }
}

/** Equal to rounding (sums of the same values added in another order). */
export function close(a: number, b: number): boolean {
  if (a === b) return true
  return Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)) + 1e-6
}

/** Differences between two digests, as readable lines; empty when they agree. */
export function compareDigests(expected: Digest, actual: Digest): string[] {
  const out: string[] = []
  if (expected.rows !== actual.rows) out.push(`rows ${actual.rows}, expected ${expected.rows}`)
  const names = (d: Digest) => d.columns.map((c) => c.name).join(',')
  if (names(expected) !== names(actual)) out.push(`columns [${names(actual)}], expected [${names(expected)}]`)
  for (const e of expected.columns) {
    const a = actual.columns.find((c) => c.name === e.name)
    if (!a) continue
    if (a.nonNull !== e.nonNull) out.push(`${e.name}: ${a.nonNull} non-N/A values, expected ${e.nonNull}`)
    if (!close(a.sum, e.sum)) out.push(`${e.name}: sum ${a.sum}, expected ${e.sum}`)
  }
  expected.ordered.forEach((e, i) => {
    if (!close(actual.ordered[i], e)) out.push(`order key #${i + 1}: weighted sum ${actual.ordered[i]}, expected ${e} (rows in another order)`)
  })
  return out
}
