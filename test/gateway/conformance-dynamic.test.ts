/**
 * Issue 17, the dynamic rows: api/run given a dynamic query, sql/run instances read back without
 * a query, and the action `<do>` elements (dbm, savetable) of a dynamic instance — with the
 * cross-site guard's write rule applied to the requests that fire them.
 */
import { expect } from 'chai'
import { dbm, dbmOk, userCookie } from '../helpers/dbm.js'
import { forEachStore } from '../helpers/suites.js'

const STORE7 = '<base table="pub.demo.retail.stores"/><sel value="store=7"/><colord cols="store,city"/>'

/** Starts with st=7; init sets n; a recompute do copies the city of store st; index shows both. */
const DYNAMIC_RUN = `<macro><dynamic st="7" city="" n="0">
  <do on_="init"><set n="3"/></do>
  <do onchange_="st" value1_="city" col1_="2"><base table="pub.demo.retail.stores"/><sel value="store={@st}"/><colord cols="store,city"/></do>
  <widget name="index"><table cols="c,n">'{@city}',{@n}</table></widget>
  <widget name="other"><base table="pub.demo.retail.stores"/></widget>
</dynamic></macro>`

/** make_dir of the folder sent, then a listing of pub once something was made. */
const DBM_APP = `<dynamic folder="" made="" names="">
  <do action_="dbm" name="mk" onchange_="folder" trans_="make_dir" data_="{pkg('path' 'title';'{@folder}' 'made by an action')}" value_="@made"/>
  <do action_="dbm" name="ls" onchange_="made" trans_="get_names_in_dir" data_='{"path": "pub"}' value_="@names"/>
</dynamic>`

/** Saves stores 1-3 whenever go is sent, at the path sent in target (default: a new table in the owner's uploads). */
const SAVE_APP = (path: string) => `<dynamic go="" saved="">
  <do action_="savetable" name="keep" onsame_="go" ${path} replace_="1" title_="kept {@go}" value_="@saved"><base table="pub.demo.retail.stores"/><sel value="store&lt;=3"/></do>
  <widget name="index"><table cols="go,p">'go={@go}','{@saved}'</table></widget>
</dynamic>`

