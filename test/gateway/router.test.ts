/**
 * The router (gateway/routes/index.ts): what it declares, and how it answers methods, tags and
 * paths. Which URL spellings reach which canonical route is path.ts's (path.test.ts); what each
 * endpoint answers is in the endpoint's own tests.
 */
import { expect } from 'chai'
import type { Deps } from '../../gateway/deps.js'
import { createRouter } from '../../gateway/routes/index.js'
import { loggedIn } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'

forEachStore(
  'the router',
  (svc) => {
    const session = loggedIn(svc)
    const { get, post } = session

    it('declares canonical paths only, and the catch-all tag routes after every fixed one', () => {
      const paths = createRouter(svc().deps as Deps).stack.map((layer) => String(layer.path))
      expect(paths).to.include.members(['/api', '/api/index/login', '/api/index/logout', '/api/sql/index/:method', '/api/ls/:path'])
      for (const p of paths) expect(p, p).not.to.match(/[!@]/)
      const firstTag = paths.indexOf('/api/:tag')
      expect(firstTag).to.be.above(0)
      expect(
        paths.slice(firstTag).every((p) => p.startsWith('/api/:tag')),
        paths.slice(firstTag).join(' '),
      ).to.equal(true)
    })

    it('answers 405 with an Allow header for a method a route does not take', async () => {
      const login = await svc().http.get('/v1/api/!login:json')
      expect(login.status).to.equal(405)
      expect(login.headers.allow).to.equal('POST')
      const dbm = await get('/v1/api/dbm:json')
      expect(dbm.status).to.equal(405)
      expect(dbm.headers.allow).to.equal('POST')
      const sql = await svc().http.delete('/v1/api/sql:json').set('Cookie', session.cookie)
      expect(sql.status).to.equal(405)
      expect(sql.headers.allow).to.equal('GET, HEAD, POST')
    })

    it('takes a digits-only segment for an instance tag and anything else for a catalog path', async () => {
      const tag = await get('/v1/api/999999:json')
      expect(tag.status).to.equal(404)
      expect(tag.body.code).not.to.equal('unknown_directory')
      const folder = await get('/v1/api/pub.demo:json')
      expect(folder.status, folder.text).to.equal(200)
      expect(folder.body.path).to.be.an('array')
    })

    it('answers !methods of api/sql and api/run itself, the other methods going to the endpoint', async () => {
      for (const app of ['sql', 'run']) {
        expect((await post(`/v1/api/${app}/!methods:json`)).body).to.deep.equal(['cols', 'rows', 'data', 'head', 'stop', 'status', 'methods'])
      }
    })
  },
  {},
  { skip: ['redis', 'redis-cluster', 'cluster'] },
)
