/**
 * Results as CSV, Arrow and Parquet on every kind of result endpoint (api/sql, api/run, an
 * instance, a `!data` range, a table by its path), read back by DuckDB (CSV and Parquet) and by
 * apache-arrow (Arrow: the DuckDB build here has no Arrow reader, its arrow extensions are not
 * bundled and cannot be downloaded), with the same values and types: dates, big integers (the
 * 64-bit range's ends and a value past 2^53, sent to the upload as digits), N/A, and text with
 * quotes, commas, line breaks and non-ASCII characters.
 */
import { expect } from 'chai'
import { tableFromIPC } from 'apache-arrow'
import { loggedIn } from '../helpers/service.js'
import { Duck, asBytes, sqlString } from '../helpers/exchange.js'
import { dbmOk } from '../helpers/dbm.js'
import { forEachStore } from '../helpers/suites.js'
import { collectBytes, renderResult } from '../../gateway/format/index.js'
import type { ResultSet } from '../../shared/protocol.js'
import { columnMeta } from '../../shared/table.js'

const NAMES = ['say "hi", ok', null, 'line one\r\nline two', 'ünïcødé € 🙂', ' padded ', 'a,b', '"']
const TABLE = {
  id: [1, 2, 3, 4, 5, 6, 7],
  // Past ±2^53 as digits: a JSON number there would have lost them before the upload saw it.
  big: ['9223372036854775807', null, -5000000000000, 0, 1, '9007199254740993', '-9223372036854775807'],
  price: [1.5, null, -0.1, 1e-7, 123456.789, 0, 2],
  name: NAMES,
  day: ['2024-01-31', null, '1999-12-31', '2000-02-29', '0001-01-01', '9999-12-31', '2024-01-01'],
}
const PATH = 'uploads.admin.mix'

/** The table as DuckDB's JSON values give it: BIGINT as text, DATE as YYYY-MM-DD. */
const expectedRows = TABLE.id.map((id, r) => ({
  id,
  big: TABLE.big[r] === null ? null : String(TABLE.big[r]),
  price: TABLE.price[r],
  name: TABLE.name[r],
  day: TABLE.day[r],
}))