forEachStore('conformance: dynamic queries, kept instance results and action dos', (svc) => {
  let admin: string
  let plain: string
  const post = (path: string, body?: object, as = admin) => {
    const req = svc().http.post(path).set('Cookie', as)
    return body === undefined ? req : req.send(body)
  }
  const newInstance = async (xml: string, as = admin): Promise<number> => {
    const res = await post('/v1/api/new:json', { xml }, as)
    expect(res.status, res.text).to.equal(200)
    return res.body.tag as number
  }
  before(async () => {
    admin = await svc().login()
    plain = await userCookie(svc(), 'dynplain')
  })

  describe('api/run with a <dynamic> query', () => {
    it('runs it with its initial variables, init sets and recompute dos, and answers its index widget', async () => {
      const res = await post('/v1/api/run:json', { xml: DYNAMIC_RUN })
      expect(res.status, res.text).to.equal(200)
      const city = (await post('/v1/api/run:json', { xml: STORE7 })).body.city[0]
      expect(city).to.be.a('string').and.not.equal('')
      expect(res.body).to.deep.equal({ c: [city], n: [3] })
      // The index widget's result is what the session's run keeps.
      expect((await post('/v1/api/run:json', { xml: DYNAMIC_RUN })).status).to.equal(200)
      expect((await post('/v1/api/run/!data:json.rows')).body).to.deep.equal({ cols: ['c', 'n'], rows: [[city, 3]] })
    })

    it('refuses a dynamic query without an index widget, and one whose action would run, pointing to api/new', async () => {
      const noIndex = await post('/v1/api/run:json', { xml: '<dynamic x="1"><widget name="a"><table cols="x">{@x}</table></widget></dynamic>' })
      expect(noIndex.status).to.equal(400)
      expect(noIndex.body.error).to.contain('no widget named index').and.to.contain('api/new')
      const acting = await post('/v1/api/run:json', {
        xml: `<dynamic r=""><do action_="dbm" trans_="make_dir" data_="{path:'pub.dyn_run'}" value_="@r"/><widget name="index"><table cols="r">'{@r}'</table></widget></dynamic>`,
      })
      expect(acting.status).to.equal(400)
      expect(acting.body.error).to.contain('api/run performs no actions').and.to.contain('api/new')
      expect((await dbm(svc(), admin, 'get_dir_info', { path: 'pub.dyn_run' })).rc).to.equal(1)
    })
  })

  describe('an sql or run instance read without its query', () => {
    it('answers the kept result at api/{tag}:json and GET api/{tag}:json.rows, and missing_parameter before any query', async () => {
      const tag = (await post('/v1/api/new/sql:json', {})).body.tag
      const before = await post(`/v1/api/${tag}:json`)
      expect(before.status).to.equal(400)
      expect(before.body.code).to.equal('missing_parameter')
      const ran = await post(`/v1/api/${tag}:json`, { sql: 'select store, city from pub.demo.retail.stores where store <= 3 order by store' })
      expect(ran.status, ran.text).to.equal(200)
      const again = await post(`/v1/api/${tag}:json`)
      expect(again.status, again.text).to.equal(200)
      expect(again.body).to.deep.equal(ran.body)
      const rows = await svc().http.get(`/v1/api/${tag}:json.rows`).set('Cookie', admin)
      expect(rows.status, rows.text).to.equal(200)
      expect(rows.body).to.deep.equal({ cols: ['store', 'city'], rows: ran.body.store.map((s: number, i: number) => [s, ran.body.city[i]]) })
      // An empty query is still a mistake, not a read.
      expect((await post(`/v1/api/${tag}:json`, { sql: '  ' })).body.code).to.equal('missing_parameter')
      const run = (await post('/v1/api/new/run:json', {})).body.tag
      await post(`/v1/api/${run}:json`, { xml: STORE7 })
      expect((await post(`/v1/api/${run}:json`)).body.store).to.deep.equal([7])
    })
  })

  describe('<do action_="dbm"> and <do action_="savetable"> in a dynamic instance', () => {
    it("runs dbm with the owner's rights, fills value_ from the answer, and shows a refusal in the status table", async () => {
      const tag = await newInstance(DBM_APP)
      const res = await post(`/v1/api/${tag}:json`, { folder: 'pub.dyn_made' })
      expect(res.status, res.text).to.equal(200)
      expect(res.body.errors).to.deep.equal({})
      expect(JSON.parse(res.body.changes.made)).to.include({ path: 'pub.dyn_made', owner: 'admin', title: 'made by an action' })
      expect(JSON.parse(res.body.changes.names)[1]).to.include('pub.dyn_made')
      expect(await dbmOk(svc(), admin, 'get_dir_info', { path: 'pub.dyn_made' })).to.include({ title: 'made by an action' })

      // The same app held by a user who may not create folders in pub.
      const mine = await newInstance(DBM_APP, plain)
      const refused = await post(`/v1/api/${mine}:json`, { folder: 'pub.dyn_refused' }, plain)
      expect(refused.status, refused.text).to.equal(200)
      expect(refused.body.changes).to.deep.equal({ folder: 'pub.dyn_refused' })
      expect(refused.body.errors.mk).to.include({ action: 'dbm' })
      expect(refused.body.errors.mk.msg).to.contain('pub')
      expect(refused.body.errors.mk.code).to.be.a('string').and.not.equal('')
      // Kept: a later read of the status table still shows it.
      expect((await post(`/v1/api/${mine}:json`, undefined, plain)).body.errors).to.have.keys('mk')
      expect((await dbm(svc(), admin, 'get_dir_info', { path: 'pub.dyn_refused' })).rc).to.equal(1)
    })

    it("runs savetable through api/run's save, puts the saved path in value_, and reports a refused save", async () => {
      const tag = await newInstance(SAVE_APP('path_="uploads.admin.dyn_saved"'))
      const res = await post(`/v1/api/${tag}:json`, { go: '1' })
      expect(res.status, res.text).to.equal(200)
      expect(res.body).to.deep.equal({ go: ['go=1'], p: ['uploads.admin.dyn_saved'] })
      const saved = await post('/v1/api/run:json', { xml: '<base table="uploads.admin.dyn_saved"/><colord cols="store"/>' })
      expect(saved.body.store).to.deep.equal([1, 2, 3])
      expect(await dbmOk(svc(), admin, 'get_table_info', { path: 'uploads.admin.dyn_saved' })).to.include({ title: 'kept 1', owner: 'admin' })

      // Without a path the table goes to the owner's uploads folder under a generated name;
      // into pub the plain user may not save, and the status table says so.
      const xml = `<dynamic go="" home="" shared="">
        <do action_="savetable" name="home" onsame_="go" value_="@home"><base table="pub.demo.retail.stores"/></do>
        <do action_="savetable" name="shared" onsame_="go" path_="pub.dyn_nope" value_="@shared"><base table="pub.demo.retail.stores"/></do>
      </dynamic>`
      const mine = await newInstance(xml, plain)
      const out = await post(`/v1/api/${mine}:json`, { go: '1' }, plain)
      expect(out.status, out.text).to.equal(200)
      expect(out.body.changes.home).to.match(/^uploads\.dynplain\.t[0-9a-z]+$/)
      expect(out.body.changes).to.not.have.property('shared')
      expect(out.body.errors).to.have.keys('shared')
      expect(out.body.errors.shared).to.include({ action: 'savetable', code: 'forbidden' })
      expect((await post('/v1/api/run:json', { xml: `<base table="${out.body.changes.home}"/>` }, plain)).body.store).to.have.length.above(3)
      expect((await dbm(svc(), admin, 'get_table_info', { path: 'pub.dyn_nope' })).rc).to.equal(1)
    })

    it('treats a request whose variables fire an action as a write: GET answers 405 and a cross-site POST 403, and neither runs or keeps anything', async () => {
      const tag = await newInstance(SAVE_APP('path_="uploads.admin.dyn_guarded"'))
      const get = await svc().http.get(`/v1/api/${tag}:json?go=1`).set('Cookie', admin)
      expect(get.status, get.text).to.equal(405)
      expect(get.body.code).to.equal('method_not_allowed')
      expect(get.body.error).to.contain('action_="savetable"').and.to.contain('POST')
      const cross = await post(`/v1/api/${tag}:json`, { go: '1' }).set('Sec-Fetch-Site', 'cross-site').set('Origin', 'http://evil.test')
      expect(cross.status).to.equal(403)
      expect(cross.body.code).to.equal('cross_site')
      expect((await dbm(svc(), admin, 'get_table_info', { path: 'uploads.admin.dyn_guarded' })).rc).to.equal(1)
      // The refused GET kept none of what it sent: go is still unset, nothing saved.
      expect((await post(`/v1/api/${tag}:json`)).body).to.deep.equal({ go: ['go='], p: [null] })
      // A GET that fires no action still only changes variables, as before.
      const reads = await newInstance(`<dynamic x="1"><widget name="index"><table cols="x">{@x}</table></widget></dynamic>`)
      expect((await svc().http.get(`/v1/api/${reads}:json?x=5`).set('Cookie', admin)).body).to.deep.equal({ x: [5] })
      // The same request as a POST saves.
      expect((await post(`/v1/api/${tag}:json`, { go: '1' })).body).to.deep.equal({ go: ['go=1'], p: ['uploads.admin.dyn_guarded'] })
    })
  })
})
