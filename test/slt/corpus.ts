/**
 * The vendored sqllogictest corpus (test/slt/corpus/, gzipped; see its README.md for where it
 * comes from), and a gateway to run it against: an in-process service on the memory store,
 * logged in as the administrator, with one folder a script for its tables.
 */
import { readdir, readFile } from 'node:fs/promises'
import { gunzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { join, relative } from 'node:path'
import { startTestService } from '../helpers/service.js'
import { gatewayOf, type Gateway } from './gateway.js'

/** The corpus folder in the source tree (the .gz files are not compiled into dist/). */
export const CORPUS_DIR = fileURLToPath(new URL('../../../test/slt/corpus/', import.meta.url))

/** The scripts' names (`select1.test`, `evidence/in1.test` …), sorted. */
export async function corpusScripts(): Promise<string[]> {
  const entries = await readdir(CORPUS_DIR, { recursive: true })
  return entries
    .filter((e) => e.endsWith('.test.gz'))
    .map((e) => relative(CORPUS_DIR, join(CORPUS_DIR, e)).slice(0, -'.gz'.length))
    .sort()
}

export async function readScript(name: string): Promise<string> {
  return gunzipSync(await readFile(join(CORPUS_DIR, `${name}.gz`))).toString('utf8')
}

export interface SltService {
  readonly gateway: Gateway
  /** A new empty folder for one script's tables. */
  newFolder(): Promise<string>
  close(): Promise<void>
}

export async function startSltService(): Promise<SltService> {
  const svc = await startTestService('memory')
  const gateway = gatewayOf(svc.http, await svc.login())
  let folders = 0
  const makeDir = async (path: string): Promise<void> => {
    const reply = await gateway.dbm('make_dir', { path })
    if (reply.rc !== 0) throw new Error(`make_dir ${path}: ${reply.msg}`)
  }
  await makeDir('slt')
  return {
    gateway,
    async newFolder() {
      const path = `slt.s${++folders}`
      await makeDir(path)
      return path
    },
    close: () => svc.close(),
  }
}