forEachStore(
  'results as CSV, Arrow and Parquet',
  (svc) => {
    const admin = loggedIn(svc)
    let duck: Duck
    let tag: number
    before(async function () {
      this.timeout(30_000)
      duck = await Duck.open()
      await dbmOk(svc(), admin.cookie, 'upload_table', { path: PATH, data: TABLE })
      tag = (await admin.post('/v1/api/new/run:json').send({})).body.tag as number
    })
    after(async () => duck?.close())

    const XML = `<base table="${PATH}"/>`
    /** Each endpoint kind: a request for the whole table (sorted by id) in a format. */
    const endpoints: Record<string, (format: string) => ReturnType<ReturnType<typeof svc>['http']['get']>> = {
      'api/sql': (f) => admin.post(`/v1/api/sql:${f}`).send({ sql: `select * from ${PATH} order by id` }),
      'api/run': (f) => admin.post(`/v1/api/run:${f}`).send({ xml: XML }),
      'an instance': (f) => admin.post(`/v1/api/${tag}:${f}`).send({ xml: XML }),
      'a table by its path': (f) => admin.get(`/v1/api/${PATH}:${f}`),
    }

    async function fetch(kind: string, format: string): Promise<{ type: string; body: Buffer }> {
      const res = await asBytes(endpoints[kind](format))
      expect(res.status, String(res.body)).to.equal(200)
      return { type: String(res.headers['content-type']), body: res.body as Buffer }
    }

    for (const kind of Object.keys(endpoints)) {
      // SQL answers are typed as SQLite types them (docs/sql.md): SQLite has no dates, so a date
      // column read through api/sql is its yyyymmdd integers, and each format writes integers.
      const sqlDates = kind === 'api/sql'
      const ymd = (d: string | null): number | null => (d === null ? null : Number(d.replaceAll('-', '')))
      const wantRows = sqlDates ? expectedRows.map((r) => ({ ...r, day: ymd(r.day) })) : expectedRows
      describe(kind, () => {
        it('answers CSV that DuckDB reads with the same values, dates as DATE', async () => {
          const { type, body } = await fetch(kind, 'csv')
          expect(type).to.equal('text/csv; charset=utf-8')
          const file = await duck.put(`${kind.replace(/\W/g, '')}.csv`, body)
          const t = await duck.query(`select * from read_csv(${sqlString(file)}, header = true) order by id`)
          expect(t.names).to.deep.equal(['id', 'big', 'price', 'name', 'day'])
          // CSV has no integer widths: DuckDB reads whole numbers as BIGINT.
          expect(t.types).to.deep.equal(['BIGINT', 'BIGINT', 'DOUBLE', 'VARCHAR', sqlDates ? 'BIGINT' : 'DATE'])
          expect(t.rows).to.deep.equal(wantRows.map((r) => ({ ...r, id: String(r.id), ...(sqlDates && { day: r.day === null ? null : String(r.day) }) })))
        })

        it('answers Parquet that DuckDB reads with the same values and types', async () => {
          const { type, body } = await fetch(kind, 'parquet')
          expect(type).to.equal('application/vnd.apache.parquet')
          const file = await duck.put(`${kind.replace(/\W/g, '')}.parquet`, body)
          const t = await duck.query(`select * from read_parquet(${sqlString(file)}) order by id`)
          expect(t.types).to.deep.equal(['INTEGER', 'BIGINT', 'DOUBLE', 'VARCHAR', sqlDates ? 'INTEGER' : 'DATE'])
          expect(t.rows).to.deep.equal(wantRows)
        })

        it('answers an Arrow stream with the same values and types', async () => {
          const { type, body } = await fetch(kind, 'arrow')
          expect(type).to.equal('application/vnd.apache.arrow.stream')
          const t = tableFromIPC(body)
          expect(t.schema.fields.map((f) => `${f.name}:${String(f.type)}`)).to.deep.equal([
            'id:Int32',
            'big:Int64',
            'price:Float64',
            'name:Utf8',
            sqlDates ? 'day:Int32' : 'day:Date32<DAY>',
          ])
          expect(t.numRows).to.equal(7)
          expect(t.getChild('id')!.toJSON()).to.deep.equal(TABLE.id)
          expect(t.getChild('big')!.toJSON()).to.deep.equal(TABLE.big.map((v) => (v === null ? null : BigInt(v))))
          expect(t.getChild('price')!.toJSON()).to.deep.equal(TABLE.price)
          expect(t.getChild('name')!.toJSON()).to.deep.equal(NAMES)
          // Date32 values read back as milliseconds since the epoch.
          const days = (t.getChild('day')!.toJSON() as (number | null)[]).map((v) => (v === null || sqlDates ? v : new Date(v).toISOString().slice(0, 10)))
          expect(days).to.deep.equal(sqlDates ? TABLE.day.map(ymd) : TABLE.day)
        })
      })
    }

    describe('a !data range', () => {
      for (const format of ['csv', 'parquet', 'arrow']) {
        it(`gives rows 2 to 4 of the kept result as ${format}`, async () => {
          await admin.post('/v1/api/run:json').send({ xml: XML }).expect(200)
          const res = await asBytes(admin.get(`/v1/api/run/!data:${format}?range_=2&to_=5`))
          expect(res.status, String(res.body)).to.equal(200)
          const file = await duck.put(`range.${format}`, res.body as Buffer)
          const rows =
            format === 'arrow'
              ? [...tableFromIPC(res.body as Buffer)].map((row) => Number(row.id))
              : (await duck.query(`select id from ${format === 'csv' ? 'read_csv' : 'read_parquet'}(${sqlString(file)})`)).rows.map((r) => Number(r.id))
          expect(rows).to.deep.equal([3, 4, 5])
        })
      }

      it('streams a large range in pieces that read back whole (CSV, Arrow, Parquet)', async function () {
        this.timeout(60_000)
        const xml = '<base table="pub.demo.retail.item"/><colord cols="trans,date,store,sales,payment"/>'
        const json = await admin.post('/v1/api/run:json.rows').send({ xml })
        const total = (json.body as { rows: unknown[][] }).rows
        for (const format of ['csv', 'parquet', 'arrow']) {
          const res = await asBytes(admin.get(`/v1/api/run/!data:${format}?range_=0&to_=${total.length}`))
          expect(res.status).to.equal(200)
          let got: unknown[][]
          if (format === 'arrow') {
            const t = tableFromIPC(res.body as Buffer)
            got = [...t].map((row) => [row.trans, new Date(row.date as number).toISOString().slice(0, 10), row.store, row.sales, row.payment])
          } else {
            const file = await duck.put(`big.${format}`, res.body as Buffer)
            const from = format === 'csv' ? `read_csv(${sqlString(file)})` : `read_parquet(${sqlString(file)})`
            got = (await duck.query(`select trans, date::varchar d, store, sales, payment from ${from}`)).rows.map((r) => [
              Number(r.trans),
              r.d,
              Number(r.store),
              r.sales,
              r.payment,
            ])
          }
          const want = total.map(([trans, date, store, sales, payment]) => [
            trans,
            String(date).replace(/^(\d{4})(\d\d)(\d\d)$/, '$1-$2-$3'),
            store,
            sales,
            payment === '' ? null : payment,
          ])
          expect(got.length, format).to.equal(want.length)
          expect(got, format).to.deep.equal(want)
        }
      })
    })

    describe('CSV quoting (RFC 4180)', () => {
      it('ends lines with CRLF, quotes fields with a comma, quote, CR or LF, doubles inner quotes, and leaves N/A empty', async () => {
        const res = await admin.get(`/v1/api/${PATH}:csv`)
        expect(res.text).to.equal(
          [
            'id,big,price,name,day',
            '1,9223372036854775807,1.5,"say ""hi"", ok",2024-01-31',
            '2,,,,',
            '3,-5000000000000,-0.1,"line one\r\nline two",1999-12-31',
            '4,0,1e-7,ünïcødé € 🙂,2000-02-29',
            '5,1,123456.789, padded ,0001-01-01',
            '6,9007199254740993,0,"a,b",9999-12-31',
            '7,-9223372036854775807,2,"""",2024-01-01',
            '',
          ].join('\r\n'),
        )
      })

      it('writes the header alone for an empty result', async () => {
        const res = await admin.post('/v1/api/run:csv').send({ xml: `${XML}<sel value="id=0"/>` })
        expect(res.text).to.equal('id,big,price,name,day\r\n')
      })
    })

    describe('empty results', () => {
      it('Arrow and Parquet of no rows keep the schema', async () => {
        const xml = `${XML}<sel value="id=0"/>`
        const arrow = await asBytes(admin.post('/v1/api/run:arrow').send({ xml }))
        const t = tableFromIPC(arrow.body as Buffer)
        expect(t.numRows).to.equal(0)
        expect(t.schema.fields.map((f) => String(f.type))).to.deep.equal(['Int32', 'Int64', 'Float64', 'Utf8', 'Date32<DAY>'])
        const pq = await asBytes(admin.post('/v1/api/run:parquet').send({ xml }))
        const file = await duck.put('empty.parquet', pq.body as Buffer)
        const d = await duck.query(`select * from read_parquet(${sqlString(file)})`)
        expect(d.rows).to.deep.equal([])
        expect(d.types).to.deep.equal(['INTEGER', 'BIGINT', 'DOUBLE', 'VARCHAR', 'DATE'])
      })
    })

    describe('other tables', () => {
      it('a listing, !cols and !head answer CSV too', async () => {
        const ls = await admin.get('/v1/api/ls/uploads.admin:csv')
        expect(ls.status).to.equal(200)
        expect(ls.text.split('\r\n')[0]).to.match(/^path,name,title,type,owner/)
        expect(ls.text).to.contain('uploads.admin.mix,mix,')
        await admin.post('/v1/api/run:json').send({ xml: XML }).expect(200)
        const cols = await admin.get('/v1/api/run/!cols:csv')
        expect(
          cols.text
            .split('\r\n')
            .slice(1, 3)
            .map((l) => l.split(',')[0]),
        ).to.deep.equal(['id', 'big'])
        const head = await admin.get('/v1/api/run/!head:csv')
        expect(head.text.split('\r\n')[0]).to.equal('id,big,price,name,day')
        expect(head.text.split('\r\n').length).to.equal(1 + 8 + 1) // a broken line in row 3
      })
    })

    describe('answers that are not tables', () => {
      it('refuses :csv for a dbm transaction before it runs, with what to ask for instead', async () => {
        const res = await admin.post('/v1/api/dbm:csv').send({ cmd: ['upload_table', { path: 'uploads.admin.never', data: { a: [1] } }] })
        expect(res.status).to.equal(400)
        expect(res.body.error).to.match(/:csv holds a table of rows.*:json/)
        const ls = await admin.get('/v1/api/ls/uploads.admin:json')
        expect(JSON.stringify(ls.body)).not.to.contain('never')
      })

      it('refuses :parquet for a row count', async () => {
        const res = await admin.get('/v1/api/run/!rows:parquet')
        expect(res.status).to.equal(400)
        expect(res.body.error).to.match(/:parquet holds a table of rows/)
      })
    })
  },
  {},
  { skip: ['redis', 'cluster'] },
)

