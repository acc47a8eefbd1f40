/**
 * Uploads as Parquet, Arrow and CSV through api/dbm (upload_table and chunked uploads), with types
 * kept: tabula reads what DuckDB writes (COPY … TO a Parquet file and to CSV; Arrow streams are
 * made with apache-arrow from DuckDB's values, since this DuckDB build cannot write Arrow), with
 * the same values and types, dates and big integers included, and gives them back in every
 * format. Bad input (a corrupt file, a body of the wrong type, a column type tabula does not
 * store, a 64-bit integer past 2^53) is refused with a message that says what to do.
 */
import { expect } from 'chai'
import { readFile } from 'node:fs/promises'
import { DateDay, Float64, Int32, Int64, Table, tableFromArrays, tableFromIPC, tableToIPC, Utf8, vectorFromArray } from 'apache-arrow'
import { loggedIn } from '../helpers/service.js'
import { Duck, asBytes, sqlString } from '../helpers/exchange.js'
import { dbm, dbmOk } from '../helpers/dbm.js'
import { forEachStore } from '../helpers/suites.js'

/** DuckDB's source table: every type tabula keeps, and text that needs quoting. */
const SOURCE = `select * from (values
  (1, 7::SMALLINT, 9007199254740991::BIGINT, 1.5::DOUBLE, 'say "hi", ok', DATE '2024-01-31', true),
  (2, NULL, NULL, NULL, NULL, NULL, NULL),
  (3, -7::SMALLINT, -9007199254740991::BIGINT, -0.1::DOUBLE, E'line one\\nline two', DATE '1999-12-31', false),
  (4, 0::SMALLINT, 2147483648::BIGINT, 1e-7::DOUBLE, 'ünïcødé € 🙂', DATE '2000-02-29', NULL)
) t(i, s, b, f, t, d, bo)`

/** What tabula should hold: yyyymmdd dates, booleans as 0/1, text N/A as ''. */
const HELD = {
  i: [1, 2, 3, 4],
  s: [7, null, -7, 0],
  b: [9007199254740991, null, -9007199254740991, 2147483648],
  f: [1.5, null, -0.1, 1e-7],
  t: ['say "hi", ok', '', 'line one\nline two', 'ünïcødé € 🙂'],
  d: [20240131, null, 19991231, 20000229],
  bo: [1, null, 0, null],
}

