/**
 * Row ranges at and past the edges of a result: `to` past the last row, `range` beyond the rows,
 * empty and inverted ranges, on every endpoint that reads a range (a session's api/sql and api/run
 * result, an instance, a table by its path bare and with `!data`), in every format, below and
 * above the size where answers stream. A range is clipped to the result, never an error: the
 * answer holds exactly the rows that exist in it, complete and well formed.
 */
import { expect } from 'chai'
import { tableFromIPC } from 'apache-arrow'
import { parquetReadObjects } from 'hyparquet'
import { asBytes } from '../helpers/exchange.js'
import { csvRows } from '../helpers/csv-rows.js'
import { dbmOk } from '../helpers/dbm.js'
import { startTestService, type TestService } from '../helpers/service.js'
import { STREAM_THRESHOLD } from '../../gateway/format/index.js'

const FORMATS = ['json', 'json.rows', 'json.keyed', 'text', 'html', 'csv', 'arrow', 'parquet'] as const
type Format = (typeof FORMATS)[number]

/** The ids an answer holds, read the way a client of that format reads it. */
async function idsOf(format: Format, body: Buffer): Promise<number[]> {
  const text = body.toString('utf8')
  switch (format) {
    case 'json':
      return (JSON.parse(text) as { id: number[] }).id
    case 'json.rows': {
      const { cols, rows } = JSON.parse(text) as { cols: string[]; rows: number[][] }
      return rows.map((row) => row[cols.indexOf('id')])
    }
    case 'json.keyed':
      return (JSON.parse(text) as { id: number }[]).map((row) => row.id)
    case 'text':
      // An aligned table: a header line, a rule, then one line per row starting with its id.
      return text
        .split('\n')
        .filter((line) => /^\s*\d+\s/.test(line))
        .map((line) => Number(line.trim().split(/\s+/)[0]))
    case 'html': {
      expect(text.trimEnd()).to.match(/<\/html>$/i)
      return [...text.matchAll(/<tr[^>]*>\s*<td[^>]*>(\d+)<\/td>/g)].map((m) => Number(m[1]))
    }
    case 'csv': {
      const [header, ...rows] = csvRows(text)
      expect(header).to.deep.equal(['id', 'name'])
      return rows.map((row) => Number(row[0]))
    }
    case 'arrow':
      return [...tableFromIPC(body).getChild('id')!.toArray()].map(Number)
    case 'parquet': {
      const file = body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer
      return (await parquetReadObjects({ file })).map((row) => Number(row.id))
    }
  }
}

const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i)

describe('!data row ranges at and past the edges', function () {
  this.timeout(120_000)
  let svc: TestService
  let admin: string
  let tag: number

  const SMALL = 10
  const LARGE = STREAM_THRESHOLD + 500
  const tables = { [SMALL]: 'uploads.admin.ranges_small', [LARGE]: 'uploads.admin.ranges_large' }

  before(async () => {
    svc = await startTestService('memory')
    admin = await svc.login()
    for (const [rows, path] of Object.entries(tables)) {
      const ids = range(0, Number(rows))
      await dbmOk(svc, admin, 'upload_table', { path, data: { id: ids, name: ids.map((i) => `row ${i}`) } })
    }
    tag = (await svc.http.post('/v1/api/new/run:json').set('Cookie', admin).send({})).body.tag as number
  })
  after(async () => svc?.close())

  /**
   * Each endpoint: run (or open) the table of `rows` rows, then ask for [from, to) in a format.
   * api/sql numbers rows with range/to, the others with range_/to_.
   */
  type Reader = (rows: number, from: number, to: number, format: Format) => Promise<{ status: number; body: Buffer }>
  const ask = async (path: string, query: Record<string, number>): Promise<{ status: number; body: Buffer }> => {
    const res = await asBytes(svc.http.get(path).query(query).set('Cookie', admin))
    return { status: res.status, body: res.body as Buffer }
  }
  const readers: Record<string, Reader> = {
    "a session's api/sql result": async (rows, from, to, f) => {
      await svc.http
        .post('/v1/api/sql:json')
        .set('Cookie', admin)
        .send({ sql: `select id, name from ${tables[rows]} order by id` })
        .expect(200)
      return ask(`/v1/api/sql/!data:${f}`, { range: from, to })
    },
    "a session's api/run result": async (rows, from, to, f) => {
      await svc.http
        .post('/v1/api/run:json')
        .set('Cookie', admin)
        .send({ xml: `<base table="${tables[rows]}"/>` })
        .expect(200)
      return ask(`/v1/api/run/!data:${f}`, { range_: from, to_: to })
    },
    'an instance': async (rows, from, to, f) => {
      await svc.http
        .post(`/v1/api/${tag}:json`)
        .set('Cookie', admin)
        .send({ xml: `<base table="${tables[rows]}"/>` })
        .expect(200)
      return ask(`/v1/api/${tag}/!data:${f}`, { range_: from, to_: to })
    },
    'a table by its path': (rows, from, to, f) => ask(`/v1/api/${tables[rows]}:${f}`, { range_: from, to_: to }),
    "a table's !data": (rows, from, to, f) => ask(`/v1/api/${tables[rows]}/!data:${f}`, { range_: from, to_: to }),
  }

  /** [what, from, to, the rows it holds] for a result of n rows. */
  const cases = (n: number): [string, number, number, number[]][] => [
    ['to past the last row', 0, n + 4990, range(0, n)],
    ['a range ending past the last row', n - 3, n + 7, range(n - 3, n)],
    ['range at the row count', n, n + 5, []],
    ['range beyond the rows', n + 10, n + 20, []],
    ['an empty range', 3, 3, []],
    ['an inverted range', 7, 2, []],
    ['a range inside', 2, 5, range(2, 5)],
  ]

  for (const [endpoint, read] of Object.entries(readers)) {
    for (const rows of [SMALL, LARGE]) {
      for (const [what, from, to, want] of cases(rows)) {
        it(`${endpoint}, ${rows} rows: ${what} (${from} to ${to}) answers exactly those rows in every format`, async () => {
          for (const format of FORMATS) {
            const { status, body } = await read(rows, from, to, format)
            expect(status, `${format}: ${body.toString().slice(0, 300)}`).to.equal(200)
            expect(await idsOf(format, body), format).to.deep.equal(want)
          }
        })
      }
    }
  }
})