describe('Arrow and Parquet bodies are written a piece at a time', () => {
  // 10,000 rows: three pieces of PIECE_ROWS (4,096) rows, the last one short.
  const ROWS = 10_000
  const ids = Int32Array.from({ length: ROWS }, (_, i) => i)
  const result: ResultSet = {
    cols: [columnMeta({ name: 'id', type: 'int' }), columnMeta({ name: 'tag', type: 'text' })],
    columns: [
      { kind: 'int', data: ids },
      { kind: 'coded', codes: Int32Array.from(ids, (i) => i % 3), dict: ['', 'b', 'c'] },
    ],
    rowCount: ROWS,
  }
  const tags = [...ids].map((i) => [null, 'b', 'c'][i % 3])

  it('Arrow: one record batch per piece, every row in order', async () => {
    const t = tableFromIPC(await collectBytes(renderResult(result, 'arrow')))
    expect(t.batches.map((b) => b.numRows)).to.deep.equal([4096, 4096, 1808])
    expect(t.getChild('id')!.toJSON()).to.deep.equal([...ids])
    expect(t.getChild('tag')!.toJSON()).to.deep.equal(tags)
  })

  it('Parquet: one row group per piece, read back whole by DuckDB', async () => {
    const duck = await Duck.open()
    try {
      const file = await duck.put('pieces.parquet', await collectBytes(renderResult(result, 'parquet')))
      const groups = await duck.query(`select row_group_id, any_value(row_group_num_rows) n from parquet_metadata(${sqlString(file)}) group by 1 order by 1`)
      expect(groups.rows.map((r) => Number(r.n))).to.deep.equal([4096, 4096, 1808])
      const back = await duck.query(`select id, tag from read_parquet(${sqlString(file)})`)
      expect(back.rows).to.deep.equal([...ids].map((id, i) => ({ id, tag: tags[i] })))
    } finally {
      await duck.close()
    }
  })
})
