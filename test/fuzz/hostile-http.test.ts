/**
 * Hostile input through HTTP, on every kind of service: XML that declares or uses entities
 * (billion laughs, external entities), absurd nesting and size; table paths with `..`, `/`, NUL,
 * unicode and great length; SQL that attaches, detaches, writes, loads extensions or hides a
 * second statement; and macro queries and SQL that try to reach a table the caller may not read,
 * by every route the languages offer. Each answers a 4xx (a table the caller may not read exactly
 * as a missing one), never a 500 and never the table's data, and after each one the service still
 * answers an ordinary query.
 */
import { expect } from 'chai'
import type { Response } from 'supertest'
import { forEachStore } from '../helpers/suites.js'
import { dbm, dbmOk, userCookie } from '../helpers/dbm.js'
import { loggedIn, startTestService, type TestService } from '../helpers/service.js'

/** A value only the hidden tables hold: it must never appear in an answer to the user. */
const SECRET = 'TOPSECRET_hx_7311'

/** The hidden tables, and missing paths of the same shapes to compare their answers with. */
const HIDDEN = { dir: 'hx_secret', table: 'hx_secret.t', deep: 'hx_secret.deep.t' }
const MISSING = { dir: 'hx_nosuch', table: 'hx_nosuch.t', deep: 'hx_nosuch.deep.t' }

/** What a request came to, with the missing paths written as the hidden ones so the two compare. */
function outcome(res: Response, swap = false): { status: number; code?: string; error?: string } {
  const body = res.body as { code?: string; error?: string }
  let error = body.error
  if (swap && error) error = error.replace(/hx_nosuch/gi, (m) => (m === m.toUpperCase() ? HIDDEN.dir.toUpperCase() : HIDDEN.dir))
  return { status: res.status, code: body.code, error }
}

/** XML refused as malformed, with the phrase the message must contain. */
const BAD_XML: readonly [name: string, xml: string, message: RegExp][] = [
  [
    'billion laughs (nested entity expansion)',
    `<!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]><table cols="a">&lol9;</table>`,
    /DOCTYPE declarations are not allowed/,
  ],
  [
    'an external entity (file)',
    '<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><table cols="a">&xxe;</table>',
    /DOCTYPE declarations are not allowed/,
  ],
  [
    'an external entity (URL)',
    '<!DOCTYPE x SYSTEM "http://127.0.0.1:1/evil.dtd"><base table="pub.demo.retail.stores"/>',
    /DOCTYPE declarations are not allowed/,
  ],
  ['a parameter entity', '<!ENTITY % p SYSTEM "file:///etc/passwd"><base table="pub.demo.retail.stores"/>', /ENTITY declarations are not allowed/],
  ['elements nested 100,000 deep', '<a>'.repeat(100_000) + '</a>'.repeat(100_000), /nested more than 200 deep/],
  ['a close tag that closes nothing', '</base><base table="pub.demo.retail.stores"/>', /has no matching <base>/],
  ['a NUL inside a tag', '<base\u0000 table="pub.demo.retail.stores"/>', /^Line 1, column \d+: /],
  ['a reserved root name', '<__tabula_root__/>', /reserved element name/],
]

/** XML that is well-formed but means nothing harmful: the answer is a result or a clean 400. */
const ODD_XML: readonly [name: string, xml: string, status: number][] = [
  ['an undeclared entity, kept as text', '<table cols="a">\'&xxe;\'</table>', 200],
  ['a character reference to NUL', '<table cols="a">\'&#0;\'</table>', 400],
  ['an encoding declaration', '<?xml version="1.0" encoding="UTF-7"?><table cols="a">1</table>', 200],
  ['lone surrogates and a BOM in text', '\uFEFF<table cols="a">\'\uD800\uDFFF\uDC00\'</table>', 200],
  ['a block bomb (a 900 KB value tested 100,000 times)', blockBomb(), 400],
]

/** A query of about 2 KB whose blocks would evaluate a 900 KB expression 100,000 times. */
function blockBomb(): string {
  const lets = [`<let a0="${'x'.repeat(900)}">`]
  for (let i = 1; i <= 10; i++) lets.push(`<let a${i}="{@a${i - 1}}{@a${i - 1}}">`)
  let library = `<library><block name="b0"><if test="{strlen('{@a10}')}>0"></if></block>`
  for (let i = 1; i <= 5; i++) library += `<block name="b${i}">${`<insert block="b${i - 1}"/>`.repeat(10)}</block>`
  return `${library}</library>${lets.join('')}<insert block="b5"/>${'</let>'.repeat(11)}<table cols="a">1</table>`
}

