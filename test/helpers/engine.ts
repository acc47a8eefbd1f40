/**
 * Runs macro queries in-process for engine tests: parse → expand → check → interpret, over
 * small tables built from plain arrays (null = N/A) in shared memory, like the gateway's.
 */
import type { ResultSet, TableInput } from '../../shared/protocol.js'
import { NA_BIGINT, NA_INT, type ColumnType } from '../../shared/table.js'
import { encodeStoredText } from '../../engine/storage/index.js'
import { parseQuery, tableRefs } from '../../engine/parse/index.js'
import { checkQuery } from '../../engine/check/index.js'
import { runOps } from '../../engine/interpret/index.js'
import { toResultSet } from '../../engine/parallel/wire.js'
import type { Column } from '../../engine/columns/types.js'
import { dataOf } from './columns.js'
import { shareDictionary } from '../../engine/columns/shared-dictionary.js'

export type Cell = number | bigint | string | null

export interface ColDef {
  readonly name: string
  readonly type: ColumnType
  readonly values: readonly Cell[]
}

/** A copy of the array in shared memory, as table columns are handed to workers. */
export function shared(array: Int32Array | Float64Array | BigInt64Array): SharedArrayBuffer {
  const sab = new SharedArrayBuffer(array.byteLength)
  new Uint8Array(sab).set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength))
  return sab
}

export function makeTable(path: string, cols: readonly ColDef[]): TableInput {
  const rows = cols[0]?.values.length ?? 0
  return {
    path,
    version: `v-${path}`,
    rows,
    title: path,
    columns: cols.map((c) => {
      const spec = { name: c.name, type: c.type }
      if (c.type === 'text') {
        const enc = encodeStoredText(c.values.map((v) => (v === null ? '' : String(v))))
        return { spec, buffer: shared(enc.codes), dict: shareDictionary(enc.dict) }
      }
      if (c.type === 'float') return { spec, buffer: shared(Float64Array.from(c.values, (v) => (v === null ? Number.NaN : Number(v)))) }
      if (c.type === 'bigint') return { spec, buffer: shared(BigInt64Array.from(c.values, (v) => (v === null ? NA_BIGINT : BigInt(v)))) }
      return { spec, buffer: shared(Int32Array.from(c.values, (v) => (v === null ? NA_INT : Number(v)))) }
    }),
  }
}

export function runXml(xml: string, tables: readonly TableInput[] = [], vars: Record<string, string> = {}): ResultSet {
  const ops = parseQuery(xml, vars)
  const byPath = new Map(tables.map((t) => [t.path, t]))
  for (const p of tableRefs(ops)) if (!byPath.has(p)) throw new Error(`test table ${p} missing`)
  const checked = checkQuery(ops, new Map(tables.map((t) => [t.path, t.columns.map((c) => c.spec)])))
  return toResultSet(runOps(checked.ops, byPath), 1e9)
}

/** The result as { column name: values } with null for N/A (what JSON would show). */
export function columnsOf(r: ResultSet): Record<string, Cell[]> {
  const out: Record<string, Cell[]> = {}
  r.cols.forEach((c, i) => {
    const col = r.columns[i]
    if (col.kind === 'bigint') {
      // A number where it is exact (what a JSON reader sees), a bigint past ±(2^53 − 1).
      out[c.name] = Array.from(col.data, (v) => (v === NA_BIGINT ? null : Number.isSafeInteger(Number(v)) ? Number(v) : v))
      return
    }
    out[c.name] = Array.from(dataOf(col) as ArrayLike<number | string>, (v) => {
      if (col.kind === 'int') return v === NA_INT ? null : (v as number)
      if (col.kind === 'float') return Number.isNaN(v) ? null : (v as number)
      return v as string
    })
  })
  return out
}

export const names = (r: ResultSet): string[] => r.cols.map((c) => c.name)

/** A table of engine columns (e.g. from engine/columns/random.ts), by name; text keeps its codes and dictionary. */
export function tableOfColumns(path: string, cols: Record<string, Column>): TableInput {
  const entries = Object.entries(cols)
  const first = entries[0]?.[1]
  const rows = first === undefined ? 0 : first.type === 'text' ? first.codes.length : first.data.length
  return {
    path,
    version: `v-${path}`,
    rows,
    title: path,
    columns: entries.map(([name, c]) => {
      const spec = { name, type: c.type }
      return c.type === 'text' ? { spec, buffer: shared(c.codes), dict: shareDictionary(c.dict) } : { spec, buffer: shared(c.data) }
    }),
  }
}
