/**
 * Text result columns come in two shapes (shared/protocol.ts): strings per row (`text`), or
 * dictionary codes per row (`coded`). These helpers let code that reads text not care which,
 * and keep the per-row work of a coded column to one array index.
 */
import type { CodedTextColumn, ResultColumn } from './protocol.js'

export type TextColumn = Extract<ResultColumn, { kind: 'text' }> | CodedTextColumn

export const isTextColumn = (c: ResultColumn): c is TextColumn => c.kind === 'text' || c.kind === 'coded'

/** A reader of one text column's rows, built once so a row loop stays flat. */
export function textReader(c: TextColumn): (row: number) => string {
  if (c.kind === 'text') {
    const data = c.data
    return (row) => data[row]
  }
  const { codes, dict } = c
  return (row) => dict[codes[row]]
}

/** Rows from … to-1 as strings (made for a coded column; a copy for a plain one). */
export function textSlice(c: TextColumn, from = 0, to = c.kind === 'text' ? c.data.length : c.codes.length): string[] {
  if (c.kind === 'text') return c.data.slice(from, to)
  const out = new Array<string>(Math.max(0, to - from))
  const { codes, dict } = c
  for (let r = from; r < to; r++) out[r - from] = dict[codes[r]]
  return out
}

/** Rows from … to-1 of the column, same shape, without copying row data where it can be viewed. */
export function sliceColumn(c: ResultColumn, from: number, to: number): ResultColumn {
  switch (c.kind) {
    case 'text':
      return { kind: 'text', data: c.data.slice(from, to) }
    case 'coded':
      return { kind: 'coded', codes: c.codes.subarray(from, to), dict: c.dict }
    case 'int':
      return { kind: 'int', data: c.data.subarray(from, to) }
    case 'float':
      return { kind: 'float', data: c.data.subarray(from, to) }
    case 'bigint':
      return { kind: 'bigint', data: c.data.subarray(from, to) }
  }
}

/** Rows of the column. */
export function columnLength(c: ResultColumn): number {
  return c.kind === 'coded' ? c.codes.length : c.data.length
}

/**
 * A per-code cache of some function of the dictionary's strings (their JSON text, their UTF-8
 * length), filled as codes are met: a page of 100 rows must not pay for a million-entry dictionary.
 */
export function perCode<T>(dict: readonly string[], f: (s: string) => T): (code: number) => T {
  const seen = new Array<T | undefined>(dict.length)
  return (code) => {
    let v = seen[code]
    if (v === undefined) seen[code] = v = f(dict[code])
    return v
  }
}
