/**
 * Issue 16.5: writers of one table on several gateways. 21 of 100 concurrent replaces used to
 * answer 503 "kept changing… try again": a replacement now takes whatever the table became
 * meanwhile (its owner checked again) and never rewrites its version, so all of them land; an
 * append still starts again from the new version, with a random pause, and gives up only after
 * its last attempt with 409 `conflict` saying what changed. Runs on memory, Redis and three
 * gateways behind a balancer, where the races are real.
 */
import { expect } from 'chai'
import { keptChanging } from '../../gateway/catalog/races.js'
import { KEYS, type TableRecord } from '../../gateway/catalog/records.js'
import { createMemoryStore } from '../../shared/store/index.js'
import { dbm, dbmOk } from '../helpers/dbm.js'
import { forEachStore } from '../helpers/suites.js'

forEachStore('concurrent writers of one table', (svc) => {
  let admin: string
  before(async () => {
    admin = await svc().login()
  })

  const run = async (xml: string): Promise<Record<string, unknown[]>> => {
    const res = await svc().http.post('/v1/api/run:json').set('Cookie', admin).type('form').send({ xml })
    expect(res.status, res.text).to.equal(200)
    return res.body as Record<string, unknown[]>
  }

  it('lands all of 100 concurrent replaces, the table ending as one of them', async function () {
    this.timeout(120_000)
    await dbmOk(svc(), admin, 'upload_table', { path: 'uploads.admin.contested', data: { n: [-1] } })
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) => dbm(svc(), admin, 'upload_table', { path: 'uploads.admin.contested', mode: 'replace', data: { n: [i, i] } })),
    )
    const failed = replies.filter((r) => r.rc !== 0)
    expect(
      failed.map((r) => r.msg),
      'replaces that did not land',
    ).to.deep.equal([])
    const n = (await run('<base table="uploads.admin.contested"/>')).n as number[]
    expect(n).to.have.length(2)
    expect(n[0]).to.equal(n[1]).and.to.be.within(0, 99)
  })

  it('lands concurrent appends one after another, none lost', async function () {
    this.timeout(120_000)
    await dbmOk(svc(), admin, 'upload_table', { path: 'uploads.admin.appended', data: { n: [0] } })
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) => dbm(svc(), admin, 'upload_table', { path: 'uploads.admin.appended', mode: 'append', data: { n: [i + 1] } })),
    )
    expect(
      replies.filter((r) => r.rc !== 0).map((r) => r.msg),
      'appends that did not land',
    ).to.deep.equal([])
    const n = (await run('<base table="uploads.admin.appended"/>')).n as number[]
    expect([...n].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 13 }, (_, i) => i))
  })
})

describe('the answer of a change that kept losing its race', () => {
  it('is 409 conflict naming the version it began from and the one the table is at now', async () => {
    const store = createMemoryStore()
    await store.connect()
    try {
      const record = (version: string, rows: number): TableRecord =>
        ({
          kind: 'table',
          id: 1,
          path: 'uploads.a.t',
          title: 't',
          owner: 'a',
          users: [],
          inherit: true,
          sdesc: '',
          ldesc: '',
          version,
          rows,
          columns: [],
          created: '2026-01-01T00:00:00.000Z',
          updated: '2026-01-02T00:00:00.000Z',
        }) as TableRecord
      await store.set(KEYS.table('uploads.a.t'), JSON.stringify(record('v9', 12)))
      const err = await keptChanging(store, 'uploads.a.t', record('v1', 3), 'send the append again')
      expect(err.code).to.equal('CONFLICT')
      expect(err.message).to.equal(
        'The table "uploads.a.t" kept changing while this change was being saved: it was version v1 (3 rows) when the change began and is now version v9 (12 rows, updated 2026-01-02T00:00:00.000Z), after other writers changed it each time this one tried; nothing was saved; send the append again.',
      )
      expect(err.detail).to.deep.equal({ table: 'uploads.a.t', startedFrom: 'v1', now: 'v9' })
    } finally {
      await store.close()
    }
  })
})