/** SQL the guard must refuse, with the code. */
const REFUSED_SQL: readonly [sql: string, code: string][] = [
  ["ATTACH DATABASE '/etc/passwd' AS x", 'sql_not_read_only'],
  ["attach 'file:t0?mode=ro' as y", 'sql_not_read_only'],
  ['DETACH t0', 'sql_not_read_only'],
  ['PRAGMA writable_schema = 1', 'sql_not_read_only'],
  ['select * from pragma_database_list; PRAGMA query_only = 0', 'sql_multiple_statements'],
  ["select load_extension('/tmp/evil.so')", 'sql_not_read_only'],
  ["select LOAD_EXTENSION ('/tmp/evil.so', 'entry')", 'sql_not_read_only'],
  ["select readfile('/etc/passwd')", 'sql_not_read_only'],
  ["VACUUM INTO '/tmp/copy.db'", 'sql_not_read_only'],
  ['select 1; select 2', 'sql_multiple_statements'],
  ["select 1; attach '/tmp/x.db' as x", 'sql_multiple_statements'],
  ["select '--' ; delete from t", 'sql_multiple_statements'],
  ['select 1 /* ; */ ; insert into t values (1)', 'sql_multiple_statements'],
  ['select 1 -- comment\n; drop table t', 'sql_multiple_statements'],
  ['with x as (select 1) insert into t select * from x', 'sql_not_read_only'],
  ['with x as (select 1) delete from t', 'sql_not_read_only'],
  ['select * from (select 1) returning *', 'sql_error'],
  ['ＳＥＬＥＣＴ 1', 'sql_not_read_only'],
  ['ＩＮＳＥＲＴ INTO t VALUES (1)', 'sql_not_read_only'],
  ['select 1 union ѕelect 2', 'sql_error'],
  ["select 'unterminated", 'sql_error'],
  ['select 1 \u0000; drop table t', 'sql_error'],
  ['/* only a comment */', 'missing_parameter'],
]

/** SQL whose dangerous-looking part is inside a comment or a string: it runs as the harmless query it is. */
const HARMLESS_SQL: readonly [sql: string, body: unknown][] = [
  ["select 1 as one -- ; attach '/etc/passwd' as x", { one: [1] }],
  ['select 1 as one /* ; delete from t; */', { one: [1] }],
  ["select '; drop table t; --' as s", { s: ['; drop table t; --'] }],
  ['select 1 as "insert"', { insert: [1] }],
  ['select 2 as ınsert', { ınsert: [2] }],
]

/** Paths outside the catalog's grammar: a 4xx each, never a 500. */
const ODD_PATHS: readonly [path: string, status: number][] = [
  ['/v1/api/..:json', 404],
  ['/v1/api/../../etc/passwd:json', 404],
  ['/v1/api/%2e%2e%2f%2e%2e%2fetc%2fpasswd:json', 404],
  ['/v1/api/pub..demo:json', 404],
  ['/v1/api/pub.demo%2Fretail:json', 404],
  ['/v1/api/pub%00demo:json', 404],
  ['/v1/api/pub.d%C3%A9mo.retail.item:json', 404],
  ['/v1/api/%F0%9F%92%A3:json', 404],
  ['/v1/api/%E0%A4%A:json', 400],
  ['/v1/api/%:json', 400],
  [`/v1/api/${'a.'.repeat(4000)}a:json`, 404],
  ['/v1/api/pub.demo.retail.item:xml', 400],
  ['/v1/api/pub.demo.retail.item:json:json', 400],
  ['/v1/api/pub.demo.retail.item/!nosuch:json', 404],
  ['/v1/api/ls/..:json', 404],
  ['/v1/api/ls/hx_secret/..:json', 404],
  ['/v2/api/sql:json', 404],
]

