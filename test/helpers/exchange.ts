/**
 * What the exchange-format tests share: reading a response as bytes, and DuckDB (in process, in
 * memory) reading a file back, with its column types and its values as JSON-ready objects.
 */
import type { DuckDBConnection } from '@duckdb/node-api'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Test } from 'supertest'

/** The response with its body as bytes, whatever its type. */
export function asBytes(req: Test): Test {
  return req.buffer(true).parse((res, done) => {
    const parts: Buffer[] = []
    res.on('data', (c: Buffer) => parts.push(c))
    res.on('end', () => done(null, Buffer.concat(parts)))
  })
}

export interface DuckTable {
  readonly names: string[]
  readonly types: string[]
  readonly rows: Record<string, unknown>[]
}

/** A DuckDB connection and a folder for files, for the length of a suite. */
export class Duck {
  private constructor(
    readonly conn: DuckDBConnection,
    readonly dir: string,
  ) {}

  static async open(): Promise<Duck> {
    const { DuckDBInstance } = await import('@duckdb/node-api')
    const conn = await (await DuckDBInstance.create(':memory:')).connect()
    return new Duck(conn, await mkdtemp(join(tmpdir(), 'tabula-exchange-')))
  }

  /** The path of a file in the folder. */
  file(name: string): string {
    return join(this.dir, name)
  }

  /** Writes bytes to a file of the folder and returns its path. */
  async put(name: string, bytes: Uint8Array): Promise<string> {
    const path = this.file(name)
    await writeFile(path, bytes)
    return path
  }

  async query(sql: string): Promise<DuckTable> {
    const r = await this.conn.runAndReadAll(sql)
    return { names: r.columnNames(), types: r.columnTypes().map(String), rows: r.getRowObjectsJson() as Record<string, unknown>[] }
  }

  async close(): Promise<void> {
    this.conn.closeSync()
    await rm(this.dir, { recursive: true, force: true })
  }
}

/** A file path as a DuckDB string literal. */
export const sqlString = (s: string): string => `'${s.replaceAll("'", "''")}'`
