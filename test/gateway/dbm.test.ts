/** api/dbm itself: the command envelope, replies, parameter validation, aliases and discovery. */
import { expect } from 'chai'
import { forEachStore } from '../helpers/suites.js'
import { dbm, dbmOk } from '../helpers/dbm.js'

interface Catalogue {
  name: string[]
  summary: string[]
  requires: string[]
  aliases: string[][]
  params: { name: string; type: string; required: boolean; doc: string }[][]
}

forEachStore('api/dbm envelope', (svc) => {
  let cookie: string
  before(async () => {
    cookie = await svc().login()
  })
  const post = (body: unknown) =>
    svc()
      .http.post('/v1/api/dbm:json')
      .set('Cookie', cookie)
      .send(body as object)

  it('needs a session: 403 without one, like every endpoint', async () => {
    const res = await svc()
      .http.post('/v1/api/dbm:json')
      .send({ cmd: ['list_transactions', {}] })
    expect(res.status).to.equal(403)
    expect(res.body.code).to.equal('no_session')
  })

  it('takes POST only', async () => {
    const res = await svc().http.get('/v1/api/dbm:json').set('Cookie', cookie)
    expect(res.status).to.equal(405)
    expect(res.headers.allow).to.contain('POST')
  })

  for (const [what, body, msg] of [
    ['no cmd', {}, /"cmd" is missing/],
    ['cmd not an array', { cmd: { name: 'x' } }, /array of exactly two items/],
    ['one item', { cmd: ['list_transactions'] }, /array of exactly two items/],
    ['three items', { cmd: ['list_transactions', {}, {}] }, /array of exactly two items/],
    ['a name that is not a string', { cmd: [7, {}] }, /first item .* transaction name/],
    ['parameters that are not an object', { cmd: ['list_transactions', []] }, /second item .* object of parameters/],
    ['cmd text that is not JSON', { cmd: '["list_transactions", {' }, /not valid JSON/],
  ] as const) {
    it(`answers 200 with rc 1 and a message for ${what}`, async () => {
      const res = await post(body)
      expect(res.status).to.equal(200)
      expect(res.body.rc).to.equal(1)
      expect(res.body.msg).to.match(msg)
      expect(res.body).not.to.have.property('value')
    })
  }

  it('names an unknown transaction and points at list_transactions', async () => {
    const r = await dbm(svc(), cookie, 'make_everything', {})
    expect(r).to.include({ rc: 1, code: 'unknown_transaction' })
    expect(r.msg).to.contain('"make_everything"').and.contain('list_transactions')
  })

  it('names an unknown parameter and lists the ones the transaction takes', async () => {
    const r = await dbm(svc(), cookie, 'list_transactions', { verbose: true })
    expect(r).to.include({ rc: 1, code: 'invalid_parameter' })
    expect(r.msg).to.contain('"verbose"').and.contain('no parameters')
  })

  it('accepts cmd as JSON text in a form field', async () => {
    const res = await svc()
      .http.post('/v1/api/dbm:json')
      .set('Cookie', cookie)
      .type('form')
      .send({ cmd: JSON.stringify(['list_transactions', {}]) })
    expect(res.status).to.equal(200)
    expect(res.body.rc).to.equal(0)
  })

  it('answers in the other formats too', async () => {
    const text = await svc()
      .http.post('/v1/api/dbm:text')
      .set('Cookie', cookie)
      .send({ cmd: ['list_transactions', {}] })
    expect(text.status).to.equal(200)
    expect(text.type).to.equal('text/plain')
    expect(text.text).to.contain('"rc": 0')
    const html = await svc()
      .http.post('/v1/api/dbm')
      .set('Cookie', cookie)
      .send({ cmd: ['list_transactions', {}] })
    expect(html.type).to.equal('text/html')
    expect(html.text).to.contain('get_names_in_dir')
  })

  describe('list_transactions', () => {
    let cat: Catalogue
    before(async () => {
      cat = await dbmOk<Catalogue>(svc(), cookie, 'list_transactions')
    })

    it('is column-major, one row per transaction, with summary, requirement and parameters', () => {
      const n = cat.name.length
      expect(n).to.be.greaterThan(30)
      for (const col of [cat.summary, cat.requires, cat.aliases, cat.params]) expect(col).to.have.length(n)
      for (let i = 0; i < n; i++) {
        expect(cat.summary[i], cat.name[i]).to.be.a('string').and.not.equal('')
        expect(cat.requires[i], cat.name[i]).to.be.a('string').and.not.equal('')
        for (const p of cat.params[i]) expect(p.doc, `${cat.name[i]}.${p.name}`).to.be.a('string').and.not.equal('')
      }
    })

    it('covers the catalogue the issue asks for', () => {
      const wanted = [
        'get_names_in_dir',
        'list_dir',
        'get_dir_info',
        'make_dir',
        'set_dir_info',
        'drop_dir',
        'get_table_info',
        'get_table_cols',
        'set_table_info',
        'drop_table',
        'move',
        'copy_table',
        'save_table',
        'upload_table',
        'share',
        'get_permissions',
        'get_user',
        'list_users',
        'add_user',
        'set_user',
        'deactivate_user',
        'activate_user',
        'set_password',
        'get_group',
        'list_groups',
        'add_group',
        'set_group',
        'drop_group',
        'get_company',
        'list_companies',
        'add_company',
        'set_company',
        'list_roles',
        'get_role',
        'add_role',
        'set_role',
        'drop_role',
        'grant_role',
        'revoke_role',
        'list_transactions',
      ]
      expect(cat.name).to.include.members(wanted)
    })

    it('lists the XML-API names as aliases of the transactions they run', () => {
      const aliasesOf = (name: string) => cat.aliases[cat.name.indexOf(name)]
      expect(aliasesOf('make_dir')).to.include('mkdir')
      expect(aliasesOf('drop_dir')).to.include('dropdir')
      expect(aliasesOf('list_dir')).to.include.members(['dir', 'listdir'])
      expect(aliasesOf('save_table')).to.include('savetable')
      expect(aliasesOf('upload_table')).to.include('upload')
    })

    it('marks required parameters', () => {
      const params = cat.params[cat.name.indexOf('make_dir')]
      expect(params.find((p) => p.name === 'path')).to.include({ required: true })
      expect(params.find((p) => p.name === 'title')).to.include({ required: false })
    })
  })

  it('runs an XML-API alias with its element names (mkdir name=…)', async () => {
    await dbmOk(svc(), cookie, 'mkdir', { name: 'aliasdir', title: 'Made by mkdir' })
    const info = await dbmOk<{ title: string }>(svc(), cookie, 'getdir', { name: 'aliasdir' })
    expect(info.title).to.equal('Made by mkdir')
    await dbmOk(svc(), cookie, 'dropdir', { name: 'aliasdir' })
    const gone = await dbm(svc(), cookie, 'getdir', { name: 'aliasdir' })
    expect(gone).to.include({ rc: 1, code: 'unknown_directory' })
  })

  it('reports a missing required parameter by name', async () => {
    const r = await dbm(svc(), cookie, 'make_dir', { title: 'No path' })
    expect(r).to.include({ rc: 1, code: 'missing_parameter' })
    expect(r.msg).to.contain('"path"')
  })

  it('reports a mistyped parameter by name with what it got', async () => {
    const r = await dbm(svc(), cookie, 'list_dir', { path: 'pub', depth: 'deep' })
    expect(r).to.include({ rc: 1, code: 'invalid_parameter' })
    expect(r.msg).to.contain('"depth"').and.contain('whole number').and.contain('"deep"')
  })

  it('answers get_names_in_dir with [kinds, names] (SPEC 4.7)', async () => {
    const value = await dbmOk<[string[], string[]]>(svc(), cookie, 'get_names_in_dir', { path: 'pub.demo.retail' })
    expect(value).to.have.length(2)
    const [kinds, names] = value
    expect(kinds).to.have.length(names.length)
    expect(names).to.include('pub.demo.retail.item')
    expect(kinds[names.indexOf('pub.demo.retail.item')]).to.equal('tab')
    const top = await dbmOk<[string[], string[]]>(svc(), cookie, 'get_names_in_dir', { path: 'pub' })
    expect(top[1]).to.include('pub.demo')
    expect(top[0][top[1].indexOf('pub.demo')]).to.equal('dir')
  })
})
