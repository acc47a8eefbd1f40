/**
 * dbm save_table and upload_table: every accepted shape of rows, the values read back through
 * api/run and api/sql, replace and append, and every refusal, which must leave the catalog and
 * the table versions on disk as they were.
 */
import { expect } from 'chai'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { ensureDir } from '../../gateway/catalog/tables.js'
import { KEYS } from '../../gateway/catalog/records.js'
import { catalogSnapshot, dbm, dbmFails, dbmOk, userCookie } from '../helpers/dbm.js'
import { loggedIn, type TestService } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'

interface TableValue {
  path: string
  owner: string
  title: string
  rows: number
  users: string[]
  inherit: 0 | 1
  cols: { name: string; type: string; label: string; desc: string; format: string }[]
}

/** The version folders under DATA_DIR/tables (temporary folders left out). */
/**
 * Version folders on disk, less the retired ones: those are removed by the sweeper on its own
 * schedule (within a second on the embedded store), which no request under test decides.
 */
async function versionFolders(svc: TestService): Promise<string[]> {
  const retired = await svc.deps.store.hgetall(KEYS.retiredVersions)
  return (await readdir(join(svc.dataDir, 'tables'))).filter((n) => !n.startsWith('.') && !(n in retired)).sort()
}

const BY_REGION = '<base table="pub.demo.retail.stores"/><tabu breaks="region"><break col="region" sort="up"/><tcol fun="cnt" name="n"/></tabu>'

