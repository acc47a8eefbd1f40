/**
 * The server's side of the workbench's editor and landing page: `api` as the landing page (and
 * the endpoint list kept for programs), the session's instances listed there, a link with the
 * query (`?sql=`, `?xml=`) that fills the editor and runs nothing, and the names the editor
 * completes. The behaviour in a browser is test/browser/editor.test.ts's.
 */
import { expect } from 'chai'
import { loggedIn } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'

forEachStore(
  'workbench editor and landing page',
  (svc) => {
    const session = loggedIn(svc)
    const { get } = session
    const postJson = (path: string, body: object) => session.post(path).send(body)

    describe('the landing page', () => {
      it('answers api in HTML with links into the workbench, and / leads there', async () => {
        const res = await get('/v1/api')
        expect(res.status).to.equal(200)
        expect(res.headers['content-security-policy']).to.contain("style-src 'self'")
        for (const [id, href] of [
          ['go-sql', '/v1/api/sql'],
          ['go-run', '/v1/api/run'],
          ['go-ls', '/v1/api/ls'],
          ['go-new', '/v1/api/new'],
          ['endpoints-json', '/v1/api:json'],
          ['nav-home', '/v1/api'],
        ]) {
          expect(res.text, id).to.match(new RegExp(`<a id="${id}"[^>]* href="${href.replace(/[.]/g, '\\.')}"`))
        }
        expect(res.text).to.include('<script type="module" src="/ui/landing-page.js"></script>')
        const root = await svc().http.get('/')
        expect(root.status).to.equal(302)
        expect(root.headers.location).to.equal('/v1/api')
      })

      it('keeps the list of endpoints for programs: api:json, and api/index in HTML', async () => {
        const json = await get('/v1/api:json')
        expect(json.body.name).to.include('sql').and.to.include('dbm')
        expect((await get('/v1/api/index')).text).to.include('<title>tabula API</title>')
      })

      it("lists the session's instances with links, and says so when there is none", async () => {
        expect((await get('/v1/api')).text).to.include('id="no-instances"')
        const tag = (await postJson('/v1/api/new/sql:json', {})).body.tag
        const html = (await get('/v1/api')).text
        expect(html).to.match(new RegExp(`<ul id="instances"[^>]*>\\s*<li><a href="/v1/api/${tag}">Instance ${tag}</a> <span class="meta">SQL editor</span>`))
      })

      it('is not a page with parameters: the endpoint list answers them', async () => {
        const res = await get('/v1/api?x=1')
        expect(res.text).to.include('<title>tabula API</title>')
      })
    })

    describe('a link with the query', () => {
      const EVIL = "select '</textarea><script>alert(1)</script>' as x"

      it('fills the editor with ?sql= and runs nothing on the server', async () => {
        expect((await postJson('/v1/api/sql:json', { sql: 'select 1 as before' })).status).to.equal(200)
        for (const query of [EVIL, `${EVIL}&run=1`]) {
          const [sql, run] = query.split('&')
          const res = await get(`/v1/api/sql?sql=${encodeURIComponent(sql)}${run === undefined ? '' : `&${run}`}`)
          expect(res.status).to.equal(200)
          expect(res.text).to.include('data-mode="editor"')
          expect(res.text).to.include(`<textarea id="query" name="sql"`)
          expect(res.text).to.include('select &#39;&lt;/textarea&gt;&lt;script&gt;alert(1)&lt;/script&gt;&#39; as x</textarea>')
          expect(res.text).to.not.include('<script>alert')
        }
        // The session's last result is still the one run before.
        expect((await get('/v1/api/sql/!cols:json')).body.name).to.deep.equal(['before'])
      })

      it('runs a run=1 link as the page opens only when the browser did not come from another site', async () => {
        const link = `/v1/api/sql?sql=${encodeURIComponent('select 8 as eight')}&run=1`
        const own = await get(link).set('Sec-Fetch-Site', 'same-origin')
        expect(own.text).to.include('data-autorun="1"')
        expect((await get(link).set('Sec-Fetch-Site', 'none')).text, 'typed or bookmarked').to.include('data-autorun="1"')
        for (const site of ['cross-site', 'same-site']) {
          const res = await get(link).set('Sec-Fetch-Site', site)
          expect(res.status).to.equal(200)
          expect(res.text, site).to.include('select 8 as eight</textarea>')
          expect(res.text, site).to.not.include('data-autorun')
        }
        const referred = await get(link).set('Referer', 'https://elsewhere.example/page')
        expect(referred.text, 'from a page of another site (Referer)').to.not.include('data-autorun')
        expect((await get(`/v1/api/sql?sql=${encodeURIComponent('select 8 as eight')}`)).text, 'without run=1').to.not.include('data-autorun')
      })

      it('fills the macro editor with ?xml=, and an sql or run instance with its query', async () => {
        const run = await get(`/v1/api/run?xml=${encodeURIComponent('<base table="pub.demo.retail.stores"/>')}`)
        expect(run.text).to.include('&lt;base table=&quot;pub.demo.retail.stores&quot;/&gt;</textarea>')
        const tag = (await postJson('/v1/api/new/sql:json', {})).body.tag
        const inst = await get(`/v1/api/${tag}?sql=${encodeURIComponent('select 7 as seven')}`)
        expect(inst.text).to.include('data-mode="editor"').and.to.include('select 7 as seven</textarea>')
        expect(inst.text).to.include(`action="/v1/api/${tag}"`)
      })

      it('leaves any other parameter, a named :html format and a POST to the endpoint, which runs the query', async () => {
        const named = await get(`/v1/api/sql:html?sql=${encodeURIComponent('select 4 as four')}`)
        expect(named.status).to.equal(200)
        expect(named.text).to.not.include('data-mode="editor"')
        expect(named.text).to.include('<table>')
        expect((await get('/v1/api/sql/!cols:json')).body.name).to.deep.equal(['four'])
        const res = await get(`/v1/api/sql?sql=${encodeURIComponent('select 5 as five')}&timeout_=60000`)
        expect(res.status).to.equal(200)
        expect(res.text).to.not.include('data-mode="editor"')
        expect(res.text).to.include('<table>')
        const posted = await session.post('/v1/api/sql').type('form').send({ sql: 'select 6 as six' })
        expect(posted.text).to.not.include('data-mode="editor"')
        expect((await get('/v1/api/sql/!cols:json')).body.name).to.deep.equal(['six'])
      })
    })

    describe('the editor page', () => {
      it('carries the function names to complete, the sidebar and history (hidden until the script runs) and the keys', async () => {
        const sql = (await get('/v1/api/sql')).text
        const functions = (html: string) => /data-functions="([^"]*)"/.exec(html)?.[1].split(',') ?? []
        expect(functions(sql)).to.include.members(['group_concat', 'row_number', 'substr', 'strftime'])
        const run = (await get('/v1/api/run')).text
        expect(functions(run)).to.include.members(['strupcase', 'g_sum', 't_sum', 'splice', 'r_mapstring', 'if'])
        expect(functions(run)).to.not.include('neg').and.not.include('$splice')
        for (const html of [sql, run]) {
          expect(html).to.match(/<aside id="sidebar"[^>]* hidden>/)
          expect(html).to.match(/<details id="history"[^>]* hidden>/)
          expect(html).to.include('<div id="sidebar-tree"></div>').and.to.include('<ol id="history-list"')
          expect(html).to.include('id="editor-keys"')
        }
      })
    })
  },
  {},
  { skip: ['redis', 'cluster'] },
)