/** Macro queries that name the hidden table, as `{t}` for the path to reach. */
const REACHING_XML: readonly [how: string, xml: (t: string) => string][] = [
  ['base', (t) => `<base table="${t}"/>`],
  ['link', (t) => `<base table="pub.demo.retail.stores"/><link table2="${t}" col="store"/>`],
  ['link (include)', (t) => `<base table="pub.demo.retail.stores"/><link table2="${t}" col="store" type="include"/>`],
  ['merge', (t) => `<base table="pub.demo.retail.stores"/><merge table2="${t}"/>`],
  [
    'a merge inside a link',
    (t) => `<base table="pub.demo.retail.stores"/><link table2="pub.demo.retail.stores" col="store" type="include"><merge table2="${t}"/></link>`,
  ],
  ['{@var} from <let>', (t) => `<let t="${t}"><base table="{@t}"/></let>`],
  ['a block expression', (t) => `<let a="${t.slice(0, 4)}" b="${t.slice(4)}"><base table="{@a}{@b}"/></let>`],
  [
    '<insert> overriding a block variable',
    (t) => `<library><block name="b" t="pub.demo.retail.stores"><base table="{@t}"/></block></library><insert block="b" t="${t}"/>`,
  ],
  [
    '<call> overriding a block variable',
    (t) => `<library><block name="b" t="pub.demo.retail.stores"><base table="{@t}"/></block></library><call block="b" t="${t}"/>`,
  ],
  [
    '<expand> and <set>',
    (t) => `<library><block name="b"><set t="${t}"/></block></library><let t="pub.demo.retail.stores"><expand block="b"/><base table="{@t}"/></let>`,
  ],
  ['<if> choosing the table', (t) => `<if test="1"><then><base table="${t}"/></then><else><base table="pub.demo.retail.stores"/></else></if>`],
  ['upper case', (t) => `<BASE TABLE="${t.toUpperCase()}"/>`],
]

/** SQL that names the hidden table, as `{t}`. */
const REACHING_SQL: readonly [how: string, sql: (t: string) => string][] = [
  ['a bare path', (t) => `select * from ${t}`],
  ['a double-quoted path', (t) => `select * from "${t}"`],
  ['a bracketed path', (t) => `select * from [${t}]`],
  ['a backquoted path', (t) => `select * from \`${t}\``],
  ['upper case', (t) => `select * from ${t.toUpperCase()}`],
  ['a subquery', (t) => `select (select max(v) from ${t}) as v`],
  ['a join with a readable table', (t) => `select * from pub.demo.retail.stores s join ${t} x on x.store = s.store`],
  ['a CTE', (t) => `with x as (select * from ${t}) select * from x`],
  ['the IN-table form', (t) => `select store from pub.demo.retail.stores where store in ${t}`],
]

