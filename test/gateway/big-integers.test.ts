/**
 * Integers that never lie (issue 21, item 1), through api/run: whole-number literals past 32 bits
 * are big integers (`j`); int + - * whose results leave the 32-bit range run again with that
 * operator computing in big integers, so `date*1000000+time` keys come out exact; big integers are
 * 64-bit (issue 38), answered with every digit in every JSON shape and text, and past ±(2^63 − 1)
 * a query is refused, never answered with a rounded or wrapped number. Big-integer columns come in
 * through uploads (CSV and JSON) and savetable, and report `j` in `!cols`.
 */
import { expect } from 'chai'
import { loggedIn } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'
import { dbmOk } from '../helpers/dbm.js'

forEachStore('big integers through api/run', (svc) => {
  const session = loggedIn(svc)
  const run = (xml: string, path = '/v1/api/run:json') => session.post(path).send({ xml })
  const cols = async (): Promise<{ name: string[]; type: string[] }> => (await session.post('/v1/api/run/!cols:json')).body

  it('reads the literals the issue names exactly, as big integers', async () => {
    const res = await run(
      '<table cols="a">1</table><willbe name="x" value="3000000000"/><willbe name="y" value="4294967297"/><willbe name="z" value="2147483648"/>',
    )
    expect(res.status, res.text).to.equal(200)
    expect(res.body).to.deep.equal({ a: [1], x: [3000000000], y: [4294967297], z: [2147483648] })
    expect((await cols()).type).to.deep.equal(['i', 'j', 'j', 'j'])
  })

  it('widens int arithmetic that leaves 32 bits instead of failing or giving N/A', async () => {
    const xml = `<table cols="d,t">20240131,93000;20231231,235959</table>
      <willbe name="key" value="d*1000000+t"/><willbe name="twice" value="d+d"/><willbe name="small" value="t+1"/>
      <willbe name="k" value="20240131*1000"/>`
    const res = await run(xml)
    expect(res.status, res.text).to.equal(200)
    expect(res.body.key).to.deep.equal([20240131093000, 20231231235959])
    expect(res.body.twice).to.deep.equal([40480262, 40462462])
    expect(res.body.k).to.deep.equal([20240131000, 20240131000])
    const meta = await cols()
    // Only the operators that overflowed (and what depends on them) are big integers.
    expect(Object.fromEntries(meta.name.map((n, i) => [n, meta.type[i]]))).to.deep.equal({ d: 'i', t: 'i', key: 'j', twice: 'i', small: 'i', k: 'j' })
    // Run twice: the second run starts wide and answers the same.
    expect((await run(xml)).body).to.deep.equal(res.body)
  })

  it('widens on a stored table big enough to pass 2^31 in a sum of columns, and groups by the key', async () => {
    const xml = `<base table="pub.demo.retail.item"/><willbe name="big" value="trans*10000000+sku"/>
      <tabu breaks=""><tcol source="big" fun="max" name="m"/><tcol source="trans" fun="max" name="t"/></tabu>`
    const res = await run(xml)
    expect(res.status, res.text).to.equal(200)
    expect(res.body.m[0]).to.be.greaterThan(2147483647)
    expect(Number.isInteger(res.body.m[0])).to.equal(true)
    expect(Math.floor(res.body.m[0] / 10000000)).to.equal(res.body.t[0])
  })

  it('computes past 2^53 exactly, and refuses a result past 2^63 − 1 saying what to write instead', async () => {
    const res = await run('<table cols="a">1</table><willbe name="x" value="9007199254740991+a"/><willbe name="y" value="9223372036854775806+a"/>')
    expect(res.status, res.text).to.equal(200)
    expect(res.text).to.equal('{"a":[1],"x":[9007199254740992],"y":[9223372036854775807]}')
    const over = await run('<table cols="a">1</table><willbe name="x" value="9223372036854775807+a"/>')
    expect(over.status).to.equal(400)
    expect(over.text).to.match(/Big integer overflow: 9223372036854775807 \+ 1 .*write one side as a decimal/)
    const lit = await run('<table cols="a">1</table><willbe name="x" value="9223372036854775808"/>')
    expect(lit.status).to.equal(400)
    expect(lit.text).to.match(/too large/)
  })

  it('answers 64-bit values with every digit in every JSON shape, the text view and SQL', async () => {
    const up = await dbmOk<{ cols: { name: string; type: string }[] }>(svc(), session.cookie, 'upload_table', {
      path: 'bigint_edges',
      csv: 'id,n\n9223372036854775807,1\n-9223372036854775807,2\n1152921504606846977,3\n1152921504606846978,4\n,5\n',
    })
    expect(up.cols.map((c) => c.type)).to.deep.equal(['bigint', 'int'])
    const xml = '<base table="uploads.admin.bigint_edges"/><sel value="id>1152921504606846977"/><sort col="id" dir="down"/>'
    expect((await run(xml)).text).to.equal('{"id":[9223372036854775807,1152921504606846978],"n":[1,4]}')
    expect((await run(xml, '/v1/api/run:json.rows')).text).to.contain('[[9223372036854775807,1],[1152921504606846978,4]]')
    expect((await run(xml, '/v1/api/run:json.keyed')).text).to.contain('{"id":9223372036854775807,"n":1}')
    expect((await run(xml, '/v1/api/run:text')).text).to.match(/9,?223,?372,?036,?854,?775,?807/)
    const tab = await run('<base table="uploads.admin.bigint_edges"/><tabu breaks="id"><tcol fun="cnt" name="c"/></tabu><sort col="id"/>')
    expect(tab.text).to.equal('{"id":[null,-9223372036854775807,1152921504606846977,1152921504606846978,9223372036854775807],"c":[1,1,1,1,1]}')
    const sql = await session.post('/v1/api/sql:json').send({ sql: 'select id, id - 1 as prev from uploads.admin.bigint_edges where n in (1, 3) order by n' })
    expect(sql.status, sql.text).to.equal(200)
    expect(sql.text).to.equal('{"id":[9223372036854775807,1152921504606846977],"prev":[9223372036854775806,1152921504606846976]}')
    // api/run keeps its own last result, the tabulation: its key is still `j`.
    expect((await cols()).type).to.deep.equal(['j', 'i'])
  })

  it('answers SQL that filters, groups and orders a 64-bit column on the columnar engine, every digit kept', async () => {
    const sql =
      'select id, count(*) as c from uploads.admin.bigint_edges where id > 1152921504606846976 or id = -9223372036854775807 group by id order by id desc'
    const res = await session.post('/v1/api/sql:json').send({ sql })
    expect(res.status, res.text).to.equal(200)
    expect(res.headers['x-tabula-engine']).to.equal('columnar')
    expect(res.text).to.equal('{"id":[9223372036854775807,1152921504606846978,1152921504606846977,-9223372036854775807],"c":[1,1,1,1]}')
  })

  it('uploads CSV and JSON with integers past 32 bits as big integers, exactly', async () => {
    const csv = await dbmOk<{ cols: { name: string; type: string }[] }>(svc(), session.cookie, 'upload_table', {
      path: 'bigint_csv',
      csv: 'id,n\n9007199254740991,1\n-4294967297,2\n,3\n',
    })
    expect(csv.cols.map((c) => c.type)).to.deep.equal(['bigint', 'int'])
    const back = await run('<base table="uploads.admin.bigint_csv"/><sort col="id"/>')
    expect(back.body.id).to.deep.equal([null, -4294967297, 9007199254740991])
    expect((await cols()).type).to.deep.equal(['j', 'i'])
    const json = await dbmOk<{ cols: { name: string; type: string }[] }>(svc(), session.cookie, 'upload_table', {
      path: 'bigint_json',
      data: { id: [3000000000, 1, null] },
    })
    expect(json.cols.map((c) => c.type)).to.deep.equal(['bigint'])
    const sum = await run('<base table="uploads.admin.bigint_json"/><willbe name="next" value="id+1"/><sel value="id>2147483647"/>')
    expect(sum.body).to.deep.equal({ id: [3000000000], next: [3000000001] })
    // The table's own URL reads the stored values as they are.
    const url = await session.get('/v1/api/uploads.admin.bigint_json:json')
    expect(url.status, url.text).to.equal(200)
    expect(url.body).to.deep.equal({ id: [3000000000, 1, null] })
  })

  it('saves a big-integer result with savetable and reads it back the same', async () => {
    const xml = '<table cols="a">1;2</table><willbe name="x" value="a*4000000000"/>'
    const saved = await session.post('/v1/api/run:json').send({ xml, savetable: 'uploads.admin.bigint_saved' })
    expect(saved.status, saved.text).to.equal(200)
    const back = await run('<base table="uploads.admin.bigint_saved"/>')
    expect(back.body).to.deep.equal({ a: [1, 2], x: [4000000000, 8000000000] })
    expect((await cols()).type).to.deep.equal(['i', 'j'])
  })

  it('answers SQL over a big-integer column exactly, on SQLite (whose integers are 64-bit)', async () => {
    const sql = 'select id, id + 1 as next, id / 2 as half from uploads.admin.bigint_csv where id is not null order by id'
    const res = await session.post('/v1/api/sql:json').send({ sql })
    expect(res.status, res.text).to.equal(200)
    expect(res.headers['x-tabula-engine']).to.equal('sqlite')
    expect(res.body).to.deep.equal({ id: [-4294967297, 9007199254740991], next: [-4294967296, 9007199254740992], half: [-2147483648, 4503599627370495] })
  })

  it('shows big integers whole in the text view', async () => {
    const res = await run('<table cols="a">1</table><willbe name="x" value="3000000000"/>', '/v1/api/run:text')
    expect(res.status, res.text).to.equal(200)
    expect(res.text).to.match(/3,?000,?000,?000/)
    expect(res.text).not.to.match(/3000000000\.0|3,000,000,000\.00/)
  })
})
