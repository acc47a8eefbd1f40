/**
 * A reader list given to make_dir takes effect, as it does for upload_table: the README's
 * example (make_dir team with users ann and the group sales) lets ann and sales's members list
 * the folder and read what is put in it, and nobody else. Giving users without inherit turns
 * inheritance off for both, so the list is exactly who reads.
 */
import { expect } from 'chai'
import { dbmOk, userCookie } from '../helpers/dbm.js'
import { startTestService, type TestService } from '../helpers/service.js'

describe('make_dir with users: the README example', function () {
  this.timeout(60_000)
  let svc: TestService
  let admin: string
  const cookies: Record<string, string> = {}

  before(async () => {
    svc = await startTestService('memory')
    admin = await svc.login()
    for (const uid of ['ann', 'bob', 'carl']) cookies[uid] = await userCookie(svc, uid)
    await dbmOk(svc, admin, 'add_group', { group: 'sales', users: ['bob'] })
    await dbmOk(svc, admin, 'make_dir', { path: 'team', title: 'Team data', users: ['ann', 'sales'] })
    await dbmOk(svc, admin, 'upload_table', { path: 'team.q1', data: { id: [1, 2, 3] } })
  })
  after(async () => svc?.close())

  const listing = (uid: string) => svc.http.get('/v1/api/ls/team:json').set('Cookie', cookies[uid])
  const table = (uid: string) => svc.http.get('/v1/api/team.q1:json').set('Cookie', cookies[uid])

  it('lets the listed user and the listed group read the folder and the tables put in it', async () => {
    for (const uid of ['ann', 'bob']) {
      expect((await listing(uid)).status, uid).to.equal(200)
      const res = await table(uid)
      expect(res.status, uid).to.equal(200)
      expect(res.body.id).to.deep.equal([1, 2, 3])
    }
  })

  it('lets nobody else read either', async () => {
    expect((await listing('carl')).status).to.equal(404)
    expect((await table('carl')).status).to.equal(404)
  })

  it('turns inheritance off when users are given, as upload_table does, and keeps it on without them', async () => {
    const info = (path: string) => dbmOk<{ inherit: number; users: string[] }>(svc, admin, path.includes('.') ? 'get_table_info' : 'get_dir_info', { path })
    expect(await info('team')).to.include({ inherit: 0 })
    await dbmOk(svc, admin, 'make_dir', { path: 'open' })
    expect(await info('open')).to.include({ inherit: 1 })
    await dbmOk(svc, admin, 'make_dir', { path: 'both', users: ['ann'], inherit: true })
    expect(await info('both')).to.include({ inherit: 1 })
    await dbmOk(svc, admin, 'upload_table', { path: 'team.shared', data: { id: [1] }, users: ['carl'] })
    expect(await info('team.shared')).to.include({ inherit: 0 })
  })
})