forEachStore('hostile input', (svc) => {
  let admin: string
  let user: string
  before(async function () {
    this.timeout(30_000)
    admin = await svc().login()
    await dbmOk(svc(), admin, 'make_dir', { path: HIDDEN.dir, inherit: false, users: [] })
    await dbmOk(svc(), admin, 'make_dir', { path: `${HIDDEN.dir}.deep` })
    for (const path of [HIDDEN.table, HIDDEN.deep]) {
      await dbmOk(svc(), admin, 'upload_table', {
        path,
        cols: [
          { name: 'store', type: 'int' },
          { name: 'v', type: 'text' },
        ],
        data: { store: [1], v: [SECRET] },
      })
    }
    user = await userCookie(svc(), 'hx_user')
  })

  const post = (path: string, body: object, cookie = user) => svc().http.post(`/v1/api/${path}`).set('Cookie', cookie).send(body)
  const get = (path: string, cookie = user) => svc().http.get(path).set('Cookie', cookie)

  /** The service still answers an ordinary query after a hostile one. */
  async function stillServes(after: string): Promise<void> {
    const res = await post('sql:json', { sql: 'select 1 as one' })
    expect(res.status, `after ${after}: ${res.text}`).to.equal(200)
    expect(res.body).to.deep.equal({ one: [1] })
  }

  /** Common to every hostile answer: a 4xx, not the hidden data. */
  function clientError(res: Response, what: string): void {
    expect(res.status, `${what}: ${res.text.slice(0, 300)}`).to.be.within(400, 499)
    expect(res.text, what).to.not.contain(SECRET)
  }

  describe('XML', () => {
    it('refuses DOCTYPE and ENTITY declarations, absurd nesting and malformed markup with 400 parse_error', async function () {
      this.timeout(30_000)
      for (const [name, xml, message] of BAD_XML) {
        const res = await post('run:json', { xml })
        clientError(res, name)
        expect(res.body.code, name).to.equal('parse_error')
        expect(res.body.error, name).to.match(message)
        await stillServes(name)
      }
    })

    it('reads undeclared entities as text and never expands anything', async function () {
      this.timeout(30_000)
      for (const [name, xml, status] of ODD_XML) {
        const res = await post('run:json', { xml })
        expect(res.status, `${name}: ${res.text.slice(0, 300)}`).to.equal(status)
        expect(res.text).to.not.contain('root:')
        await stillServes(name)
      }
    })

    it('refuses a 5 MB attribute and a million sibling elements with 413 (MAX_QUERY_BYTES) before parsing', async function () {
      this.timeout(60_000)
      const cases = {
        'a 5 MB attribute': `<table cols="a" title="${'x'.repeat(5_000_000)}">1</table>`,
        'a million sibling elements': '<note/>'.repeat(1_000_000),
      }
      for (const [name, xml] of Object.entries(cases)) {
        const res = await post('run:json', { xml })
        clientError(res, name)
        expect(res.status, name).to.equal(413)
        expect(res.body.code, name).to.equal('query_too_large')
        await stillServes(name)
      }
    })
  })

  describe('paths', () => {
    it('answers paths with .., %2F, NUL, unicode, bad escapes, bad suffixes or great length with a 4xx', async function () {
      this.timeout(30_000)
      for (const [path, status] of ODD_PATHS) {
        const res = await get(path)
        clientError(res, path)
        expect(res.status, `${path}: ${res.text.slice(0, 200)}`).to.equal(status)
        await stillServes(path)
      }
    })
  })

  describe('SQL', () => {
    it('refuses ATTACH, DETACH, PRAGMA, load_extension, VACUUM INTO, second statements, writes in a CTE and lookalikes', async function () {
      this.timeout(30_000)
      for (const [sql, code] of REFUSED_SQL) {
        const res = await post('sql:json', { sql })
        clientError(res, sql)
        expect(res.body.code, `${sql}: ${res.body.error}`).to.equal(code)
        await stillServes(sql)
      }
    })

    it('runs queries whose dangerous-looking part is only a comment, a string or a name as the harmless queries they are', async () => {
      for (const [sql, body] of HARMLESS_SQL) {
        const res = await post('sql:json', { sql })
        expect(res.status, `${sql}: ${res.text}`).to.equal(200)
        expect(res.body).to.deep.equal(body)
      }
    })
  })

  describe('a table the caller may not read', () => {
    it('is readable by its owner (so the refusals below are about permission)', async () => {
      const res = await post('sql:json', { sql: `select v from ${HIDDEN.deep}` }, admin)
      expect(res.body).to.deep.equal({ v: [SECRET] })
    })

    for (const [how, xml] of REACHING_XML) {
      it(`answers a macro query reaching it through ${how} with 404 unknown_table, as for a missing table`, async () => {
        for (const key of ['table', 'deep'] as const) {
          const res = await post('run:json', { xml: xml(HIDDEN[key]) })
          clientError(res, how)
          expect(outcome(res), how).to.deep.include({ status: 404, code: 'unknown_table' })
          expect(outcome(res)).to.deep.equal(outcome(await post('run:json', { xml: xml(MISSING[key]) }), true))
        }
        await stillServes(how)
      })
    }

    it('answers SQL that names it, however written, with 404 unknown_table, as for a missing table', async function () {
      this.timeout(30_000)
      for (const [how, sql] of REACHING_SQL) {
        for (const key of ['table', 'deep'] as const) {
          const res = await post('sql:json', { sql: sql(HIDDEN[key]) })
          clientError(res, `${how} (${key})`)
          expect(outcome(res), `${how} (${key}): ${res.body.error}`).to.deep.include({ status: 404, code: 'unknown_table' })
          expect(outcome(res), how).to.deep.equal(outcome(await post('sql:json', { sql: sql(MISSING[key]) }), true))
        }
        await stillServes(how)
      }
    })

    it('answers a dynamic instance whose variable is set to it (posted, or through a bound widget) with 404 unknown_table', async () => {
      const xml = `<dynamic t="pub.demo.retail.stores"><widget name="pick" class_="dropdown" value_="@t"><table cols="v">a</table></widget>
        <widget name="index"><base table="{@t}"/><colord cols="store"/></widget></dynamic>`
      const created = await post('new:json', { xml })
      expect(created.status, created.text).to.equal(200)
      const tag = created.body.tag as number
      expect((await post(`${tag}:json`, {})).status).to.equal(200)
      const posted = async (t: string) => post(`${tag}:json`, { t })
      const throughWidget = async (t: string) => {
        const set = await post(`${tag}/pick:json`, { value: t })
        expect(set.status, set.text).to.be.below(500)
        expect(set.text).to.not.contain(SECRET)
        return post(`${tag}:json`, {})
      }
      for (const [how, read] of [
        ['posted', posted],
        ['through the bound widget', throughWidget],
      ] as const) {
        const res = await read(HIDDEN.deep)
        clientError(res, how)
        expect(outcome(res), how).to.deep.include({ status: 404, code: 'unknown_table' })
        expect(outcome(res), how).to.deep.equal(outcome(await read(MISSING.deep), true))
      }
      await stillServes('dynamic instances')
    })

    it('refuses it as the source of save_table, and its path and folder read as missing ones', async () => {
      const saved = await dbm(svc(), user, 'save_table', { path: 'uploads.hx_user.copy', xml: `<base table="${HIDDEN.deep}"/>` })
      expect(saved).to.deep.include({ rc: 1, code: 'unknown_table' })
      for (const [hidden, missing] of [
        [`/v1/api/${HIDDEN.deep}:json`, `/v1/api/${MISSING.deep}:json`],
        [`/v1/api/${HIDDEN.deep}/!data:json`, `/v1/api/${MISSING.deep}/!data:json`],
        [`/v1/api/${HIDDEN.dir}:json`, `/v1/api/${MISSING.dir}:json`],
        [`/v1/api/ls/${HIDDEN.dir}:json`, `/v1/api/ls/${MISSING.dir}:json`],
      ]) {
        const res = await get(hidden)
        clientError(res, hidden)
        expect(res.status, hidden).to.equal(404)
        expect(outcome(res), hidden).to.deep.equal(outcome(await get(missing), true))
      }
      await stillServes('object paths')
    })
  })
})

