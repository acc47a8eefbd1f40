/**
 * upload_chunk's rows as the request body (`Content-Type: text/csv`, cmd in the query string),
 * and chunks sent together: the service reads them at once on its table-writer threads and
 * applies them in the order of their seq, whatever order they arrive or finish reading in. A
 * chunk whose predecessor is neither applied nor on its way is refused at once.
 */
import { expect } from 'chai'
import { Client } from '../../client/index.js'
import { adminClient, failure, startGateway, type Gateway } from './helpers.js'

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text)

/** A raw POST to api/dbm with a CSV body, as any HTTP client could send it. */
async function postCsv(
  g: Gateway,
  cookie: string,
  cmd: unknown,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${g.api}/dbm:json?cmd=${encodeURIComponent(JSON.stringify(cmd))}`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/csv', Cookie: cookie, ...headers },
    body,
  })
  return { status: res.status, json: (await res.json()) as Record<string, unknown> }
}

describe('client: upload chunks as CSV bodies, sent together', function () {
  this.timeout(60_000)
  let g: Gateway
  let admin: Client
  let cookie: string

  before(async () => {
    g = await startGateway()
    admin = await adminClient(g)
    const s = admin.session!
    cookie = `session=${s.uid}|${s.sid}|${s.epw}`
  })
  after(async () => {
    await g?.close()
  })

  it('applies chunks sent at once in seq order: text codes, int widened to float, N/A first, all as one upload would', async () => {
    const { upload } = await admin.dbm('upload_begin', { path: 'uploads.admin.together' })
    // Chunk k has ids k*40…, a word column whose values recur across chunks, and a measure that is
    // N/A in chunk 1, whole in chunks 2-5 and has fractions from chunk 6 on.
    const chunks: string[] = []
    const expected: [number, string, number | null][] = []
    for (let k = 0; k < 10; k++) {
      const rows = Array.from({ length: 40 }, (_, j): [number, string, number | null] => {
        const id = k * 40 + j
        return [id, `w${(id * 7) % (15 + k * 5)}`, k === 0 ? null : k < 5 ? id : id + 0.5]
      })
      expected.push(...rows)
      chunks.push(`id,word,m\n${rows.map(([id, w, m]) => `${id},${w},${m ?? ''}`).join('\n')}\n`)
    }
    // Issued last-first, so the later chunks arrive before the ones they must follow.
    const answers = await Promise.all(
      chunks
        .map((csv, k) => ({ csv, seq: k + 1 }))
        .reverse()
        .map(({ csv, seq }) => admin.uploadChunk(upload, seq, bytes(csv))),
    )
    expect(answers.map((a) => a.chunks).sort((x, y) => x - y)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    const table = await admin.dbm('upload_commit', { upload })
    expect(table.rows).to.equal(400)
    expect(table.cols?.map((c) => c.type)).to.deep.equal(['int', 'text', 'float'])
    const back = await admin.run('<base table="uploads.admin.together"/><sort col="id"/>', { format: 'json.rows' })
    expect(back.rows).to.deep.equal(expected)
  })

  it('refuses at once a chunk whose predecessor was never sent, and takes it once that one is', async () => {
    const { upload } = await admin.dbm('upload_begin', { path: 'uploads.admin.gap' })
    await admin.uploadChunk(upload, 1, bytes('x\n1\n'))
    const started = Date.now()
    const gap = await failure(admin.uploadChunk(upload, 3, bytes('x\n3\n')))
    expect(gap.code).to.equal('invalid_parameter')
    expect(gap.message).to.match(/came before chunk 2/)
    expect(Date.now() - started, 'refused without waiting').to.be.below(5000)
    await admin.uploadChunk(upload, 2, bytes('x\n2\n'))
    expect((await admin.uploadChunk(upload, 3, bytes('x\n3\n'))).rows).to.equal(3)
    expect((await admin.dbm('upload_commit', { upload })).rows).to.equal(3)
  })

  it('takes the body as sent, with cmd in the query string, and says what is wrong with other uses', async () => {
    const { upload } = await admin.dbm('upload_begin', { path: 'uploads.admin.raw' })
    const ok = await postCsv(g, cookie, ['upload_chunk', { upload, seq: 1 }], 'a,b\n1,x\n2,"y, z"\n')
    expect(ok.status).to.equal(200)
    expect(ok.json).to.deep.include({ rc: 0 })
    expect(ok.json.value).to.deep.include({ rows: 2, chunks: 1 })

    const both = await postCsv(g, cookie, ['upload_chunk', { upload, seq: 2, csv: 'a,b\n3,w\n' }], 'a,b\n3,w\n')
    expect(both.json.rc).to.equal(1)
    expect(String(both.json.msg)).to.match(/with a csv body takes its rows from the body: leave "csv" out of cmd/)

    const other = await postCsv(g, cookie, ['get_names_in_dir', { path: 'uploads' }], 'a\n1\n')
    expect(other.json.rc).to.equal(1)
    expect(String(other.json.msg)).to.match(/takes no csv body; only upload_table and upload_chunk do/)

    const sqlBody = await fetch(`${g.api}/sql:json`, { method: 'POST', headers: { 'Content-Type': 'text/csv', Cookie: cookie }, body: 'a\n1\n' })
    expect(sqlBody.status).to.equal(415)
    expect(((await sqlBody.json()) as { error: string }).error).to.match(/only by api\/dbm for upload_table and upload_chunk/)

    // Bytes that are not UTF-8 (Latin-1's é) are refused, not stored as U+FFFD.
    const latin1 = await admin.uploadChunk(upload, 2, Uint8Array.from([...bytes('a,b\n3,caf'), 0xe9, ...bytes('\n')])).then(
      () => null,
      (e: Error) => e,
    )
    expect(latin1?.message).to.match(/The CSV body is not valid UTF-8; save the file as UTF-8/)
    expect((await admin.dbm('upload_commit', { upload })).rows).to.equal(2)
    const back = await admin.sql('select a, b from uploads.admin.raw order by a', { format: 'json.rows' })
    expect(back.rows).to.deep.equal([
      [1, 'x'],
      [2, 'y, z'],
    ])
  })
})
