/**
 * The benchmark's data: the demo generator's retail tables, plus two generated key columns on the
 * item table (`grp1k`, 1,000 groups, and `grp100k`, 100,000 groups) for the group-function and
 * large-tabulation queries. Every target is loaded from these same arrays.
 */
import type { TableColumnInput, TableInput } from '../shared/protocol.js'
import type { ColumnSpec } from '../shared/table.js'
import { makeRetailDemo } from '../engine/demo/index.js'
import { encodeStoredText } from '../engine/storage/index.js'
import type { ColumnValues } from '../engine/storage/index.js'
import type { StoredText } from '../engine/storage/dictionary.js'
import { shareDictionary } from '../engine/columns/shared-dictionary.js'

/**
 * A column's values as a generator made them: plain values, or text already encoded as the
 * storage layer keeps it (codes into a sorted dictionary whose code 0 is '', encodeStoredText's
 * form), which a generator of millions of rows writes straight into an Int32Array.
 */
export type BenchColumnValues = ColumnValues | StoredText

export const isEncodedText = (v: BenchColumnValues): v is StoredText => 'codes' in v && 'dict' in v

/** A text column's codes and dictionary, encoding plain values (encodeStoredText) or passing encoded ones on. */
export const storedText = (v: BenchColumnValues): StoredText => (isEncodedText(v) ? v : encodeStoredText(v as readonly string[]))

/** Plain values, decoding encoded text (for what needs one value per row, such as a SQLite image). */
export const plainValues = (v: BenchColumnValues): ColumnValues => (isEncodedText(v) ? Array.from(v.codes, (c) => v.dict[c]) : v)

/** One table of the benchmark as the generator made it (plus the key columns for the items). */
export interface BenchTable {
  /** Short SQL name: item, products, stores. */
  readonly name: string
  /** Dotted path the macro queries use. */
  readonly path: string
  readonly title: string
  readonly rows: number
  readonly columns: readonly ColumnSpec[]
  readonly data: readonly BenchColumnValues[]
}

export interface BenchData {
  readonly item: BenchTable
  readonly products: BenchTable
  readonly stores: BenchTable
}

const SHORT: Record<string, string> = {
  'pub.demo.retail.item': 'item',
  'pub.demo.retail.products': 'products',
  'pub.demo.retail.stores': 'stores',
}

/**
 * A well-mixed hash of the row number into 1..buckets, so the key columns have exactly the
 * intended number of distinct values (at 1M rows and up) in no particular row order.
 */
function bucketColumn(rows: number, buckets: number, salt: number): Int32Array {
  const out = new Int32Array(rows)
  for (let r = 0; r < rows; r++) {
    let h = Math.imul(r ^ salt, 0x9e3779b1)
    h ^= h >>> 15
    h = Math.imul(h, 0x85ebca6b)
    h ^= h >>> 13
    out[r] = 1 + ((h >>> 0) % buckets)
  }
  return out
}

/** The retail demo at `rows` line items, with the two benchmark key columns on the items. */
export function makeBenchData(rows: number): BenchData {
  const tables = makeRetailDemo({ rows })
  const byName = new Map<string, BenchTable>()
  for (const t of tables) {
    const name = SHORT[t.path]
    let columns: ColumnSpec[] = t.columns
    let data: ColumnValues[] = t.data
    if (name === 'item') {
      columns = [...columns, { name: 'grp1k', type: 'int', label: 'Group (1,000)' }, { name: 'grp100k', type: 'int', label: 'Group (100,000)' }]
      data = [...data, bucketColumn(rows, 1000, 0x1234), bucketColumn(rows, 100_000, 0x5678)]
    }
    byName.set(name, { name, path: t.path, title: t.title, rows: data[0].length, columns, data })
  }
  return { item: byName.get('item')!, products: byName.get('products')!, stores: byName.get('stores')! }
}

function sharedCopy(array: Int32Array | Float64Array | BigInt64Array): SharedArrayBuffer {
  const sab = new SharedArrayBuffer(array.byteLength)
  new Uint8Array(sab).set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength))
  return sab
}

/**
 * The table as the gateway hands it to the engine: every column in a SharedArrayBuffer (text as
 * dictionary codes plus the dictionary), exactly what TableCache + api/run build from disk.
 */
export function toTableInput(t: BenchTable): TableInput {
  const columns: TableColumnInput[] = t.columns.map((spec, i) => {
    const values = t.data[i]
    if (spec.type === 'text') {
      const { codes, dict } = storedText(values)
      return { spec, buffer: sharedCopy(codes), dict: shareDictionary(dict) }
    }
    return { spec, buffer: sharedCopy(values as Int32Array | Float64Array | BigInt64Array) }
  })
  return { path: t.path, version: `bench-${t.name}-${t.rows}`, rows: t.rows, title: t.title, columns }
}

/** Bytes of a TableInput's column buffers (dictionaries not counted). */
export function tableBytes(t: TableInput): number {
  return t.columns.reduce((n, c) => n + c.buffer.byteLength, 0)
}