/**
 * With MAX_QUERY_BYTES raised far above the default, huge query texts reach the parser: each is
 * refused at the cap it breaks (or answered) in seconds, not minutes, and the gateway stays free.
 */
describe('hostile input past a raised MAX_QUERY_BYTES (memory store)', function () {
  // Bounds on a whole request, for a busy machine; a hang here took minutes to hours.
  const WITHIN_MS = 20_000
  this.timeout(120_000)
  let svc: TestService
  before(async function () {
    this.timeout(60_000)
    svc = await startTestService('memory', { MAX_QUERY_BYTES: String(24 * 1024 * 1024), MAX_BODY_BYTES: String(32 * 1024 * 1024) })
  })
  const session = loggedIn(() => svc)
  after(async () => svc?.close())

  const run = (xml: string) => session.post('/v1/api/run:json').send({ xml })

  const CASES: readonly [name: string, xml: () => string, status: number, message: RegExp][] = [
    [
      'a 5 MB attribute',
      () => `<table cols="a" title="${'x'.repeat(5_000_000)}">1</table>`,
      400,
      /attribute value in <table …> is longer than 1000000 characters/,
    ],
    ['a million sibling elements', () => '<note/>'.repeat(1_000_000), 400, /more than 100000 elements/],
    ['elements nested 100,000 deep', () => '<a>'.repeat(100_000) + '</a>'.repeat(100_000), 400, /nested more than 200 deep/],
    ['3 MB of raw < in one text cell (each one escaped for sax)', () => `<table cols="a">'${'<'.repeat(3_000_000)}'</table>`, 200, /^/],
    ['a 20 MB comment (dropped before sax reads it)', () => `<!--${'x'.repeat(20_000_000)}--><table cols="a">1</table>`, 200, /^/],
    ['a body over MAX_BODY_BYTES', () => 'x'.repeat(40_000_000), 413, /MAX_BODY_BYTES/],
  ]

  for (const [name, xml, status, message] of CASES) {
    it(`answers ${name} with ${status} in seconds, and keeps serving`, async () => {
      const started = Date.now()
      const res = await run(xml())
      expect(res.status, `${name}: ${res.text.slice(0, 300)}`).to.equal(status)
      if (status !== 200) expect(res.body.error).to.match(message)
      expect(Date.now() - started, name).to.be.below(WITHIN_MS)
      const ok = await session.post('/v1/api/sql:json').send({ sql: 'select 1 as one' })
      expect(ok.body).to.deep.equal({ one: [1] })
    })
  }
})
