/**
 * SQLite images only when needed: writes leave them out, the first api/sql query that falls back
 * to sql.js builds the image of each table it reads, and every later query (on any gateway
 * sharing DATA_DIR) uses that file. Tables written with an image by earlier releases keep it.
 */
import { expect } from 'chai'
import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import initSqlJs from 'sql.js'
import { forEachStore } from '../helpers/suites.js'
import { dbmOk } from '../helpers/dbm.js'
import { commitTable } from '../../gateway/catalog/tables.js'
import { KEYS, parseRecord, type TableRecord } from '../../gateway/catalog/records.js'
import {
  buildSqliteImage,
  hasSqliteImage,
  META_FILE,
  sqliteImagePath,
  tablesDir,
  TEMP_PREFIX,
  versionDir,
  writeTableVersion,
} from '../../engine/storage/index.js'

const N = Array.from({ length: 200 }, (_, i) => i)
const T = N.map((i) => `t${i % 17}`)

forEachStore('SQLite images built by the first fallback query', (svc) => {
  let cookie: string
  before(async () => {
    cookie = await svc().login()
  })

  const sql = (text: string) => svc().http.post('/v1/api/sql:json').set('Cookie', cookie).send({ sql: text })
  const versionOf = async (path: string): Promise<string> => parseRecord<TableRecord>(await svc().deps.store.get(KEYS.table(path)))!.version
  const imageOf = (version: string) => sqliteImagePath(svc().dataDir, version)
  const upload = (name: string) => dbmOk(svc(), cookie, 'upload_table', { path: `uploads.admin.${name}`, data: { n: N, t: T } })
  /** Outside the compiled subset (a subquery in WHERE): answered by sql.js. */
  const fallback = (path: string, below: number) => `select n, t from ${path} where n in (select n from ${path} where n < ${below}) order by n`

  async function expectFallback(text: string, rows: number) {
    const res = await sql(text)
    expect(res.status, res.text).to.equal(200)
    expect(res.headers['x-tabula-engine']).to.equal('sqlite')
    expect(res.body.n).to.have.length(rows)
    return res.body as { n: number[]; t: string[] }
  }

  it('writes no image on upload_table, on a chunked upload or on copy_table, nor for a compiled query', async () => {
    await upload('img_written')
    const chunked = await dbmOk<{ upload: string }>(svc(), cookie, 'upload_begin', { path: 'uploads.admin.img_chunked' })
    await dbmOk(svc(), cookie, 'upload_chunk', { upload: chunked.upload, seq: 1, csv: 'n,t\n1,a\n2,b\n' })
    await dbmOk(svc(), cookie, 'upload_commit', { upload: chunked.upload })
    await dbmOk(svc(), cookie, 'copy_table', { from: 'uploads.admin.img_written', to: 'uploads.admin.img_copied' })
    const compiled = await sql('select count(*) n from uploads.admin.img_written')
    expect(compiled.headers['x-tabula-engine']).to.equal('columnar')
    for (const name of ['img_written', 'img_chunked', 'img_copied']) {
      const version = await versionOf(`uploads.admin.${name}`)
      expect(await hasSqliteImage(svc().dataDir, version), name).to.equal(false)
      expect(await readdir(versionDir(svc().dataDir, version)), name).not.to.include('data.sqlite')
    }
  })

  it('builds the image on the first fallback query and reuses the file for the next one', async () => {
    await upload('img_once')
    const path = 'uploads.admin.img_once'
    const version = await versionOf(path)
    const first = await expectFallback(fallback(path, 5), 5)
    expect(first).to.deep.equal({ n: [0, 1, 2, 3, 4], t: ['t0', 't1', 't2', 't3', 't4'] })
    const built = await stat(imageOf(version))
    // Another question (so no kept result answers it), which on a cluster goes to another gateway.
    await expectFallback(fallback(path, 7), 7)
    await expectFallback(fallback(path, 9), 9)
    const after = await stat(imageOf(version))
    expect([after.ino, after.mtimeMs]).to.deep.equal([built.ino, built.mtimeMs])
  })

  it('answers from the image of a table written by an earlier release, without rebuilding it', async () => {
    // Written as the writers did before: data.sqlite in the version folder, named in meta.json.
    const { store, config } = svc().deps
    const input = { columns: [{ name: 'n', type: 'int' as const }], data: [Int32Array.from(N)] }
    const meta = await writeTableVersion(config.dataDir, input)
    await writeFile(join(versionDir(config.dataDir, meta.version), META_FILE), JSON.stringify({ ...meta, sqlite: 'data.sqlite' }))
    await writeFile(imageOf(meta.version), await buildSqliteImage(input.columns, input.data))
    const before = await stat(imageOf(meta.version))
    await commitTable(store, { path: 'uploads.admin.img_old', owner: 'admin' }, meta)
    const res = await sql('select n from uploads.admin.img_old where n in (select n from uploads.admin.img_old where n > 196) order by n')
    expect(res.status, res.text).to.equal(200)
    expect(res.headers['x-tabula-engine']).to.equal('sqlite')
    expect(res.body).to.deep.equal({ n: [197, 198, 199] })
    const compiled = await sql('select sum(n) s from uploads.admin.img_old')
    expect(compiled.body).to.deep.equal({ s: [19900] })
    const after = await stat(imageOf(meta.version))
    expect([after.ino, after.mtimeMs]).to.deep.equal([before.ino, before.mtimeMs])
  })

  it('gives two concurrent first fallback queries the same answer and leaves one whole image', async () => {
    await upload('img_race')
    const path = 'uploads.admin.img_race'
    const version = await versionOf(path)
    // Two texts for one question, so neither waits for the other's kept result.
    const [a, b] = await Promise.all([expectFallback(fallback(path, 50), 50), expectFallback(`${fallback(path, 50)} limit 1000`, 50)])
    expect(b).to.deep.equal(a)
    const SQL = await initSqlJs()
    const db = new SQL.Database(await readFile(imageOf(version)))
    try {
      expect(db.exec('select count(*), sum(n), count(distinct t) from data')[0].values[0]).to.deep.equal([200, 19900, 17])
    } finally {
      db.close()
    }
    expect((await readdir(tablesDir(svc().dataDir))).filter((n) => n.startsWith(TEMP_PREFIX))).to.deep.equal([])
  })
})
