/**
 * Data through the CLI, as a child process against a gateway process: a CSV uploaded in several
 * chunks, queried with sql and run, downloaded again and compared value by value with what was
 * uploaded (a chunked upload that mixed up rows or dictionary codes shows here), in each output
 * format.
 */
import { expect } from 'chai'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { csvRows } from '../helpers/csv-rows.js'
import { ADMIN_PASSWORD, cli, sampleCsv, startGateway, type Gateway } from '../client/helpers.js'

describe('client: CLI upload, query, download', function () {
  this.timeout(90_000)
  let g: Gateway
  let dir: string
  let env: Record<string, string>
  const ROWS = 3000
  before(async () => {
    g = await startGateway()
    dir = await mkdtemp(join(tmpdir(), 'tabula-cli-data-'))
    env = { TABULA_CONFIG_DIR: dir }
    const r = await cli(['login', '--url', g.url, '--user', 'admin'], { ...env, TABULA_PASSWORD: ADMIN_PASSWORD })
    expect(r.code, r.stderr).to.equal(0)
    await writeFile(join(dir, 'sample.csv'), sampleCsv(ROWS))
  })
  after(async () => {
    await g?.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('uploads a CSV in several chunks, with progress on stderr, and prints the table', async () => {
    // 700 rows a chunk: five chunks, the last one short.
    const r = await cli(['upload', join(dir, 'sample.csv'), 'sample', '--chunk-rows', '700'], env)
    expect(r.code, r.stderr).to.equal(0)
    expect(r.stderr).to.match(/rows\/s/)
    expect(r.stderr).to.contain(`Saved ${ROWS.toLocaleString('en-US')} rows as uploads.admin.sample`)
    expect(JSON.parse(r.stdout)).to.deep.equal({ path: 'uploads.admin.sample', rows: ROWS, cols: 'id:int,name:text,price:float,day:date,note:text' })
  })

  it('queries the upload with sql and run', async () => {
    const q = await cli(['sql', 'select count(*) n, count(distinct name) names, sum(price) total from uploads.admin.sample'], env)
    expect(q.code, q.stderr).to.equal(0)
    const total = Array.from({ length: ROWS }, (_, i) => Number((i * 0.25).toFixed(2))).reduce((a, b) => a + b, 0)
    expect(JSON.parse(q.stdout)).to.deep.equal([{ n: ROWS, names: 97, total }])
    const r = await cli(['run', '-', '--format', 'csv'], env, '<base table="uploads.admin.sample"/><sel value="id=500 | id=2"/><colord cols="id,name,note"/>')
    expect(r.code, r.stderr).to.equal(0)
    expect(csvRows(r.stdout)).to.deep.equal([
      ['id', 'name', 'note'],
      ['2', 'n2', 'note 2'],
      ['500', 'n15', 'row 500, "quoted"\nsecond line'],
    ])
  })

  it('downloads the table as CSV equal to the upload, value by value', async () => {
    const out = join(dir, 'back.csv')
    const r = await cli(['download', 'uploads.admin.sample', out, '--page-rows', '1000'], env)
    expect(r.code, r.stderr).to.equal(0)
    const sent = csvRows(sampleCsv(ROWS))
    const got = csvRows(await readFile(out, 'utf8'))
    expect(got.length).to.equal(sent.length)
    expect(got[0]).to.deep.equal(sent[0])
    for (let i = 1; i < sent.length; i++) {
      const [id, name, price, day, note] = sent[i]
      // Numbers come back as numbers (0.50 → 0.5), dates as they were sent (YYYY-MM-DD).
      const expected = [id, name, String(Number(price)), day, note]
      expect(got[i], `row ${i}`).to.deep.equal(expected)
    }
  })

  it('uploads its own download again with the same types, as CSV, Parquet and Arrow', async () => {
    for (const ext of ['csv', 'parquet', 'arrow']) {
      const file = join(dir, `back.${ext}`)
      const down = await cli(['download', 'uploads.admin.sample', file], env)
      expect(down.code, down.stderr).to.equal(0)
      const up = await cli(['upload', file, `again_${ext}`, '--chunk-mb', '0.05'], env)
      expect(up.code, up.stderr).to.equal(0)
      expect(JSON.parse(up.stdout), ext).to.deep.equal({
        path: `uploads.admin.again_${ext}`,
        rows: ROWS,
        cols: 'id:int,name:text,price:float,day:date,note:text',
      })
      const same = await cli(
        [
          'sql',
          `select count(*) n from uploads.admin.sample a join uploads.admin.again_${ext} b on a.id = b.id and coalesce(a.day, 0) = coalesce(b.day, 0) and coalesce(a.note, '') = coalesce(b.note, '') and coalesce(a.price, -1) = coalesce(b.price, -1) and a.name = b.name`,
        ],
        env,
      )
      expect(JSON.parse(same.stdout), ext).to.deep.equal([{ n: ROWS }])
    }
  })

  it('prints results as a table, JSON or CSV', async () => {
    const q = 'select id, name from uploads.admin.sample where id < 2 order by id'
    const table = await cli(['sql', q, '--format', 'table'], env)
    expect(table.stdout).to.equal('id  name\n--  ----\n 0  n0\n 1  n1\n')
    const json = await cli(['sql', q, '--format', 'json'], env)
    expect(JSON.parse(json.stdout)).to.deep.equal([
      { id: 0, name: 'n0' },
      { id: 1, name: 'n1' },
    ])
    const csv = await cli(['sql', q, '--format', 'csv'], env)
    expect(csv.stdout).to.equal('id,name\n0,n0\n1,n1\n')
    const bad = await cli(['sql', q, '--format', 'xml'], env)
    expect(bad.code).to.equal(2)
  })

  it('takes column types from --types, and refuses a name the header lacks', async () => {
    await writeFile(join(dir, 'typed.csv'), 'code,amount\n007,1\n010,2\n')
    const r = await cli(['upload', join(dir, 'typed.csv'), 'typed', '--types', 'code=text,amount=float'], env)
    expect(r.code, r.stderr).to.equal(0)
    const q = await cli(['sql', 'select code, amount from uploads.admin.typed'], env)
    // Declared text keeps the leading zeros that an inferred int would lose.
    expect(JSON.parse(q.stdout)).to.deep.equal([
      { code: '007', amount: 1 },
      { code: '010', amount: 2 },
    ])
    const info = await cli(['dbm', 'get_table_info', '{"path": "uploads.admin.typed", "include": "cols"}'], env)
    expect(JSON.parse(info.stdout).cols.map((c: { type: string }) => c.type)).to.deep.equal(['text', 'float'])
    const wrong = await cli(['upload', join(dir, 'typed.csv'), 'typed2', '--types', 'missing=int'], env)
    expect(wrong.code).to.equal(2)
  })

  it('refuses to overwrite without --mode replace (exit 1), and appends with --mode append', async () => {
    await writeFile(join(dir, 'more.csv'), 'id,name,price,day,note\n9999,zz,1.5,2025-01-01,new\n')
    const again = await cli(['upload', join(dir, 'more.csv'), 'sample'], env)
    expect(again.code).to.equal(1)
    expect(again.stderr).to.contain('table_exists')
    const append = await cli(['upload', join(dir, 'more.csv'), 'sample', '--mode', 'append'], env)
    expect(append.code, append.stderr).to.equal(0)
    const q = await cli(
      [
        'sql',
        'select count(*) n, max(id) m, (select name from uploads.admin.sample where id = 2) two, (select name from uploads.admin.sample where id = 9999) last from uploads.admin.sample',
      ],
      env,
    )
    expect(JSON.parse(q.stdout)).to.deep.equal([{ n: ROWS + 1, m: 9999, two: 'n2', last: 'zz' }])
  })

  it('lists folders with ls and runs dbm transactions', async () => {
    const ls = await cli(['ls', 'uploads.admin'], env)
    expect(ls.code, ls.stderr).to.equal(0)
    expect((JSON.parse(ls.stdout) as { name: string }[]).map((r) => r.name)).to.include('sample')
    const mk = await cli(['dbm', 'make_dir', '{"path": "uploads.admin.sub"}'], env)
    expect(mk.code, mk.stderr).to.equal(0)
    const dup = await cli(['dbm', 'make_dir', '{"path": "uploads.admin.sub"}'], env)
    expect(dup.code).to.equal(1)
    expect(dup.stderr).to.contain('already_exists')
    const badJson = await cli(['dbm', 'make_dir', '{path'], env)
    expect(badJson.code).to.equal(2)
  })
})
