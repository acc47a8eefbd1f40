/**
 * The workbench over HTTP: every page is a strict HTML5 document (the Content-Security-Policy of
 * the UI contract, no inline script or style, nothing from another server) with the element ids
 * the browser tests rely on; HTML requests without a session get the login page; /ui serves the
 * built assets and nothing else; and no value from a table, a query or a URL becomes markup.
 * The display rules of the compiled client code are checked here too; the pages' behaviour in
 * a real browser is test/browser's.
 */
import { expect } from 'chai'
import type { Response } from 'supertest'
import { ADMIN_PASSWORD, loggedIn } from '../helpers/service.js'
import { forEachStore } from '../helpers/suites.js'

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

const EVIL = '<script>alert(1)</script>'
const EVIL_ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt;'

/** `tag#id` selectors: each must be an element with that tag and id. */
function expectElements(html: string, selectors: readonly string[]): void {
  for (const selector of selectors) {
    const [tag, id] = selector.split('#')
    expect(html, selector).to.match(new RegExp(`<${tag}\\b[^>]*\\bid="${id}"`))
  }
}

/** A strict page: HTML5, the contract's policy, scripts only as modules from /ui, no inline style or handlers. */
function expectStrictPage(res: Response, status = 200): string {
  expect(res.status, res.text.slice(0, 300)).to.equal(status)
  expect(res.type).to.equal('text/html')
  expect(res.headers['content-security-policy']).to.equal(CSP)
  expect(res.headers['x-content-type-options']).to.equal('nosniff')
  const html = res.text
  expect(html.startsWith('<!doctype html>\n')).to.equal(true)
  expect(html).to.not.match(/<style\b/i)
  expect(html, 'style attribute').to.not.match(/<[a-z][^>]*\sstyle\s*=/i)
  expect(html, 'event-handler attribute').to.not.match(/<[a-z][^>]*\son[a-z]+\s*=/i)
  expect(html, 'a resource from another server').to.not.match(/\s(src|href)="(https?:)?\/\//i)
  for (const script of html.match(/<script\b[^>]*>[\s\S]*?<\/script>/gi) ?? []) {
    expect(script).to.match(/^<script type="module" src="\/ui\/[a-z-]+\.js"><\/script>$/)
  }
  expect(html).to.include('<link rel="stylesheet" href="/ui/workbench.css">')
  return html
}

const NAV = ['nav#topnav', 'a#nav-run', 'a#nav-sql', 'a#nav-new', 'a#nav-ls', 'a#nav-logout', 'span#whoami']
const EDITOR = [
  'textarea#query',
  'button#run',
  'div#progress-box',
  'progress#progress',
  'span#elapsed',
  'button#stop',
  'div#error',
  'table#result',
  'button#first',
  'button#prev',
  'button#next',
  'button#last',
  'span#rowinfo',
  'a#link-text',
  'a#link-json',
  'a#link-json-rows',
  'a#link-json-keyed',
]
const LOGIN = ['form#login-form', 'input#uid', 'input#pw', 'button#login-submit', 'div#login-error']

const DYNAMIC = '<dynamic store="1" note="x"><widget name="index"><base table="pub.demo.retail.stores"/><sel value="store={@store}"/></widget></dynamic>'

forEachStore('workbench pages', (svc) => {
  const session = loggedIn(svc)
  const get = (path: string, as: string | null = session.cookie) => {
    const req = svc().http.get(path)
    return as === null ? req : req.set('Cookie', as)
  }
  const post = (path: string, body: object, as: string | null = session.cookie) => {
    const req = svc().http.post(path)
    return (as === null ? req : req.set('Cookie', as)).send(body)
  }

  describe('without a session', () => {
    it('answers every HTML page with 403 and the login form', async () => {
      for (const path of ['/v1/api/run', '/v1/api/sql', '/v1/api/new', '/v1/api/ls', '/v1/api/pub.demo', '/v1/api/7', '/v1/api/run/!data', '/v1/api']) {
        const html = expectStrictPage(await get(path, null), 403)
        expectElements(html, LOGIN)
        expect(html, path).to.match(/<input\b[^>]*\bid="pw"[^>]*\btype="password"/)
        expect(html).to.include('data-login="/v1/api/!login:json"')
        expect(html).to.not.include('id="topnav"')
      }
    })

    it('says the session ended when the cookie no longer works', async () => {
      const html = expectStrictPage(await get('/v1/api/run', 'session=admin|123|_forged'), 403)
      expectElements(html, LOGIN)
      expect(html).to.include('session has ended')
    })

    it('keeps the JSON error for every other format, and for !login whatever the suffix', async () => {
      const json = await get('/v1/api/run:json', null)
      expect(json.status).to.equal(403)
      expect(json.type).to.equal('application/json')
      expect(json.body).to.deep.equal({
        error: 'Not logged in: send the cookie session=<uid>|<sid>|<epw> from api/!login.',
        code: 'no_session',
        requestId: json.headers['x-request-id'],
      })
      const text = await get('/v1/api/run/!data:text', null)
      expect(text.type).to.equal('application/json')
      const login = await post('/v1/api/!login', { uid: 'admin', pw: 'wrong' }, null)
      expect(login.status).to.equal(401)
      expect(login.type).to.equal('application/json')
      expect(login.body.code).to.equal('bad_credentials')
    })

    it('logs in as the page does (JSON to !login:json) and then shows the page', async () => {
      const login = await post('/v1/api/!login:json', { uid: 'admin', pw: ADMIN_PASSWORD }, null)
      expect(login.status).to.equal(200)
      const session = `session=${login.body.uid}|${login.body.sid}|${login.body.epw}`
      expectElements(expectStrictPage(await get('/v1/api/run', session)), NAV)
    })
  })

  describe('query editors', () => {
    for (const [path, param, from, active] of [
      ['/v1/api/run', 'xml', 'range_', 'run'],
      ['/v1/api/sql', 'sql', 'range', 'sql'],
      ['/v1/api/sql/new', 'sql', 'range', 'sql'],
    ]) {
      it(`${path}: the editor, progress, result table, pager and format links`, async () => {
        const html = expectStrictPage(await get(path))
        expectElements(html, [...NAV, ...EDITOR])
        expect(html).to.match(/<span id="whoami">admin<\/span>/)
        expect(html).to.match(new RegExp(`<a id="nav-${active}"[^>]*aria-current="page"`))
        expect(html).to.include(`<textarea id="query" name="${param}"`)
        expect(html).to.include(`data-param="${param}"`).and.to.include(`data-from="${from}"`)
        expect(html).to.match(/<button type="button" id="stop" disabled>/)
        // The result view's parts: the neutral notice, the download menu; the page runs in an instance of its own.
        expectElements(html, ['div#notice', 'details#download', 'a#download-csv', 'a#download-parquet', 'a#download-arrow', 'a#download-json'])
        expect(html).to.include(`data-app="${active}"`).and.to.include('data-instance="page"')
      })
    }

    it('answers POST without the query with the same page, and a posted query with its HTML result', async () => {
      expectElements(expectStrictPage(await post('/v1/api/run', {})), EDITOR)
      const result = expectStrictPage(await post('/v1/api/run', { xml: '<base table="pub.demo.retail.stores"/>' }))
      expect(result).to.include('<table>').and.to.include('<p>100 rows</p>').and.to.include('/v1/api/run/!data:text')
    })

    it('api/new: the text box, Submit and the place of the link to the new instance', async () => {
      const html = expectStrictPage(await get('/v1/api/new'))
      expectElements(html, [...NAV, 'textarea#query', 'button#create', 'a#instance-link', 'div#error'])
      expect(html).to.match(/<button type="submit" id="create">Submit<\/button>/)
    })
  })

  describe('instance pages', () => {
    it('a dynamic instance: a form field per variable with its current value, Apply and the result table', async () => {
      const tag = (await post('/v1/api/new:json', { xml: DYNAMIC })).body.tag
      let html = expectStrictPage(await get(`/v1/api/${tag}`))
      expectElements(html, [...NAV, 'form#vars', 'button#apply', 'table#result', 'div#error', 'progress#progress', 'button#stop', 'span#rowinfo'])
      expect(html)
        .to.match(/<input id="var-0" name="store" value="1"/)
        .and.to.match(/<input id="var-1" name="note" value="x"/)
      expect(html).to.include(`data-base="/v1/api/${tag}"`).and.to.include('data-index="table"')
      expect((await post(`/v1/api/${tag}:json`, { store: 2 })).body.store).to.deep.equal([2])
      html = expectStrictPage(await get(`/v1/api/${tag}`))
      expect(html).to.match(/name="store" value="2"/)
    })

    it('a dynamic instance without an index widget shows the widget status table', async () => {
      const tag = (await post('/v1/api/new:json', { xml: '<dynamic n="1"><widget name="w" class_="text" text_="n is {@n}"/></dynamic>' })).body.tag
      const html = expectStrictPage(await get(`/v1/api/${tag}`))
      expect(html).to.include('data-index="none"')
      expectElements(html, ['form#vars', 'table#result'])
    })

    it('sql and run instances: the editor, posting to the instance', async () => {
      for (const [app, from] of [
        ['sql', 'range'],
        ['run', 'range_'],
      ]) {
        const tag = (await post(`/v1/api/new/${app}:json`, {})).body.tag
        const html = expectStrictPage(await get(`/v1/api/${tag}`))
        expectElements(html, [...NAV, ...EDITOR])
        expect(html).to.include(`data-base="/v1/api/${tag}"`).and.to.include(`data-from="${from}"`)
        expect(html).to.include(`action="/v1/api/${tag}"`)
        // An instance's page runs in that instance, not in one of its own.
        expect(html).to.include(`data-app="${app}"`).and.to.include('data-instance="self"')
      }
    })

    it('a fixed-query instance: its query and the result viewer', async () => {
      const tag = (await post('/v1/api/new:json', { xml: '<base table="pub.demo.retail.stores"/>' })).body.tag
      const html = expectStrictPage(await get(`/v1/api/${tag}`))
      expectElements(html, [...NAV, 'table#result', 'progress#progress', 'button#stop', 'span#rowinfo', 'div#error'])
      expect(html).to.include('data-mode="viewer"').and.to.include('&lt;base table=&quot;pub.demo.retail.stores&quot;/&gt;')
    })

    it("an instance that is not the session's is a 404 page", async () => {
      const html = expectStrictPage(await get('/v1/api/999999'), 404)
      expectElements(html, ['div#error', ...NAV])
    })
  })

  describe('the folder browser', () => {
    it('api/ls: the top-level folders as entries, with breadcrumbs', async () => {
      const html = expectStrictPage(await get('/v1/api/ls'))
      expectElements(html, [...NAV, 'ul#entries', 'nav#crumbs', 'table#cols', 'table#result', 'span#rowinfo'])
      expect(html).to.include('<title>Top-level folders</title>')
      expect(html).to.match(/<a class="entry" data-kind="dir" data-path="pub" href="\/v1\/api\/ls\/pub">/)
      expect(html).to.match(/<a id="nav-ls"[^>]*aria-current="page"/)
    })

    it('api/ls/{path} and api/{folder}: tables as entries, links to the listing in other formats', async () => {
      for (const path of ['/v1/api/ls/pub.demo.retail', '/v1/api/pub.demo.retail']) {
        const html = expectStrictPage(await get(path))
        for (const table of ['item', 'products', 'stores']) {
          expect(html).to.match(new RegExp(`<li><a class="entry" data-kind="tab" data-path="pub\\.demo\\.retail\\.${table}"[^>]*>${table}</a>`))
        }
        expect(html.match(/<li><a class="entry"/g)).to.have.length(3)
        expect(html).to.include(`href="${path}:json.keyed"`).and.to.include('<title>pub.demo.retail</title>')
        expect(html).to.match(
          /<nav id="crumbs"[^>]*><a href="\/v1\/api\/ls">Folders<\/a>.*<a href="\/v1\/api\/ls\/pub">pub<\/a>.*<span aria-current="page">retail<\/span>/,
        )
      }
    })

    it('leaves a table URL to the table (its data page), and answers a missing folder with a 404 page', async () => {
      const table = expectStrictPage(await get('/v1/api/pub.demo.retail.stores'))
      expect(table).to.include('<title>pub.demo.retail.stores</title>').and.to.include('<table>')
      const missing = expectStrictPage(await get('/v1/api/ls/pub.nosuch'), 404)
      expect(missing).to.match(/<div id="error" class="error" role="alert">[^<]*pub\.nosuch[^<]*<\/div>/)
    })
  })

  describe('HTML error pages', () => {
    it('shows the API message with the status; other formats keep the JSON body', async () => {
      const html = expectStrictPage(await get('/v1/api/run/!nosuch'), 404)
      expectElements(html, [...NAV, 'div#error'])
      expect(html).to.include('Unknown index-widget method &quot;!nosuch&quot;')
      const json = await get('/v1/api/run/!nosuch:json')
      expect(json.type).to.equal('application/json')
      expect(json.body.code).to.equal('not_found')
    })

    it('shows why a posted query failed', async () => {
      const html = expectStrictPage(await post('/v1/api/run', { xml: '<base table="pub.demo.retail.nosuch"/>' }), 404)
      expect(html).to.match(/<div id="error"[^>]*>No such table &quot;pub\.demo\.retail\.nosuch&quot;/)
      expect(html).to.include('<code>unknown_table</code>')
    })

    it('keeps the Allow header of a 405', async () => {
      const res = await get('/v1/api/dbm')
      expectStrictPage(res, 405)
      expect(res.headers.allow).to.equal('POST')
    })
  })

  describe('assets under /ui', () => {
    const TYPES: Record<string, string> = { css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8', svg: 'image/svg+xml' }
    const ASSETS = [
      'workbench.css',
      'favicon.svg',
      'query-page.js',
      'new-page.js',
      'instance-page.js',
      'folder-page.js',
      'login-page.js',
      'nav.js',
      'result-view.js',
      'cells.js',
      'api.js',
    ]

    it('serves the built scripts and stylesheet with their types, the policy, nosniff and a cache header', async () => {
      for (const name of ASSETS) {
        const res = await get(`/ui/${name}`, null)
        expect(res.status, name).to.equal(200)
        expect(res.headers['content-type']).to.equal(TYPES[name.slice(name.lastIndexOf('.') + 1)])
        expect(res.headers['content-security-policy']).to.equal(CSP)
        expect(res.headers['x-content-type-options']).to.equal('nosniff')
        expect(res.headers['cache-control']).to.equal('no-cache')
        expect(res.headers.etag).to.match(/^"[\w-]+"$/)
        const again = await get(`/ui/${name}`, null).set('If-None-Match', res.headers.etag)
        expect(again.status, `${name} revalidated`).to.equal(304)
      }
    })

    it('serves every script and stylesheet the pages refer to', async () => {
      const pages = await Promise.all(['/v1/api', '/v1/api/run', '/v1/api/new', '/v1/api/ls'].map((p) => get(p)))
      const login = await get('/v1/api/run', null)
      const refs = new Set<string>()
      for (const page of [...pages, login]) for (const m of page.text.matchAll(/(?:src|href)="(\/ui\/[^"]+)"/g)) refs.add(m[1])
      expect(refs.size).to.be.greaterThan(3)
      for (const ref of refs) expect((await get(ref, null)).status, ref).to.equal(200)
    })

    it('answers 404 for anything else, and 405 for other methods', async () => {
      for (const path of [
        '/ui/nope.js',
        '/ui/cells.ts',
        '/ui/build.mjs',
        '/ui/tsconfig.json',
        '/ui/',
        '/ui/x/nav.js',
        '/ui/%2e%2e/package.json',
        '/ui/..%2fpackage.json',
        '/ui/NAV.JS',
      ]) {
        const res = await get(path, null)
        expect(res.status, path).to.equal(404)
        expect(res.type).to.equal('application/json')
      }
      const res = await post('/ui/nav.js', {}, null)
      expect(res.status).to.equal(405)
      expect(res.headers.allow).to.equal('GET, HEAD')
    })
  })

  describe('escaping', () => {
    /** A page must show EVIL as text (when it shows it at all) and never as markup. */
    function expectEscaped(html: string, where: string): void {
      expect(html, where).to.not.match(/<script>alert|<b>bold|onmouseover="alert/i)
    }

    it('no value, label, title, variable or query text becomes markup on any server-rendered page', async () => {
      const xml =
        '<table cols="evil">&lt;script&gt;alert(1)&lt;/script&gt;;x" onmouseover="alert(2)</table><willbe name="lab" label="&lt;b&gt;bold" value="1"/>'
      const ran = expectStrictPage(await post('/v1/api/run', { xml }))
      expect(ran).to.include(EVIL_ESCAPED)
      expectEscaped(ran, 'run result')
      for (const method of ['data', 'head', 'cols']) expectEscaped(expectStrictPage(await get(`/v1/api/run/!${method}`)), `!${method}`)

      const saved = await post('/v1/api/run:json', { xml, savetable: 'uploads.admin.xss', title: EVIL, replace: 1 })
      expect(saved.status, saved.text).to.equal(200)
      const folder = expectStrictPage(await get('/v1/api/ls/uploads.admin'))
      expect(folder).to.include(`data-title="${EVIL_ESCAPED}"`)
      expectEscaped(folder, 'folder page')
      expectEscaped(expectStrictPage(await get('/v1/api/uploads.admin.xss')), 'table page')

      const dynamic = (await post('/v1/api/new:json', { xml: DYNAMIC })).body.tag
      await post(`/v1/api/${dynamic}:json`, { note: `"><script>alert(1)</script>` })
      const vars = expectStrictPage(await get(`/v1/api/${dynamic}`))
      expect(vars).to.include(`name="note" value="&quot;&gt;${EVIL_ESCAPED}"`)
      expectEscaped(vars, 'dynamic page')

      const fixed = (await post('/v1/api/new:json', { xml })).body.tag
      expectEscaped(expectStrictPage(await get(`/v1/api/${fixed}`)), 'fixed-query page')

      const error = expectStrictPage(await get(`/v1/api/ls/${encodeURIComponent(EVIL)}`), 404)
      expect(error).to.include(EVIL_ESCAPED)
      expectEscaped(error, 'error page')
    })
  })
})

/** The display rules of the client (dist/ui/cells.js), loaded from the build like the browser does. */
describe('workbench display rules (compiled client code)', () => {
  interface Column {
    name: string
    label: string
    type: 'i' | 'j' | 'f' | 'a' | null
    format: string
  }
  let cells: {
    cellText(v: unknown): string
    columnsOf(cols: Record<string, unknown[]>): Column[]
    isNumericColumn(c: Column, values: unknown[]): boolean
  }
  let rowInfo: (from: number, to: number, total: number) => string
  let elapsedText: (ms: number) => string

  before(async () => {
    cells = await import(new URL('../../ui/cells.js', import.meta.url).href)
    ;({ rowInfo } = await import(new URL('../../ui/result-view.js', import.meta.url).href))
    ;({ elapsedText } = await import(new URL('../../ui/progress.js', import.meta.url).href))
  })

  it('shows the text the server formatted as it is, and N/A as empty', () => {
    expect(cells.cellText('$1,234.50')).to.equal('$1,234.50')
    expect(cells.cellText(EVIL)).to.equal(EVIL)
    expect(cells.cellText(null)).to.equal('')
    expect(cells.cellText(7)).to.equal('7')
  })

  it('reads !cols, and right-aligns numbers (sql: by the values)', () => {
    const cols = cells.columnsOf({ name: ['a', 'b'], label: ['A', 'B'], type: ['i', 'a'], format: ['type:num', 'type:char'] })
    expect(cols).to.deep.equal([
      { name: 'a', label: 'A', type: 'i', format: 'type:num' },
      { name: 'b', label: 'B', type: 'a', format: 'type:char' },
    ])
    expect(cells.columnsOf({ name: ['x'], label: ['X'], width: [3] })[0]).to.deep.equal({ name: 'x', label: 'X', type: null, format: '' })
    expect(cells.isNumericColumn({ name: 'x', label: 'x', type: null, format: '' }, [1, null, 2])).to.equal(true)
    expect(cells.isNumericColumn({ name: 'x', label: 'x', type: null, format: '' }, ['x', 2])).to.equal(false)
    // Formatted pages (values_=formatted) bring numbers as their text, N/A as ''.
    expect(cells.isNumericColumn({ name: 'x', label: 'x', type: null, format: '' }, ['1', '', '-2.5', '1e-7'])).to.equal(true)
    expect(cells.isNumericColumn({ name: 'x', label: 'x', type: null, format: '' }, ['1', '12 >'])).to.equal(false)
    expect(cells.isNumericColumn({ name: 'x', label: 'x', type: 'a', format: '' }, [1])).to.equal(false)
  })

  it('words the row range and the elapsed time', () => {
    expect(rowInfo(0, 50, 1_000_000)).to.equal('rows 1\u201350 of 1,000,000')
    expect(rowInfo(999_950, 1_000_000, 1_000_000)).to.equal('rows 999,951\u20131,000,000 of 1,000,000')
    expect(rowInfo(0, 0, 0)).to.equal('no rows')
    expect(elapsedText(400)).to.equal('0.4 s')
    expect(elapsedText(125_000)).to.equal('2 min 05 s')
  })
})
