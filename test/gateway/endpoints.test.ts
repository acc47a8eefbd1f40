/**
 * `api` (also `api/index`): the list of the service's endpoints (gateway/routes/endpoints.ts), in
 * every format, and read through its index widget.
 */
import { expect } from 'chai'
import { loggedIn } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'

forEachStore('the endpoint list', (svc) => {
  const { get, post } = loggedIn(svc)

  describe('api', () => {
    const NAMES = ['!login', '!logout', 'run', 'sql', 'new', 'new/{app}', '{tag}', 'dbm', 'ls', '{path}']

    it('lists every built-in endpoint with a name and a title', async () => {
      const res = await get('/v1/api:json')
      expect(res.status, res.text).to.equal(200)
      expect(res.body.name).to.deep.equal(NAMES)
      expect(res.body.title).to.have.length(NAMES.length)
      res.body.title.forEach((t: string) => expect(t).to.be.a('string').and.not.equal(''))
    })

    it('answers in every format, with format links that keep the version', async () => {
      expect((await get('/v1/api:json.rows')).body.cols).to.deep.equal(['name', 'title'])
      expect((await get('/v1/api:json.keyed')).body[8]).to.include({ name: 'ls' })
      expect((await get('/v1/api:text')).text.split('\n')[0]).to.match(/^\s*name\s+title/)
      // In HTML the list is api/index; api itself is the workbench's landing page, which links to the JSON.
      const html = await get('/v1/api/index')
      expect(html.type).to.equal('text/html')
      expect(html.text).to.contain('<title>tabula API</title>').and.to.contain('href="/v1/api/index:json"')
      expect((await get('/v1/api')).text)
        .to.contain('<title>tabula workbench</title>')
        .and.to.contain('href="/v1/api:json"')
    })
  })

  describe('api/!method: the list read as a result', () => {
    it("answers the index widget's read methods and !methods, nothing to stop", async () => {
      expect((await get('/v1/api/!rows:json')).body).to.equal(10)
      expect((await get('/v1/api/!cols:json')).body.name).to.deep.equal(['name', 'title'])
      expect((await get('/v1/api/!methods:json')).body).to.deep.equal(['cols', 'rows', 'data', 'head', 'methods'])
    })

    it('refuses an unknown method with 404, naming the ones it answers', async () => {
      const res = await post('/v1/api/!stop:json')
      expect(res.status, res.text).to.equal(404)
      expect(res.body.error).to.include('!cols, !rows, !data, !head, !methods')
    })
  })
})
