/** The suite digest of a tabula answer (a ResultSet, as runOnPool returns it). */
import type { ResultSet } from '../../shared/protocol.js'
import { NA_BIGINT, NA_INT } from '../../shared/table.js'
import { columnLength, isTextColumn, textReader } from '../../shared/result-text.js'
import { digestResult } from '../digest.js'
import { orderedSum, orderKeyIndex, SAMPLE_ROWS, type Kind, type SuiteDigest } from './digest.js'

type Column = ResultSet['columns'][number]

/** Row r of a column: a string, a number, or null for N/A. */
function valueReader(col: Column): (r: number) => string | number | null {
  if (isTextColumn(col)) {
    const text = textReader(col)
    return (r) => text(r) || null
  }
  if (col.kind === 'int') return (r) => (col.data[r] === NA_INT ? null : col.data[r])
  if (col.kind === 'bigint') return (r) => (col.data[r] === NA_BIGINT ? null : Number(col.data[r]))
  return (r) => (col.data[r] === col.data[r] ? col.data[r] : null)
}

function* rowsOf(read: (r: number) => unknown, n: number): Iterable<unknown> {
  for (let r = 0; r < n; r++) yield read(r)
}

const KIND: Record<string, Kind> = { i: 'int', j: 'int', f: 'float', a: 'text' }

export function digestOurs(r: ResultSet, orderKeys: readonly string[]): SuiteDigest {
  const base = digestResult(r, [])
  const readers = r.columns.map(valueReader)
  const ordered = orderKeys.map((k) => {
    const i = orderKeyIndex(
      r.cols.map((c) => c.name),
      k,
    )
    return orderedSum(rowsOf(readers[i], columnLength(r.columns[i])))
  })
  const sample: string[] = []
  for (let row = 0; row < Math.min(SAMPLE_ROWS, r.rowCount); row++) sample.push(readers.map((read) => String(read(row) ?? 'N/A')).join(' | '))
  return { ...base, ordered, kinds: r.cols.map((c) => KIND[c.type]), sample }
}
