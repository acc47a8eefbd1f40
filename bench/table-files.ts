/**
 * The bench item table written as one table version on disk, exactly as the storage layer lays it
 * out (a binary file per column, text as codes plus a dictionary, meta.json last), for the
 * benchmarks that measure reading tables back: the memory line and the cold table open.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { TableMeta } from '../shared/table.js'
import { columnFile, dictFile, encodeText, META_FILE, newVersionId, SQLITE_FILE, versionDir } from '../engine/storage/index.js'
import { makeBenchData } from './data.js'

/** Generates the item table of `rows` rows, writes it under dataDir and answers its version id. */
export async function writeBenchItemTable(dataDir: string, rows: number): Promise<string> {
  const { item } = makeBenchData(rows)
  const version = newVersionId()
  const dir = versionDir(dataDir, version)
  await mkdir(dir, { recursive: true })
  for (let i = 0; i < item.columns.length; i++) {
    const values = item.data[i]
    if (item.columns[i].type === 'text') {
      const { codes, dict } = encodeText(values as readonly string[])
      await writeFile(join(dir, columnFile(i)), new Uint8Array(codes.buffer))
      await writeFile(join(dir, dictFile(i)), JSON.stringify(dict))
    } else {
      const a = values as Int32Array | Float64Array
      await writeFile(join(dir, columnFile(i)), new Uint8Array(a.buffer, a.byteOffset, a.byteLength))
    }
  }
  const meta: TableMeta = { version, rows: item.rows, columns: item.columns, sqlite: SQLITE_FILE, createdAt: new Date().toISOString() }
  await writeFile(join(dir, META_FILE), JSON.stringify(meta))
  return version
}
