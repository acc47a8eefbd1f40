/**
 * A row range put together from the decoded chunks that cover it: each column is copied into
 * arrays of exactly the range's length, so the answer holds only the rows asked for (a 100-row
 * page does not pin two 4096-row chunks in memory).
 */
import type { PlainColumn, ResultColumn } from '../../../../shared/protocol.js'
import type { ColumnKind } from './codec.js'
import { columnLength, isTextColumn, textReader } from '../../../../shared/result-text.js'

/** A decoded chunk and the result row its first row is. */
export interface DecodedChunk {
  readonly start: number
  readonly columns: readonly ResultColumn[]
}

/**
 * The rows [from, to) of each column, taken from chunks that together cover the range, in order.
 * Chunks need not be limited to the range; only their overlap with it is copied.
 */
export function assembleRange(kinds: readonly ColumnKind[], chunks: readonly DecodedChunk[], from: number, to: number): PlainColumn[] {
  return kinds.map((kind, c) => {
    const out = emptyColumn(kind, to - from)
    for (const chunk of chunks) {
      const source = chunk.columns[c]
      const lo = Math.max(from, chunk.start)
      const hi = Math.min(to, chunk.start + columnLength(source))
      if (hi > lo) copyRows(source, lo - chunk.start, hi - chunk.start, out, lo - from)
    }
    return out
  })
}

/** A column of the kind with `rows` rows (zeros or empty strings until filled). */
export function emptyColumn(kind: ColumnKind, rows: number): PlainColumn {
  switch (kind) {
    case 'int':
      return { kind, data: new Int32Array(rows) }
    case 'float':
      return { kind, data: new Float64Array(rows) }
    case 'bigint':
      return { kind, data: new BigInt64Array(rows) }
    case 'text':
      return { kind, data: new Array<string>(rows).fill('') }
  }
}

/** Copies source rows [from, to) into target starting at row `at`; both columns have the same kind. */
function copyRows(source: ResultColumn, from: number, to: number, target: PlainColumn, at: number): void {
  if (isTextColumn(source)) {
    const out = target.data as string[]
    const text = textReader(source)
    for (let i = from; i < to; i++) out[at + i - from] = text(i)
  } else {
    ;(target.data as Int32Array).set(source.data.subarray(from, to) as Int32Array, at)
  }
}
