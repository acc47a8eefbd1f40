import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import { actionRequest, actionValueText, parseDynamic, type ActionDo, type DynamicApp } from '../../engine/dynamic/index.js'

function appOf(xml: string): DynamicApp {
  const app = parseDynamic(xml)
  if (!app) throw new Error('expected a dynamic query')
  return app
}

function read(doXml: string, vars: Record<string, string> = {}) {
  const app = appOf(`<dynamic f="" v="">${doXml}</dynamic>`)
  return actionRequest(app, app.dos[0] as ActionDo, { f: '', v: '', ...vars })
}

function failure(doXml: string): AppError {
  try {
    read(doXml)
  } catch (err) {
    if (err instanceof AppError) return err
    throw err
  }
  throw new Error('expected the action to be refused')
}

describe('engine/dynamic: action requests', () => {
  it('reads dbm data_ in its three spellings, with {@var} substituted', () => {
    const want = { kind: 'dbm', trans: 'get_names_in_dir', params: { path: 'pub.demo', depth: 2 } }
    expect(read(`<do action_="dbm" trans_="get_names_in_dir" data_="{pkg('path' 'depth';'{@f}' 2)}"/>`, { f: 'pub.demo' })).to.deep.equal(want)
    expect(read(`<do action_="dbm" trans_="get_names_in_dir" data_="{path:'{@f}'; depth:2}"/>`, { f: 'pub.demo' })).to.deep.equal(want)
    expect(read(`<do action_="dbm" trans_="get_names_in_dir" data_='{"path": "{@f}", "depth": 2}'/>`, { f: 'pub.demo' })).to.deep.equal(want)
    expect(read(`<do action_="dbm" trans_="list_users"/>`)).to.deep.equal({ kind: 'dbm', trans: 'list_users', params: {} })
  })

  it('refuses a data_ that is not a package, naming the forms it takes', () => {
    expect(failure(`<do action_="dbm" trans_="x" data_="path=pub"/>`).message).to.contain("{pkg('path';'pub')}")
    expect(failure(`<do action_="dbm" trans_="x" data_="{pkg('a' 'b';'c')}"/>`).message).to.contain('2 key(s) but 1 value(s)')
  })

  it('reads savetable targets, modes and catalog fields', () => {
    expect(read(`<do action_="savetable" path_="uploads.{@v}.t" replace_="1" title_="T" users_="ann bob"><base table="x"/></do>`, { v: 'me' })).to.deep.equal({
      kind: 'savetable',
      query: '<base table="x"/>',
      path: 'uploads.me.t',
      folder: null,
      tablename: null,
      mode: 'replace',
      title: 'T',
      users: ['ann', 'bob'],
    })
    expect(read(`<do action_="savetable" tablename_="t" append_="1"><base table="x"/></do>`)).to.deep.include({
      path: null,
      folder: null,
      tablename: 't',
      mode: 'append',
    })
  })

  it('refuses savetable attributes that do not go together or are not supported', () => {
    expect(failure(`<do action_="savetable" path_="a.b" folder_="a"><base table="x"/></do>`).message).to.contain('path_ and folder_/tablename_')
    expect(failure(`<do action_="savetable" path_="a.b" replace_="1" append_="1"><base table="x"/></do>`).message).to.contain('choose one')
    expect(failure(`<do action_="savetable" path_="a.b" temp_="1"><base table="x"/></do>`).message).to.contain('temp_')
    expect(failure(`<do action_="savetable" path_="a.b" replace_="yes"><base table="x"/></do>`).message).to.contain('must be 0 or 1')
  })

  it('gives value_ text as it is and anything else as JSON', () => {
    expect(actionValueText('pub.x')).to.equal('pub.x')
    expect(actionValueText(3)).to.equal('3')
    expect(actionValueText(true)).to.equal('1')
    expect(actionValueText(null)).to.equal('')
    expect(actionValueText([['dir'], ['pub.a']])).to.equal('[["dir"],["pub.a"]]')
  })
})
