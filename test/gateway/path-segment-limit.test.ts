/**
 * Issue 36.3: the documented limit of 128 characters on one name of a dotted path
 * (shared/name-limits.ts, FIELD_LIMITS.name) was not enforced: upload_table accepted table names
 * of 129 and 500 characters, make_dir one of 130. Every way a folder or table gets a path now
 * refuses a longer name with a 4xx (rc 1 in dbm) naming the limit and the name.
 */
import { expect } from 'chai'
import { dbm, dbmOk } from '../helpers/dbm.js'
import type { TestService } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'

const name = (n: number, letter = 'a'): string => `t${letter.repeat(n - 1)}`
const ROWS = { data: { n: [1, 2] } }
const XML = '<base table="pub.demo.retail.stores"/><sel value="store<3"/>'

/** A refusal that names the limit, the part's length and the start of the offending name. */
function expectRefusal(answer: { rc: number; msg?: string }, length: number): void {
  expect(answer.rc, JSON.stringify(answer)).to.equal(1)
  expect(answer.msg).to.contain('at most 128 characters').and.contain(`${length} characters long`).and.contain('"taaaa')
}

forEachStore(
  'a path name longer than 128 characters',
  (svc: () => TestService) => {
    let admin: string
    before(async () => {
      admin = await svc().login()
      await dbmOk(svc(), admin, 'make_dir', { path: 'seglimit' })
      await dbmOk(svc(), admin, 'upload_table', { path: 'seglimit.src', ...ROWS })
    })

    it('upload_table refuses table names of 129 and 500 characters, and takes one of 128', async () => {
      for (const n of [129, 500]) expectRefusal(await dbm(svc(), admin, 'upload_table', { path: `seglimit.${name(n)}`, ...ROWS }), n)
      // Without a folder the name goes into the caller's home folder: the same limit.
      expectRefusal(await dbm(svc(), admin, 'upload_table', { path: name(129), ...ROWS }), 129)
      await dbmOk(svc(), admin, 'upload_table', { path: `seglimit.${name(128)}`, ...ROWS })
      const listed = await dbmOk<{ name: string[] }>(svc(), admin, 'get_names_in_dir', { path: 'seglimit' })
      expect(JSON.stringify(listed)).not.to.contain(name(129))
    })

    it('make_dir refuses a folder name of 130 characters, at any depth', async () => {
      expectRefusal(await dbm(svc(), admin, 'make_dir', { path: `seglimit.${name(130)}` }), 130)
      expectRefusal(await dbm(svc(), admin, 'make_dir', { path: name(130) }), 130)
      await dbmOk(svc(), admin, 'make_dir', { path: `seglimit.${name(128, 'd')}` })
    })

    it('upload_begin, save_table, copy_table and move refuse it before doing anything', async () => {
      expectRefusal(await dbm(svc(), admin, 'upload_begin', { path: `seglimit.${name(129)}` }), 129)
      expectRefusal(await dbm(svc(), admin, 'save_table', { path: `seglimit.${name(129)}`, xml: XML }), 129)
      expectRefusal(await dbm(svc(), admin, 'copy_table', { from: 'seglimit.src', to: `seglimit.${name(140)}` }), 140)
      expectRefusal(await dbm(svc(), admin, 'move', { from: 'seglimit.src', to: `seglimit.${name(129)}` }), 129)
      await dbmOk(svc(), admin, 'get_table_info', { path: 'seglimit.src' })
    })

    it("api/run's savetable refuses it with a 400 before the query runs", async () => {
      const res = await svc()
        .http.post('/v1/api/run:json')
        .set('Cookie', admin)
        .send({ xml: XML, savetable: `seglimit.${name(129)}` })
      expect(res.status, res.text).to.equal(400)
      expect(res.body.code).to.equal('invalid_parameter')
      expect(res.body.error).to.contain('"savetable"').and.contain('at most 128 characters')
    })
  },
  {},
  { skip: ['redis-cluster', 'cluster'] },
)