forEachStore(
  'uploads as Parquet, Arrow and CSV',
  (svc) => {
    const admin = loggedIn(svc)
    let duck: Duck
    before(async function () {
      this.timeout(30_000)
      duck = await Duck.open()
      await duck.conn.run(`create table src as ${SOURCE}`)
    })
    after(async () => duck?.close())

    /** upload_table (or another transaction) with the file as the request body. */
    const withBody = (cmd: unknown[], type: string, body: Buffer) =>
      svc()
        .http.post(`/v1/api/dbm:json?cmd=${encodeURIComponent(JSON.stringify(cmd))}`)
        .set('Cookie', admin.cookie)
        .set('Content-Type', type)
        .send(body)
    const run = async (xml: string) => (await admin.post('/v1/api/run:json').send({ xml }).expect(200)).body as Record<string, unknown[]>
    /** The columns `!cols` reports for a table, after a query of it. */
    const colsOf = async (path: string) => {
      await run(`<base table="${path}"/>`)
      return (await admin.get('/v1/api/run/!cols:json.keyed').expect(200)).body as { name: string; type: string; format: string }[]
    }
    const typesOf = async (path: string) => (await colsOf(path)).map((c) => `${c.name}:${c.type}${/type:date/.test(c.format) ? ':date' : ''}`)
    const TYPES = ['i:i', 's:i', 'b:j', 'f:f', 't:a', 'd:i:date', 'bo:i']

    it('takes a Parquet file DuckDB wrote, as the request body, with types and values kept', async () => {
      const file = duck.file('src.parquet')
      await duck.conn.run(`copy src to ${sqlString(file)} (format parquet)`)
      const res = await withBody(['upload_table', { path: 'uploads.admin.from_parquet' }], 'application/vnd.apache.parquet', await readFile(file))
      expect(res.body.rc, res.body.msg).to.equal(0)
      expect(await typesOf('uploads.admin.from_parquet')).to.deep.equal(TYPES)
      expect(await run('<base table="uploads.admin.from_parquet"/>')).to.deep.equal(HELD)
    })

    it('gives the uploaded table back as Parquet that DuckDB reads as it wrote it (booleans and small ints as INTEGER)', async () => {
      const res = await asBytes(admin.get('/v1/api/uploads.admin.from_parquet:parquet'))
      const back = await duck.put('back.parquet', res.body as Buffer)
      const t = await duck.query(`select * from read_parquet(${sqlString(back)}) order by i`)
      expect(t.types).to.deep.equal(['INTEGER', 'INTEGER', 'BIGINT', 'DOUBLE', 'VARCHAR', 'DATE', 'INTEGER'])
      const src = await duck.query(`select i, s::INTEGER s, b, f, t, d, bo::INTEGER bo from src order by i`)
      expect(t.rows).to.deep.equal(src.rows)
    })

    it('takes CSV DuckDB wrote (quotes, line breaks, ISO dates): dates come back as dates', async () => {
      const file = duck.file('src.csv')
      await duck.conn.run(`copy (select i, b, f, t, d from src) to ${sqlString(file)} (header, delimiter ',')`)
      const res = await withBody(['upload_table', { path: 'uploads.admin.from_csv' }], 'text/csv', await readFile(file))
      expect(res.body.rc, res.body.msg).to.equal(0)
      expect(await typesOf('uploads.admin.from_csv')).to.deep.equal(['i:i', 'b:j', 'f:f', 't:a', 'd:i:date'])
      const { i, b, f, t, d } = HELD
      expect(await run('<base table="uploads.admin.from_csv"/>')).to.deep.equal({ i, b, f, t, d })
      const csv = await admin.get('/v1/api/uploads.admin.from_csv:csv')
      const again = await duck.put('again.csv', Buffer.from(csv.text))
      const read = await duck.query(`select * from read_csv(${sqlString(again)}) order by i`)
      expect(read.types).to.deep.equal(['BIGINT', 'BIGINT', 'DOUBLE', 'VARCHAR', 'DATE'])
      expect(read.rows).to.deep.equal((await duck.query('select i::BIGINT i, b, f, t, d from src order by i')).rows)
    })

    it('takes an Arrow stream as base64 inside JSON, with types kept', async () => {
      const rows = (await duck.query('select i, b, f, t, d::VARCHAR d from src order by i')).rows
      const table = new Table({
        i: vectorFromArray(
          rows.map((r) => r.i as number),
          new Int32(),
        ),
        b: vectorFromArray(
          rows.map((r) => (r.b === null ? null : BigInt(r.b as string))),
          new Int64(),
        ),
        f: vectorFromArray(
          rows.map((r) => r.f as number | null),
          new Float64(),
        ),
        t: vectorFromArray(
          rows.map((r) => r.t as string | null),
          new Utf8(),
        ),
        d: vectorFromArray(
          rows.map((r) => (r.d === null ? null : new Date(`${r.d as string}T00:00:00Z`))),
          new DateDay(),
        ),
      })
      const arrow = Buffer.from(tableToIPC(table, 'stream')).toString('base64')
      await dbmOk(svc(), admin.cookie, 'upload_table', { path: 'uploads.admin.from_arrow', arrow })
      expect(await typesOf('uploads.admin.from_arrow')).to.deep.equal(['i:i', 'b:j', 'f:f', 't:a', 'd:i:date'])
      const { i, b, f, t, d } = HELD
      expect(await run('<base table="uploads.admin.from_arrow"/>')).to.deep.equal({ i, b, f, t, d })
      // And back as Arrow: the same types.
      const back = tableFromIPC((await asBytes(admin.get('/v1/api/uploads.admin.from_arrow:arrow'))).body as Buffer)
      expect(back.schema.fields.map((x) => String(x.type))).to.deep.equal(['Int32', 'Int64', 'Float64', 'Utf8', 'Date32<DAY>'])
      expect(back.getChild('b')!.toJSON()).to.deep.equal(table.getChild('b')!.toJSON())
      expect(back.getChild('d')!.toJSON()).to.deep.equal(table.getChild('d')!.toJSON())
    })

    it('takes a chunked upload of Parquet files, each chunk a file of its own', async () => {
      const parts = [duck.file('part1.parquet'), duck.file('part2.parquet')]
      await duck.conn.run(`copy (select i, b, d from src where i <= 2) to ${sqlString(parts[0])} (format parquet)`)
      await duck.conn.run(`copy (select i, b, d from src where i > 2) to ${sqlString(parts[1])} (format parquet)`)
      const { upload } = await dbmOk<{ upload: string }>(svc(), admin.cookie, 'upload_begin', { path: 'uploads.admin.chunked_parquet' })
      for (const [k, part] of parts.entries()) {
        const res = await withBody(['upload_chunk', { upload, seq: k + 1 }], 'application/vnd.apache.parquet', await readFile(part))
        expect(res.body.rc, res.body.msg).to.equal(0)
      }
      await dbmOk(svc(), admin.cookie, 'upload_commit', { upload })
      expect(await typesOf('uploads.admin.chunked_parquet')).to.deep.equal(['i:i', 'b:j', 'd:i:date'])
      const { i, b, d } = HELD
      expect(await run('<base table="uploads.admin.chunked_parquet"/>')).to.deep.equal({ i, b, d })
    })

    it('reads every row group of a Parquet file, in order', async () => {
      const file = duck.file('groups.parquet')
      await duck.conn.run(`copy (select range::INTEGER i, range % 7 = 0 seven from range(10000)) to ${sqlString(file)} (format parquet, row_group_size 2048)`)
      const groups = await duck.query(`select count(distinct row_group_id) n from parquet_metadata(${sqlString(file)})`)
      expect(Number(groups.rows[0].n)).to.be.greaterThan(1)
      const res = await withBody(['upload_table', { path: 'uploads.admin.groups' }], 'application/vnd.apache.parquet', await readFile(file))
      expect(res.body.rc, res.body.msg).to.equal(0)
      const back = await run('<base table="uploads.admin.groups"/>')
      expect(back.i).to.deep.equal(Array.from({ length: 10000 }, (_, k) => k))
      expect(back.seven).to.deep.equal(Array.from({ length: 10000 }, (_, k) => (k % 7 === 0 ? 1 : 0)))
    })

    it('types a chunked CSV upload of ISO dates as dates (the CLI upload)', async () => {
      const { upload } = await dbmOk<{ upload: string }>(svc(), admin.cookie, 'upload_begin', { path: 'uploads.admin.chunked_dates' })
      await dbmOk(svc(), admin.cookie, 'upload_chunk', { upload, seq: 1, csv: 'day,n\n2024-01-01,1\n2024-02-29,2\n' })
      await dbmOk(svc(), admin.cookie, 'upload_chunk', { upload, seq: 2, csv: 'day,n\n,3\n1999-12-31,4\n' })
      await dbmOk(svc(), admin.cookie, 'upload_commit', { upload })
      expect(await typesOf('uploads.admin.chunked_dates')).to.deep.equal(['day:i:date', 'n:i'])
      const csv = await admin.get('/v1/api/uploads.admin.chunked_dates:csv')
      expect(csv.text).to.equal('day,n\r\n2024-01-01,1\r\n2024-02-29,2\r\n,3\r\n1999-12-31,4\r\n')
    })

    describe('bad input', () => {
      it('refuses a corrupt Parquet file, saying it could not be read', async () => {
        const file = duck.file('src.parquet')
        const bytes = await readFile(file)
        const res = await withBody(['upload_table', { path: 'uploads.admin.corrupt' }], 'application/vnd.apache.parquet', bytes.subarray(0, bytes.length - 20))
        expect(res.body).to.include({ rc: 1, code: 'invalid_parameter' })
        expect(res.body.msg).to.match(/Parquet upload could not be read .*send a whole Parquet file/)
      })

      it('refuses a Parquet file sent as Arrow, and base64 that is not base64', async () => {
        const res = await withBody(
          ['upload_table', { path: 'uploads.admin.wrong' }],
          'application/vnd.apache.arrow.stream',
          await readFile(duck.file('src.parquet')),
        )
        expect(res.body).to.include({ rc: 1, code: 'invalid_parameter' })
        expect(res.body.msg).to.match(/Arrow upload could not be read/)
        const bad = await dbm(svc(), admin.cookie, 'upload_table', { path: 'uploads.admin.wrong', parquet: 'not base64!' })
        expect(bad.msg).to.match(/"parquet" must be the Parquet bytes as base64 text, or send them as the request body/)
      })

      it('refuses an upload body on an endpoint or transaction that takes none (415)', async () => {
        const bytes = await readFile(duck.file('src.parquet'))
        const sql = await admin.post('/v1/api/sql:json').set('Content-Type', 'application/vnd.apache.parquet').send(bytes)
        expect(sql.status).to.equal(415)
        expect(sql.body.error).to.match(/only by api\/dbm for upload_table and upload_chunk/)
        const other = await withBody(['get_names_in_dir', { path: 'pub' }], 'application/vnd.apache.parquet', bytes)
        expect(other.body).to.include({ rc: 1 })
        expect(other.body.msg).to.match(/takes no parquet body; only upload_table and upload_chunk do/)
      })

      it('refuses a column type tabula does not store, naming the column', async () => {
        const file = duck.file('stamp.parquet')
        await duck.conn.run(`copy (select 1 id, TIMESTAMP '2024-01-01 10:00:00' stamp) to ${sqlString(file)} (format parquet)`)
        const res = await withBody(['upload_table', { path: 'uploads.admin.stamp' }], 'application/vnd.apache.parquet', await readFile(file))
        expect(res.body).to.include({ rc: 1, code: 'invalid_parameter' })
        expect(res.body.msg).to.match(/Column "stamp" of the Parquet upload has the type INT64 \(TIMESTAMP.*\), which tabula does not store/)
        const list = duck.file('list.parquet')
        await duck.conn.run(`copy (select 1 id, [1, 2] xs) to ${sqlString(list)} (format parquet)`)
        const res2 = await withBody(['upload_table', { path: 'uploads.admin.list' }], 'application/vnd.apache.parquet', await readFile(list))
        expect(res2.body.msg).to.match(/Column "xs" of the Parquet upload has the type a group/)
      })

      it('stores 64-bit integers exactly, and refuses an unsigned one past 2^63 − 1, naming it', async () => {
        const file = duck.file('huge.parquet')
        await duck.conn.run(
          `copy (select * from (values (9007199254740993::BIGINT), (9223372036854775807::BIGINT), (-9223372036854775807::BIGINT)) t(n)) to ${sqlString(file)} (format parquet)`,
        )
        const res = await withBody(['upload_table', { path: 'uploads.admin.huge' }], 'application/vnd.apache.parquet', await readFile(file))
        expect(res.body, JSON.stringify(res.body)).to.include({ rc: 0 })
        const back = await admin.get('/v1/api/uploads.admin.huge:json')
        expect(back.text).to.equal('{"n":[9007199254740993,9223372036854775807,-9223372036854775807]}')
        const arrow = tableToIPC(tableFromArrays({ n: BigInt64Array.from([-9007199254740993n, 1n]) }), 'stream')
        const res2 = await withBody(['upload_table', { path: 'uploads.admin.huge_arrow' }], 'application/vnd.apache.arrow.stream', Buffer.from(arrow))
        expect(res2.body).to.include({ rc: 0 })
        expect((await admin.get('/v1/api/uploads.admin.huge_arrow:json')).text).to.equal('{"n":[-9007199254740993,1]}')
        const unsigned = duck.file('unsigned.parquet')
        await duck.conn.run(`copy (select 18446744073709551615::UBIGINT n) to ${sqlString(unsigned)} (format parquet)`)
        const res3 = await withBody(['upload_table', { path: 'uploads.admin.unsigned' }], 'application/vnd.apache.parquet', await readFile(unsigned))
        expect(res3.body).to.include({ rc: 1, code: 'invalid_parameter' })
        expect(res3.body.msg).to.match(/Column "n" of the Parquet upload holds 18446744073709551615, beyond the ±9223372036854775807/)
      })

      it('keeps the body-size limit for binary bodies (413 naming MAX_BODY_BYTES)', async () => {
        const res = await withBody(['upload_table', { path: 'uploads.admin.big' }], 'application/vnd.apache.parquet', Buffer.alloc(11 * 1024 * 1024))
        expect(res.status).to.equal(413)
        expect(res.body.error).to.match(/The Parquet body has \d+ bytes, more than .*MAX_BODY_BYTES/)
      })
    })
  },
  {},
  { skip: ['redis', 'cluster'] },
)
