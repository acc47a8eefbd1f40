/**
 * Bench tables written as table versions on disk, exactly as the storage layer lays them out (a
 * binary file per column, text as codes plus a dictionary, meta.json last; the SQLite image is
 * built by the first query that needs it, as for any version): for the benchmarks that read tables back (the memory line, the
 * cold table open) and the suite's HTTP runs, whose gateway then loads them as it loads any table.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { TableMeta } from '../shared/table.js'
import { columnFile, dictFile, META_FILE, newVersionId, versionDir } from '../engine/storage/index.js'
import { makeBenchData, storedText, type BenchTable } from './data.js'

/** Writes one table version of `table` under dataDir and answers its meta. */
export async function writeTableFiles(dataDir: string, table: BenchTable): Promise<TableMeta> {
  const version = newVersionId()
  const dir = versionDir(dataDir, version)
  await mkdir(dir, { recursive: true })
  for (let i = 0; i < table.columns.length; i++) {
    const values = table.data[i]
    if (table.columns[i].type === 'text') {
      const { codes, dict } = storedText(values)
      await writeFile(join(dir, columnFile(i)), new Uint8Array(codes.buffer))
      await writeFile(join(dir, dictFile(i)), JSON.stringify(dict))
    } else {
      const a = values as Int32Array | Float64Array | BigInt64Array
      await writeFile(join(dir, columnFile(i)), new Uint8Array(a.buffer, a.byteOffset, a.byteLength))
    }
  }
  // int64: a bigint column's file holds 64-bit integers (BigInt64Array), as every version written now does.
  const meta: TableMeta = { version, rows: table.rows, columns: table.columns, createdAt: new Date().toISOString(), int64: true }
  await writeFile(join(dir, META_FILE), JSON.stringify(meta))
  return meta
}

/** Generates the item table of `rows` rows, writes it under dataDir and answers its version id. */
export async function writeBenchItemTable(dataDir: string, rows: number): Promise<string> {
  return (await writeTableFiles(dataDir, makeBenchData(rows).item)).version
}
