/**
 * Where `sql` and `run` take their query from (argument, -f FILE, `-`, a pipe) and how they write
 * the result (a table with the columns' display formats, JSON, JSON lines, CSV, -o FILE), as a
 * child process against a gateway process. Expected values come from the service itself
 * (through the client library), never from numbers written here.
 */
import { expect } from 'chai'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { tableFromIPC } from 'apache-arrow'
import { parquetReadObjects } from 'hyparquet'
import type { Client } from '../../client/index.js'
import { csvRows } from '../helpers/csv-rows.js'
import { ADMIN_PASSWORD, adminClient, cli, startGateway, type Gateway } from '../client/helpers.js'

const SUMS = 'select store, sum(sales) total from pub.demo.retail.item group by store order by store'
const ITEMS = '<base table="pub.demo.retail.item"/><sel value="trans<4"/><colord cols="trans,date,sales,payment"/>'

describe('client: CLI query input and output formats', function () {
  this.timeout(60_000)
  let g: Gateway
  let dir: string
  let env: Record<string, string>
  let client: Client
  before(async () => {
    g = await startGateway()
    dir = await mkdtemp(join(tmpdir(), 'tabula-cli-query-'))
    env = { TABULA_CONFIG_DIR: dir }
    const r = await cli(['login', '--url', g.url, '--user', 'admin'], { ...env, TABULA_PASSWORD: ADMIN_PASSWORD })
    expect(r.code, r.stderr).to.equal(0)
    client = await adminClient(g)
  })
  after(async () => {
    await g?.close()
    await rm(dir, { recursive: true, force: true })
  })

  describe('input', () => {
    it('reads SQL from the argument, -f FILE, -f -, - and a pipe', async () => {
      await writeFile(join(dir, 'q.sql'), 'select 6 * 7 as x\n')
      // One after another: a session runs at most MAX_QUERIES_PER_SESSION queries at once.
      const runs: [string[], string?][] = [
        [['sql', 'select 6 * 7 as x']],
        [['sql', '-f', join(dir, 'q.sql')]],
        [['sql', '-f', '-'], 'select 6 * 7 as x'],
        [['sql', '-'], 'select 6 * 7 as x'],
        [['sql'], 'select 6 * 7 as x;'],
      ]
      for (const [args, input] of runs) {
        const r = await cli(args, env, input)
        expect(r.code, r.stderr).to.equal(0)
        expect(JSON.parse(r.stdout)).to.deep.equal([{ x: 42 }])
      }
    })

    it('reads a macro query from a file, -f FILE, the argument itself, or a pipe', async () => {
      const xml = '<base table="pub.demo.retail.stores"/><sel value="store=3"/><colord cols="store"/>'
      await writeFile(join(dir, 'q.xml'), xml)
      const runs: [string[], string?][] = [[['run', join(dir, 'q.xml')]], [['run', '-f', join(dir, 'q.xml')]], [['run', xml]], [['run'], xml]]
      for (const [args, input] of runs) {
        const r = await cli(args, env, input)
        expect(r.code, r.stderr).to.equal(0)
        expect(JSON.parse(r.stdout)).to.deep.equal([{ store: 3 }])
      }
    })

    it('refuses a query given twice, an empty one and a missing file with exit 2 and what to fix', async () => {
      const both = await cli(['sql', 'select 1', '-f', join(dir, 'q.sql')], env)
      expect(both.code).to.equal(2)
      expect(both.stderr).to.contain('not both')
      const empty = await cli(['sql'], env, '  \n')
      expect(empty.code).to.equal(2)
      expect(empty.stderr).to.contain('The query is empty')
      const missing = await cli(['run', '-f', join(dir, 'nope.xml')], env)
      expect(missing.code).to.equal(2)
      expect(missing.stderr).to.contain(`Cannot read ${join(dir, 'nope.xml')}: no such file`)
    })
  })

  describe('output', () => {
    it("prints tables with the columns' display formats, as the service shows them", async () => {
      const r = await cli(['run', ITEMS, '--format', 'table'], env)
      expect(r.code, r.stderr).to.equal(0)
      const shown = await client.run(ITEMS, { format: 'json.rows', params: { values_: 'formatted' } })
      const raw = await client.run(ITEMS, { format: 'json.rows' })
      const lines = r.stdout.trimEnd().split('\n')
      expect(lines[0].split(/\s+/)).to.deep.equal(['trans', 'date', 'sales', 'payment'])
      expect(lines).to.have.length(2 + shown.rows.length)
      shown.rows.forEach((row, i) => expect(lines[2 + i].trim().split(/\s{2,}/)).to.deep.equal(row))
      // The formats did something: dates and currency are not the stored numbers.
      expect(shown.rows[0][1]).not.to.equal(String(raw.rows[0][1]))
      expect(String(shown.rows[0][2])).to.match(/^\$/)
    })

    it('never shows float noise in a table; JSON keeps the stored value unless --values formatted', async () => {
      const raw = await client.sql(SUMS, { format: 'json.rows' })
      const noisy = raw.rows.find((row) => /\.\d{5,}/.test(String(row[1])))
      expect(noisy, 'some sum carries float noise').to.not.equal(undefined)
      const table = await cli(['sql', SUMS, '--format', 'table'], env)
      expect(table.code, table.stderr).to.equal(0)
      expect(table.stdout).not.to.contain(String(noisy![1]))
      const json = await cli(['sql', SUMS], env)
      expect(JSON.parse(json.stdout)).to.deep.equal(raw.rows.map(([store, total]) => ({ store, total })))
      const formatted = await cli(['sql', SUMS, '--values', 'formatted'], env)
      const shown = await client.sql(SUMS, { format: 'json.rows', params: { values_: 'formatted' } })
      expect(JSON.parse(formatted.stdout)).to.deep.equal(shown.rows.map(([store, total]) => ({ store, total })))
      const bad = await cli(['sql', SUMS, '--values', 'pretty'], env)
      expect(bad.code).to.equal(2)
      expect(bad.stderr).to.contain('--values takes raw or formatted')
    })

    it('writes JSON lines: one row object a line', async () => {
      const r = await cli(['sql', SUMS, '--format', 'jsonl'], env)
      expect(r.code, r.stderr).to.equal(0)
      const raw = await client.sql(SUMS, { format: 'json.rows' })
      const lines = r.stdout.trimEnd().split('\n')
      expect(lines.map((l) => JSON.parse(l))).to.deep.equal(raw.rows.map(([store, total]) => ({ store, total })))
    })

    it('writes CSV with RFC 4180 quoting: commas, quotes and line breaks in values, N/A empty', async () => {
      const sql = `select 'a,"b"' || char(10) || 'c' as t, null as n, 1.5 as f, 'plain' as p`
      const r = await cli(['sql', sql, '--format', 'csv'], env)
      expect(r.code, r.stderr).to.equal(0)
      expect(r.stdout).to.equal('t,n,f,p\n"a,""b""\nc",,1.5,plain\n')
      expect(csvRows(r.stdout)).to.deep.equal([
        ['t', 'n', 'f', 'p'],
        ['a,"b"\nc', '', '1.5', 'plain'],
      ])
    })

    it('writes to -o FILE in the format its extension names, or --format', async () => {
      const csv = join(dir, 'out.csv')
      const r = await cli(['sql', SUMS, '-o', csv], env)
      expect(r.code, r.stderr).to.equal(0)
      expect(r.stdout).to.equal('')
      const raw = await client.sql(SUMS, { format: 'json.rows' })
      expect(csvRows(await readFile(csv, 'utf8'))).to.deep.equal([raw.cols, ...raw.rows.map((row) => row.map(String))])
      const jsonl = join(dir, 'out.jsonl')
      expect((await cli(['run', ITEMS, '-o', jsonl], env)).code).to.equal(0)
      expect((await readFile(jsonl, 'utf8')).trimEnd().split('\n')).to.have.length((await client.run(ITEMS, { format: 'json.rows' })).rows.length)
      const forced = join(dir, 'out.data')
      expect((await cli(['sql', 'select 1 a', '-o', forced, '--format', 'csv'], env)).code).to.equal(0)
      expect(await readFile(forced, 'utf8')).to.equal('a\n1\n')
    })

    it("writes the service's Parquet and Arrow to -o FILE (by extension or --format), or to a pipe", async () => {
      const raw = await client.sql(SUMS, { format: 'json.rows' })
      const expected = raw.rows.map(([store, total]) => ({ store, total }))
      const parquet = join(dir, 'sums.parquet')
      const r = await cli(['sql', SUMS, '-o', parquet], env)
      expect(r.code, r.stderr).to.equal(0)
      expect(r.stdout).to.equal('')
      const bytes = await readFile(parquet)
      const rows = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })
      expect(rows.map((row) => ({ store: Number(row.store), total: row.total }))).to.deep.equal(expected)
      // A macro query, --format naming it whatever the file is called.
      const items = join(dir, 'items.bin')
      expect((await cli(['run', ITEMS, '--format', 'parquet', '-o', items], env)).code).to.equal(0)
      const itemBytes = await readFile(items)
      const itemRows = await parquetReadObjects({ file: itemBytes.buffer.slice(itemBytes.byteOffset, itemBytes.byteOffset + itemBytes.byteLength) })
      expect(itemRows).to.have.length((await client.run(ITEMS, { format: 'json.rows' })).rows.length)
      // Arrow to a pipe: the bytes as they are (spawnCli's stdout is text, so read the file form too).
      const arrow = join(dir, 'sums.arrow')
      expect((await cli(['sql', SUMS, '-o', arrow], env)).code).to.equal(0)
      const table = tableFromIPC(await readFile(arrow))
      expect(table.numRows).to.equal(raw.rows.length)
      expect(table.schema.fields.map((f) => f.name)).to.deep.equal(['store', 'total'])
      const piped = await cli(['sql', SUMS, '--format', 'parquet'], env)
      expect(piped.code, piped.stderr).to.equal(0)
      expect(piped.stdout.startsWith('PAR1')).to.equal(true)
      // Display formats are text: they do not go into a typed file.
      const formatted = await cli(['sql', SUMS, '-o', parquet, '--values', 'formatted'], env)
      expect(formatted.code).to.equal(2)
      expect(formatted.stderr).to.contain('--values formatted is for text output')
    })

    it('prints the version of its package.json', async () => {
      const pkg = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
      for (const flag of ['--version', '-V']) {
        const r = await cli([flag], {})
        expect(r.code).to.equal(0)
        expect(r.stdout).to.equal(`tabula ${pkg.version}\n`)
      }
    })
  })
})