forEachStore('dbm data transactions', (svc) => {
  const admin = loggedIn(svc)
  let bob: string
  let carol: string
  before(async () => {
    bob = await userCookie(svc(), 'bob')
    carol = await userCookie(svc(), 'carol')
    // A folder both may write into, where each owns their own tables.
    await ensureDir(svc().deps.store, { path: 'team', owner: 'admin', users: ['bob', 'carol'], uploaders: ['bob', 'carol'], inherit: false })
    await dbmOk(svc(), carol, 'upload_table', { path: 'team.carols', data: { n: [1] } })
    await dbmOk(svc(), carol, 'upload_table', { path: 'uploads.carol.private', data: { n: [1] } })
  })

  const run = async (xml: string, cookie: string) => {
    const res = await svc().http.post('/v1/api/run:json').set('Cookie', cookie).send({ xml })
    expect(res.status, res.text).to.equal(200)
    return res.body as Record<string, unknown[]>
  }
  const sql = async (text: string, cookie: string) => {
    const res = await svc().http.post('/v1/api/sql:json').set('Cookie', cookie).send({ sql: text })
    expect(res.status, res.text).to.equal(200)
    return res.body as Record<string, unknown[]>
  }
  const upload = (cookie: string, params: Record<string, unknown>) => dbmOk<TableValue>(svc(), cookie, 'upload_table', params)

  describe('upload_table', () => {
    it('makes a table from column-major data, inferring int, float, text and date, with null and "" as N/A', async () => {
      const t = await upload(bob, {
        path: 'uploads.bob.mixed',
        title: 'Mixed',
        data: { id: [1, 2, 3], price: [1.5, null, 3], name: ['nut', '', 'bolt'], day: ['2024-01-31', null, '2024-02-29'] },
      })
      expect(t).to.include({ path: 'uploads.bob.mixed', owner: 'bob', title: 'Mixed', rows: 3 })
      expect(t.cols.map((c) => [c.name, c.type])).to.deep.equal([
        ['id', 'int'],
        ['price', 'float'],
        ['name', 'text'],
        ['day', 'date'],
      ])
      expect(await run('<base table="uploads.bob.mixed"/>', bob)).to.deep.equal({
        id: [1, 2, 3],
        price: [1.5, null, 3],
        name: ['nut', '', 'bolt'],
        day: [20240131, null, 20240229],
      })
      const back = await sql('select id, price, name, day from uploads.bob.mixed order by id', bob)
      expect(back).to.deep.equal({ id: [1, 2, 3], price: [1.5, null, 3], name: ['nut', '', 'bolt'], day: [20240131, null, 20240229] })
      expect(await sql('select count(*) n from uploads.bob.mixed where name is null and price is null and day is null', bob)).to.deep.equal({ n: [1] })
    })

    it('takes rows as arrays in cols order, with the types, labels and descriptions cols declares', async () => {
      const t = await upload(bob, {
        path: 'uploads.bob.arrays',
        cols: [
          { name: 'code', type: 'text', label: 'Code' },
          { name: 'qty', type: 'float', desc: 'Quantity' },
          { name: 'on', type: 'date' },
        ],
        data: [
          ['007', 3, 20240105],
          ['', null, '2023-12-31'],
        ],
      })
      expect(t.cols.map((c) => [c.name, c.type, c.label, c.desc])).to.deep.equal([
        ['code', 'text', 'Code', ''],
        ['qty', 'float', 'qty', 'Quantity'],
        ['on', 'date', 'on', ''],
      ])
      expect(await run('<base table="uploads.bob.arrays"/>', bob)).to.deep.equal({ code: ['007', ''], qty: [3, null], on: [20240105, 20231231] })
      const cols = await svc().http.post('/v1/api/run/!cols:json').set('Cookie', bob)
      expect(cols.body.label).to.deep.equal(['Code', 'qty', 'on'])
    })

    it('takes rows as objects keyed by column name, a key a row leaves out being N/A', async () => {
      const t = await upload(bob, { path: 'uploads.bob.objects', data: [{ a: 1, b: 'x' }, { b: 'y' }, { a: 3, c: 2.5 }] })
      expect(t.cols.map((c) => [c.name, c.type])).to.deep.equal([
        ['a', 'int'],
        ['b', 'text'],
        ['c', 'float'],
      ])
      expect(await run('<base table="uploads.bob.objects"/>', bob)).to.deep.equal({ a: [1, null, 3], b: ['x', 'y', ''], c: [null, null, 2.5] })
    })

    it('reads CSV with quoted commas, doubled quotes and line breaks, and CRLF line ends', async () => {
      const csv = 'name,note,qty\r\n"Smith, J.","said ""hi""",3\r\nLee,"two\r\nlines",\r\n'
      const t = await upload(bob, { path: 'uploads.bob.csv', csv })
      expect(t.rows).to.equal(2)
      expect(await run('<base table="uploads.bob.csv"/>', bob)).to.deep.equal({
        name: ['Smith, J.', 'Lee'],
        note: ['said "hi"', 'two\r\nlines'],
        qty: [3, null],
      })
    })

    it('infers CSV types per column: whole numbers, numbers, dates in both forms, text; all-empty is text', async () => {
      const csv = ['i,f,d,t,ymd,e', '1,1.5,2024-01-31,007,20240101,', '-2,2,20240229,x,20240102,', ',,,,,'].join('\n')
      const t = await upload(bob, { path: 'uploads.bob.inferred', csv })
      expect(t.cols.map((c) => c.type)).to.deep.equal(['int', 'float', 'date', 'text', 'int', 'text'])
      expect(await run('<base table="uploads.bob.inferred"/>', bob)).to.deep.equal({
        i: [1, -2, null],
        f: [1.5, 2, null],
        d: [20240131, 20240229, null],
        t: ['007', 'x', ''],
        ymd: [20240101, 20240102, null],
        e: ['', '', ''],
      })
      const sums = await sql('select sum(i) si, sum(f) sf, max(d) md from uploads.bob.inferred', bob)
      expect(sums).to.deep.equal({ si: [-1], sf: [3.5], md: [20240229] })
    })

    it('reads CSV values with the types cols declares, matching header names in any order and case', async () => {
      const csv = 'Qty,Code,Day\n3,007,20240101\n4,010,2024-03-01\n'
      const t = await upload(bob, {
        path: 'uploads.bob.typed',
        csv,
        cols: [
          { name: 'code', type: 'text' },
          { name: 'day', type: 'date' },
          { name: 'qty', type: 'float' },
        ],
      })
      expect(t.cols.map((c) => [c.name, c.type])).to.deep.equal([
        ['code', 'text'],
        ['day', 'date'],
        ['qty', 'float'],
      ])
      expect(await run('<base table="uploads.bob.typed"/>', bob)).to.deep.equal({ code: ['007', '010'], day: [20240101, 20240301], qty: [3, 4] })
    })

    it("puts a table named without a folder into the caller's own folder uploads.<uid>", async () => {
      const t = await upload(carol, { path: 'notes', data: { n: [1] } })
      expect(t.path).to.equal('uploads.carol.notes')
      expect(await run('<base table="uploads.carol.notes"/>', carol)).to.deep.equal({ n: [1] })
    })

    it('sets the readers from users (turning inherit off), checks the names, and keeps others out', async () => {
      const t = await upload(bob, { path: 'team.shared', data: { n: [1, 2] }, users: 'carol' })
      expect(t).to.include({ inherit: 0 })
      expect(t.users).to.deep.equal(['carol'])
      expect(await run('<base table="team.shared"/>', carol)).to.deep.equal({ n: [1, 2] })
      const other = await userCookie(svc(), 'dave')
      const hidden = await svc().http.post('/v1/api/run:json').set('Cookie', other).send({ xml: '<base table="team.shared"/>' })
      expect(hidden.status).to.equal(404)
      await dbmFails(
        svc(),
        bob,
        'upload_table',
        { path: 'team.shared2', data: { n: [1] }, users: ['carol', 'nobody_here'] },
        /Invalid user or group name in "users": nobody_here/,
      )
    })

    it('replaces a table with mode "replace", keeping its owner and title', async () => {
      await upload(bob, { path: 'uploads.bob.rep', title: 'Kept', data: { x: [1, 2, 3] } })
      const t = await upload(bob, { path: 'uploads.bob.rep', mode: 'replace', data: { y: ['a'] } })
      expect(t).to.include({ owner: 'bob', title: 'Kept', rows: 1 })
      expect(await run('<base table="uploads.bob.rep"/>', bob)).to.deep.equal({ y: ['a'] })
    })

    it("appends twice: the rows follow the old ones, read with the table's own types", async () => {
      await upload(bob, {
        path: 'uploads.bob.log',
        cols: [
          { name: 'day', type: 'date', label: 'Day' },
          { name: 'amount', type: 'float' },
        ],
        data: [['2024-01-01', 1.5]],
      })
      await upload(bob, {
        path: 'uploads.bob.log',
        mode: 'append',
        data: [
          [20240102, 2],
          ['2024-01-03', null],
        ],
      })
      const t = await upload(bob, { path: 'uploads.bob.log', mode: 'append', csv: 'Day,Amount\n2024-01-04,4\n' })
      expect(t.rows).to.equal(4)
      expect(t.cols.map((c) => [c.name, c.type, c.label])).to.deep.equal([
        ['day', 'date', 'Day'],
        ['amount', 'float', 'amount'],
      ])
      expect(await run('<base table="uploads.bob.log"/>', bob)).to.deep.equal({ day: [20240101, 20240102, 20240103, 20240104], amount: [1.5, 2, null, 4] })
      expect(await sql('select count(*) n, sum(amount) s from uploads.bob.log', bob)).to.deep.equal({ n: [4], s: [7.5] })
    })

    it('appends to a table that does not exist yet by making it', async () => {
      const t = await upload(bob, { path: 'uploads.bob.fresh', mode: 'append', data: { n: [5] } })
      expect(t.rows).to.equal(1)
    })

    it('lets concurrent appends all land, each after the others', async () => {
      await upload(bob, { path: 'uploads.bob.busy', data: { n: [0] } })
      const before = await versionFolders(svc())
      await Promise.all([1, 2, 3].map((n) => upload(bob, { path: 'uploads.bob.busy', mode: 'append', data: { n: [n] } })))
      const values = (await run('<base table="uploads.bob.busy"/>', bob)).n as number[]
      expect(values[0]).to.equal(0)
      expect([...values].sort()).to.deep.equal([0, 1, 2, 3])
      // Versions that lost a race were removed; the replaced ones are retired (and removed once unread).
      expect((await versionFolders(svc())).length - before.length).to.equal(0)
    })

    it("lets exactly one of two concurrent creations of a table win, and removes the loser's version", async () => {
      const before = await versionFolders(svc())
      const replies = await Promise.all([bob, carol].map((c, i) => dbm(svc(), c, 'upload_table', { path: 'team.race', data: { n: [i] } })))
      expect(replies.map((r) => r.rc).sort()).to.deep.equal([0, 1])
      expect(replies.find((r) => r.rc === 1)!.msg).to.match(/Table already exists: "team\.race"/)
      expect((await versionFolders(svc())).length - before.length).to.equal(1)
    })

    describe('refusals change nothing', () => {
      before(async () => {
        await upload(bob, { path: 'uploads.bob.base', data: { a: [1], b: ['x'] } })
      })

      const cases: { what: string; as?: 'bob' | 'carol'; params: Record<string, unknown>; code: string; msg: RegExp }[] = [
        {
          what: 'duplicate column names in data',
          params: { path: 'uploads.bob.e1', data: { qty: [1], Qty: [2] } },
          code: 'invalid_parameter',
          msg: /Duplicate column names: "qty" and "Qty"/,
        },
        {
          what: 'duplicate column names in a CSV header',
          params: { path: 'uploads.bob.e1', csv: 'a,b,A\n1,2,3' },
          code: 'invalid_parameter',
          msg: /Duplicate column names: "a" and "A" in the CSV header/,
        },
        {
          what: 'duplicate column names in cols',
          params: { path: 'uploads.bob.e1', cols: [{ name: 'a' }, { name: 'A' }], data: [] },
          code: 'invalid_parameter',
          msg: /Duplicate column names: "a" and "A" in "cols"/,
        },
        {
          what: 'an invalid column name',
          params: { path: 'uploads.bob.e1', csv: 'unit price\n1' },
          code: 'invalid_parameter',
          msg: /Invalid column name "unit price" \(column 1 of the CSV header\)/,
        },
        {
          what: 'an existing table without a mode',
          params: { path: 'uploads.bob.base', data: { a: [2], b: ['y'] } },
          code: 'table_exists',
          msg: /Table already exists: "uploads\.bob\.base"; send "mode": "replace"/,
        },
        {
          what: 'a row with more values than columns',
          params: { path: 'uploads.bob.e1', cols: [{ name: 'a' }], data: [[1], [2, 3]] },
          code: 'invalid_parameter',
          msg: /Too many values: row 2 of "data" has 2 values for 1 columns/,
        },
        {
          what: 'columns of unequal length',
          params: { path: 'uploads.bob.e1', data: { a: [1, 2], b: [1, 2, 3] } },
          code: 'invalid_parameter',
          msg: /Too many values: column "b" has 3 values but column "a" has 2/,
        },
        {
          what: 'a CSV line with more values than the header',
          params: { path: 'uploads.bob.e1', csv: 'a,b\n1,2\n3,4,5\n' },
          code: 'invalid_parameter',
          msg: /Too many values: line 3 of the CSV has 3 values but the header names 2 columns/,
        },
        {
          what: 'a CSV line with fewer values than the header',
          params: { path: 'uploads.bob.e1', csv: 'a,b\n1\n' },
          code: 'invalid_parameter',
          msg: /Too few values: line 2 of the CSV/,
        },
        {
          what: 'an empty table (no columns)',
          params: { path: 'uploads.bob.e1', data: {} },
          code: 'invalid_parameter',
          msg: /Empty table: the upload has no columns/,
        },
        { what: 'an empty table (no rows, no cols)', params: { path: 'uploads.bob.e1', data: [] }, code: 'invalid_parameter', msg: /Empty table/ },
        {
          what: 'a value of the wrong type',
          params: { path: 'uploads.bob.e1', cols: [{ name: 'qty', type: 'int' }], data: [[1], ['lots']] },
          code: 'invalid_parameter',
          msg: /wrong type: column "qty" \(int\) row 2 has "lots"/,
        },
        {
          what: 'a CSV date that is not a date',
          params: { path: 'uploads.bob.e1', csv: 'day\n2024-01-01\n2024-02-30\n', cols: [{ name: 'day', type: 'date' }] },
          code: 'invalid_parameter',
          msg: /column "day" \(date\) row 2 \(line 3 of the CSV\) has "2024-02-30"/,
        },
        {
          what: 'a value that is no table value',
          params: { path: 'uploads.bob.e1', data: { a: [1, true] } },
          code: 'invalid_parameter',
          msg: /column "a" row 2 has true; give a number, text or null/,
        },
        {
          what: 'a whole number too large for int',
          params: { path: 'uploads.bob.e1', cols: [{ name: 'a', type: 'int' }], data: { a: [3000000000] } },
          code: 'invalid_parameter',
          msg: /column "a" \(int\) row 1 has 3000000000/,
        },
        {
          what: 'a table saved straight into uploads',
          params: { path: 'uploads.e1', data: { a: [1] } },
          code: 'forbidden',
          msg: /cannot be saved directly into "uploads"/,
        },
        {
          what: 'a folder without write permission',
          params: { path: 'pub.demo.retail.e1', data: { a: [1] } },
          code: 'forbidden',
          msg: /You may not save tables into "pub\.demo\.retail"/,
        },
        { what: 'a missing folder', params: { path: 'nowhere.e1', data: { a: [1] } }, code: 'unknown_directory', msg: /No such folder "nowhere"/ },
        {
          what: "another user's home folder",
          params: { path: 'uploads.carol.e1', data: { a: [1] } },
          code: 'unknown_directory',
          msg: /No such folder "uploads\.carol"/,
        },
        {
          what: 'replacing a table one does not own',
          params: { path: 'team.carols', mode: 'replace', data: { n: [2] } },
          code: 'forbidden',
          msg: /You do not own the table "team\.carols".*replace it/,
        },
        {
          what: 'appending to a table one does not own',
          params: { path: 'team.carols', mode: 'append', data: { n: [2] } },
          code: 'forbidden',
          msg: /You do not own the table "team\.carols".*append to it/,
        },
        {
          what: 'appending other columns',
          params: { path: 'uploads.bob.base', mode: 'append', data: { a: [2], c: ['y'] } },
          code: 'invalid_parameter',
          msg: /Columns do not match: the table "uploads\.bob\.base" has a \(int\), b \(text\); the rows to append have a \(int\), c \(text\)/,
        },
        {
          what: 'appending columns of another type',
          params: {
            path: 'uploads.bob.base',
            mode: 'append',
            cols: [
              { name: 'a', type: 'float' },
              { name: 'b', type: 'text' },
            ],
            data: [[1, 'z']],
          },
          code: 'invalid_parameter',
          msg: /Columns do not match/,
        },
        {
          what: 'both data and csv',
          params: { path: 'uploads.bob.e1', data: { a: [1] }, csv: 'a\n1' },
          code: 'invalid_parameter',
          msg: /either as "data" or as "csv", not both/,
        },
        {
          what: 'neither data nor csv',
          params: { path: 'uploads.bob.e1', cols: [{ name: 'a' }] },
          code: 'missing_parameter',
          msg: /Transaction "upload_table" needs "data" or "csv"/,
        },
        {
          what: 'row arrays without cols',
          params: { path: 'uploads.bob.e1', data: [[1, 2]] },
          code: 'invalid_parameter',
          msg: /Rows given as arrays need "cols"/,
        },
        {
          what: 'a cols entry with an unknown field',
          params: { path: 'uploads.bob.e1', cols: [{ name: 'a', kind: 'int' }], data: [] },
          code: 'invalid_parameter',
          msg: /"cols" item 1 has the unknown field "kind"/,
        },
        {
          what: 'a cols entry with an unknown type',
          params: { path: 'uploads.bob.e1', cols: [{ name: 'a', type: 'number' }], data: [] },
          code: 'invalid_parameter',
          msg: /has the type "number"; use one of int, bigint, float, text, date/,
        },
        {
          what: 'data naming a column cols does not declare',
          params: { path: 'uploads.bob.e1', cols: [{ name: 'a' }], data: { a: [1], b: [2] } },
          code: 'invalid_parameter',
          msg: /"data" has a column "b" that "cols" does not declare/,
        },
        {
          what: 'cols declaring a column the data leaves out',
          params: { path: 'uploads.bob.e1', cols: [{ name: 'a' }, { name: 'b' }], data: { a: [1] } },
          code: 'invalid_parameter',
          msg: /"cols" declares the column "b" but "data" has no values for it/,
        },
        { what: 'an invalid table name', params: { path: 'uploads.bob.Bad-Name', data: { a: [1] } }, code: 'invalid_parameter', msg: /Invalid table name/ },
        {
          what: 'an unknown mode',
          params: { path: 'uploads.bob.e1', mode: 'merge', data: { a: [1] } },
          code: 'invalid_parameter',
          msg: /"mode" must be one of "noreplace", "replace", "append"/,
        },
        { what: 'malformed CSV', params: { path: 'uploads.bob.e1', csv: 'a\n"open' }, code: 'invalid_parameter', msg: /starts on line 2 has no closing quote/ },
      ]
      for (const c of cases) {
        it(`refuses ${c.what}`, async () => {
          const catalog = await catalogSnapshot(svc())
          const versions = await versionFolders(svc())
          const r = await dbmFails(svc(), c.as === 'carol' ? carol : bob, 'upload_table', c.params, c.msg)
          expect(r.code).to.equal(c.code)
          expect(await catalogSnapshot(svc()), 'the catalog must not change').to.deep.equal(catalog)
          expect(await versionFolders(svc()), 'no version may be left on disk').to.deep.equal(versions)
        })
      }

      it('refuses a bad upload into a home folder that does not exist yet without making the folder', async () => {
        const erin = await userCookie(svc(), 'erin')
        const catalog = await catalogSnapshot(svc())
        await dbmFails(svc(), erin, 'upload_table', { path: 'first', data: { a: [1, 'x', true] } }, /wrong type/)
        expect(await catalogSnapshot(svc())).to.deep.equal(catalog)
      })
    })

    it('is reachable under its XML-API name upload, with name for path', async () => {
      const t = await dbmOk<TableValue>(svc(), bob, 'upload', { name: 'uploads.bob.aliased', data: { a: [1] } })
      expect(t.path).to.equal('uploads.bob.aliased')
    })
  })

  describe('save_table', () => {
    it('saves a query result as a new table with its fields, readable by run and sql', async () => {
      const value = await dbmOk(svc(), bob, 'save_table', { path: 'uploads.bob.by_region', xml: BY_REGION, title: 'By region', sdesc: 'Stores per region' })
      const direct = await run(BY_REGION, bob)
      expect(value).to.deep.equal({ path: 'uploads.bob.by_region', rows: direct.n.length })
      expect(await run('<base table="uploads.bob.by_region"/>', bob)).to.deep.equal(direct)
      expect(await sql('select sum(n) n from uploads.bob.by_region', bob)).to.deep.equal({ n: [100] })
      const record = JSON.parse((await svc().deps.store.get('cat:table:uploads.bob.by_region'))!)
      expect(record).to.include({ title: 'By region', sdesc: 'Stores per region', owner: 'bob' })
    })

    it('puts a bare name into uploads.<uid>', async () => {
      expect(await dbmOk(svc(), carol, 'save_table', { path: 'one', xml: '<table cols="x">7</table>' })).to.deep.equal({ path: 'uploads.carol.one', rows: 1 })
    })

    it('refuses an existing table without replace or append, naming both', async () => {
      const catalog = await catalogSnapshot(svc())
      const r = await dbmFails(
        svc(),
        bob,
        'save_table',
        { path: 'uploads.bob.by_region', xml: '<table cols="x">1</table>' },
        /Table already exists: "uploads\.bob\.by_region"; send "replace": true .* "append": true/,
      )
      expect(r.code).to.equal('table_exists')
      expect(await catalogSnapshot(svc())).to.deep.equal(catalog)
    })

    it('replaces with replace, keeping the title', async () => {
      await dbmOk(svc(), bob, 'save_table', { path: 'uploads.bob.by_region', xml: '<table cols="x">1;2</table>', replace: 1 })
      expect(await run('<base table="uploads.bob.by_region"/>', bob)).to.deep.equal({ x: [1, 2] })
      const record = JSON.parse((await svc().deps.store.get('cat:table:uploads.bob.by_region'))!)
      expect(record.title).to.equal('By region')
    })

    it('appends with append, and refuses a result with other columns', async () => {
      expect(await dbmOk(svc(), bob, 'save_table', { path: 'uploads.bob.by_region', xml: '<table cols="x">3;4;5</table>', append: true })).to.deep.equal({
        path: 'uploads.bob.by_region',
        rows: 5,
      })
      expect(await run('<base table="uploads.bob.by_region"/>', bob)).to.deep.equal({ x: [1, 2, 3, 4, 5] })
      const catalog = await catalogSnapshot(svc())
      const versions = await versionFolders(svc())
      await dbmFails(
        svc(),
        bob,
        'save_table',
        { path: 'uploads.bob.by_region', xml: '<table cols="y">1</table>', append: true },
        /Columns do not match: the table "uploads\.bob\.by_region" has x \(int\); the rows to append have y \(int\)/,
      )
      expect(await catalogSnapshot(svc())).to.deep.equal(catalog)
      expect(await versionFolders(svc())).to.deep.equal(versions)
    })

    it('saves with users so that those readers see the table', async () => {
      await dbmOk(svc(), bob, 'save_table', { path: 'team.for_carol', xml: '<table cols="x">1</table>', users: ['carol'] })
      expect(await run('<base table="team.for_carol"/>', carol)).to.deep.equal({ x: [1] })
    })

    const refusals: { what: string; params: Record<string, unknown>; code: string; msg: RegExp }[] = [
      {
        what: 'a folder without write permission',
        params: { path: 'pub.demo.retail.mine', xml: BY_REGION },
        code: 'forbidden',
        msg: /You may not save tables into "pub\.demo\.retail"; save into uploads\.bob/,
      },
      {
        what: 'a table straight in uploads',
        params: { path: 'uploads.mine', xml: BY_REGION },
        code: 'forbidden',
        msg: /cannot be saved directly into "uploads"/,
      },
      {
        what: 'replacing a table one does not own',
        params: { path: 'team.carols', xml: '<table cols="n">9</table>', replace: true },
        code: 'forbidden',
        msg: /You do not own the table "team\.carols"/,
      },
      {
        what: 'appending to a table one does not own',
        params: { path: 'team.carols', xml: '<table cols="n">9</table>', append: true },
        code: 'forbidden',
        msg: /You do not own the table "team\.carols".*append/,
      },
      { what: 'malformed query XML', params: { path: 'uploads.bob.q', xml: '<base table="pub.demo.retail.item">' }, code: 'parse_error', msg: /line/i },
      {
        what: 'a query naming an unknown column',
        params: { path: 'uploads.bob.q', xml: '<base table="pub.demo.retail.item"/><sel value="nope=1"/>' },
        code: 'check_error',
        msg: /nope/,
      },
      {
        what: 'a query on a table the caller may not read',
        params: { path: 'uploads.bob.q', xml: '<base table="uploads.carol.private"/>' },
        code: 'unknown_table',
        msg: /No such table "uploads\.carol\.private"/,
      },
      {
        what: 'replace and append together',
        params: { path: 'uploads.bob.q', xml: BY_REGION, replace: true, append: true },
        code: 'invalid_parameter',
        msg: /"replace" or "append", not both/,
      },
      { what: 'a missing query', params: { path: 'uploads.bob.q' }, code: 'missing_parameter', msg: /needs the parameter "xml"/ },
    ]
    for (const c of refusals) {
      it(`refuses ${c.what}, changing nothing`, async () => {
        const catalog = await catalogSnapshot(svc())
        const versions = await versionFolders(svc())
        const r = await dbmFails(svc(), bob, 'save_table', c.params, c.msg)
        expect(r.code).to.equal(c.code)
        expect(await catalogSnapshot(svc())).to.deep.equal(catalog)
        expect(await versionFolders(svc())).to.deep.equal(versions)
      })
    }

    it('is reachable under its XML-API name savetable', async () => {
      expect(await dbmOk(svc(), admin.cookie, 'savetable', { name: 'uploads.admin.aliased', xml: '<table cols="x">1</table>' })).to.deep.equal({
        path: 'uploads.admin.aliased',
        rows: 1,
      })
    })
  })
})
