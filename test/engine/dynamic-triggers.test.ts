import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import type { ResultSet } from '../../shared/protocol.js'
import { columnMeta, NA_INT } from '../../shared/table.js'
import { applyRequest, initialVars, parseDynamic, widgetQuery } from '../../engine/dynamic/index.js'
import type { DynamicApp, RequestOptions, RunQuery } from '../../engine/dynamic/index.js'
import { parseQuery } from '../../engine/parse/index.js'

type Vars = Record<string, string>

function app(xml: string): DynamicApp {
  const parsed = parseDynamic(xml)
  if (!parsed) throw new Error('expected a dynamic query')
  return parsed
}

/** A runQuery that must not be called. */
const noQuery: RunQuery = async (xml) => {
  throw new Error(`unexpected query ${xml}`)
}

const request = (a: DynamicApp, current: Vars, incoming: Record<string, unknown>, opts: Partial<RequestOptions> = {}) =>
  applyRequest(a, current, incoming, { init: false, runQuery: noQuery, ...opts })

async function requestError(a: DynamicApp, current: Vars, incoming: Record<string, unknown>, opts: Partial<RequestOptions> = {}): Promise<AppError> {
  try {
    await request(a, current, incoming, opts)
  } catch (err) {
    if (err instanceof AppError) return err
    throw err
  }
  throw new Error('expected the request to fail')
}

/** One int column `a` and one text column `b`, two rows; built by hand as the gateway would receive it. */
const RESULT: ResultSet = {
  cols: [columnMeta({ name: 'a', type: 'int' }), columnMeta({ name: 'b', type: 'text' }), columnMeta({ name: 'c', type: 'float' })],
  columns: [
    { kind: 'int', data: Int32Array.from([5, NA_INT]) },
    { kind: 'text', data: ['east', ''] },
    { kind: 'float', data: Float64Array.from([2.5, Number.NaN]) },
  ],
  rowCount: 2,
}

/** A runQuery that records its calls and answers RESULT. */
function recorder(): { calls: { xml: string; vars: Readonly<Vars> }[]; run: RunQuery } {
  const calls: { xml: string; vars: Readonly<Vars> }[] = []
  return { calls, run: async (xml, vars) => (calls.push({ xml, vars }), RESULT) }
}

const CHANGE_Y = `<macro><dynamic x="1" y="0">
  <widget name="index"><base table="pub.demo.retail.item"/><sel value="store={@y}"/></widget>
  <do on_="change(x)"><set y="@x*2"/></do>
</dynamic></macro>`

describe('engine/dynamic: applyRequest', () => {
  it('assigns an incoming variable and fires change(x), whose <set> updates y', async () => {
    const out = await request(app(CHANGE_Y), { x: '1', y: '0' }, { x: '21' })
    expect(out.vars).to.deep.equal({ x: '21', y: '42' })
    expect(out.changes).to.deep.equal({ x: '21', y: '42' })
  })

  it("gives the index widget's query the new y when run with the returned variables", async () => {
    const a = app(CHANGE_Y)
    const out = await request(a, { x: '1', y: '0' }, { x: '3' })
    const ops = parseQuery(widgetQuery(a, 'index')!, out.vars)
    expect(ops[1]).to.deep.include({ kind: 'Sel' })
    expect(JSON.stringify(ops[1])).to.include('"value":6')
  })

  it('does not fire change(x) when x is sent with the value it already has', async () => {
    const out = await request(app(CHANGE_Y), { x: '5', y: '7' }, { x: '5' })
    expect(out).to.deep.equal({ vars: { x: '5', y: '7' }, changes: {}, actions: [] })
  })

  it('answers a read without parameters with the stored state and no changes', async () => {
    const out = await request(app(CHANGE_Y), { x: '5', y: '7' }, {})
    expect(out).to.deep.equal({ vars: { x: '5', y: '7' }, changes: {}, actions: [] })
  })

  it('falls back to initial values for variables the stored state lacks and drops undeclared ones', async () => {
    const out = await request(app(CHANGE_Y), { stale: 'q' }, {})
    expect(out.vars).to.deep.equal({ x: '1', y: '0' })
  })

  it('runs on_="init" dos when asked, once, before assigning the incoming values', async () => {
    const a = app(
      `<dynamic n="0" label="" start=""><do on_="init"><set n="@n+1" start="{@label}"/></do><do on_="change(n)"><set label="'seen {@n}'"/></do></dynamic>`,
    )
    const created = await request(a, initialVars(a, 7), { label: 'mine' }, { init: true })
    expect(created.vars).to.deep.equal({ n: '1', label: 'seen 1', start: '', count: '7' })
    const later = await request(a, created.vars, { label: 'other' })
    expect(later.vars.n).to.equal('1')
    expect(later.changes).to.deep.equal({ label: 'other' })
  })

  it('chains triggers across rounds: x sets y, y sets z', async () => {
    const a = app(`<dynamic x="" y="" z="">
      <do on_="change(y)"><set z="{@y}!"/></do>
      <do on_="change(x)"><set y="{@x}{@x}"/></do>
    </dynamic>`)
    const out = await request(a, {}, { x: 'ab' })
    expect(out.changes).to.deep.equal({ x: 'ab', y: 'abab', z: 'abab!' })
  })

  it('fires a do at most once per round even when several of its triggers changed', async () => {
    const a = app(`<dynamic a="" b="" n="0"><do on_="change(a,b)"><set n="@n+1"/></do></dynamic>`)
    const out = await request(a, {}, { a: '1', b: '2' })
    expect(out.vars.n).to.equal('1')
  })

  it('stops a trigger loop after the round cap with a CHECK_ERROR', async () => {
    const a = app(`<dynamic x="0" y="0"><do on_="change(x)"><set y="@y+1"/></do><do on_="change(y)"><set x="@x+1"/></do></dynamic>`)
    const err = await requestError(a, {}, { x: '1' })
    expect(err.code).to.equal('CHECK_ERROR')
    expect(err.message).to.include('trigger loop')
    expect(err.message).to.include('32 rounds')
  })

  it('allows a chain exactly as long as the round cap', async () => {
    const a = app(
      `<dynamic a="" b="" c="" d=""><do on_="change(a)"><set b="1"/></do><do on_="change(b)"><set c="1"/></do><do on_="change(c)"><set d="1"/></do></dynamic>`,
    )
    expect((await request(a, {}, { a: '1' }, { maxRounds: 3 })).vars.d).to.equal('1')
    expect((await requestError(a, {}, { a: '1' }, { maxRounds: 2 })).message).to.include('trigger loop')
  })

  it('ignores unknown names, system parameters and anything ending in _', async () => {
    const incoming = { fmt_: 'json', method_: 'GET', range_: 0, to_: 10, x_: '9', nope: 'q', count: '99', constructor: 'c', __proto__: 'p' }
    const out = await request(app(CHANGE_Y), { x: '1', y: '0', count: '4' }, incoming)
    expect(out).to.deep.equal({ vars: { x: '1', y: '0', count: '4' }, changes: {}, actions: [] })
  })

  it('keeps count from the stored state, or takes it from the options, and never reports it as a change', async () => {
    const a = app(`<dynamic id=""><do on_="init"><set id="inst{@count}"/></do></dynamic>`)
    expect((await request(a, {}, {}, { init: true, count: 12 })).changes).to.deep.equal({ id: 'inst12' })
    expect((await request(a, initialVars(a, 3), {}, { init: true, count: 12 })).vars).to.deep.equal({ id: 'inst3', count: '3' })
  })

  it('reports @count as an unknown variable when neither the state nor the options give it', async () => {
    const a = app(`<dynamic id=""><do on_="init"><set id="{@count}"/></do></dynamic>`)
    const err = await requestError(a, {}, {}, { init: true })
    expect(err.code).to.equal('CHECK_ERROR')
    expect(err.message).to.include('unknown variable @count')
  })

  it('fails a <set> whose expression cannot be evaluated with a CHECK_ERROR at the <set>', async () => {
    const a = app(`<dynamic x="" y="">\n<do on_="change(x)">\n  <set y="@x/0"/></do></dynamic>`)
    const err = await requestError(a, {}, { x: '3' })
    expect(err.code).to.equal('CHECK_ERROR')
    expect(err.detail.line).to.equal(3)
    expect(err.message).to.include('division by zero')
  })
})

/** Request values and the text a variable stores for each. */
const CONVERSIONS: readonly { name: string; value: unknown; text: string }[] = [
  { name: 'a text as it is', value: ' a b ', text: ' a b ' },
  { name: 'an integer', value: 42, text: '42' },
  { name: 'a float in its shortest form', value: 0.1 + 0.2, text: '0.30000000000000004' },
  { name: 'a float with a trailing zero dropped', value: 2.5, text: '2.5' },
  { name: 'minus zero', value: -0, text: '0' },
  { name: 'true', value: true, text: '1' },
  { name: 'false', value: false, text: '0' },
  { name: 'null', value: null, text: '' },
  { name: 'an array, space-joined', value: ['NY', 3, true], text: 'NY 3 1' },
  { name: 'an empty array', value: [], text: '' },
]

describe('engine/dynamic: request value conversions', () => {
  const a = app('<dynamic v=""/>')
  for (const c of CONVERSIONS) {
    it(`stores ${c.name} as '${c.text}'`, async () => {
      expect((await request(a, {}, { v: c.value })).vars.v).to.equal(c.text)
    })
  }

  it('refuses an object with INVALID_PARAMETER naming the variable', async () => {
    const err = await requestError(a, {}, { v: { a: 1 } })
    expect(err.code).to.equal('INVALID_PARAMETER')
    expect(err.message).to.include("'v'")
    expect(err.detail.parameter).to.equal('v')
  })

  it('refuses an array holding an object or an array', async () => {
    expect((await requestError(a, {}, { v: ['a', ['b']] })).code).to.equal('INVALID_PARAMETER')
    expect((await requestError(a, {}, { v: [{}] })).code).to.equal('INVALID_PARAMETER')
  })

  it('refuses a text longer than a block variable may hold', async () => {
    const err = await requestError(a, {}, { v: 'x'.repeat(1_000_001) })
    expect(err.code).to.equal('INVALID_PARAMETER')
    expect(err.message).to.include('longer than')
  })

  it('accepts an object for a name that is not a variable, since it is ignored', async () => {
    expect((await request(a, {}, { other: { a: 1 } })).vars).to.deep.equal({ v: '' })
  })
})

/** `<set y="…">` values over x = 3, s = 'NY', d = '2024-01-05', and what y becomes. */
const SET_VALUES: readonly { expr: string; y: string }[] = [
  { expr: '@x*2', y: '6' },
  { expr: '{@x}+1', y: '4' },
  { expr: '{@x+1}', y: '4' },
  { expr: '{@d}', y: '2024-01-05' },
  { expr: '@d', y: '2024-01-05' },
  { expr: "'{@d}'", y: '2024-01-05' },
  { expr: '{@s}', y: 'NY' },
  { expr: "'NY'", y: 'NY' },
  { expr: 'NY', y: 'NY' },
  { expr: 'Hello {@s} and {@x}', y: 'Hello NY and 3' },
  { expr: '007', y: '007' },
  { expr: '', y: '' },
  { expr: "if(@x>2;'big';'small')", y: 'big' },
  { expr: '{strupcase(@s)}-{@x}', y: 'NY-3' },
  { expr: '@x=3', y: '1' },
]

describe('engine/dynamic: <set> values', () => {
  for (const c of SET_VALUES) {
    it(`reads y="${c.expr}" as '${c.y}'`, async () => {
      const a = app(`<dynamic x="" s="NY" d="2024-01-05" y="?"><do on_="change(x)"><set y="${c.expr.replace(/"/g, '&quot;')}"/></do></dynamic>`)
      expect((await request(a, {}, { x: '3' })).vars.y).to.equal(c.y)
    })
  }

  it('lets each <set> see the values assigned before it in the same <do>', async () => {
    const a = app('<dynamic x="" y="" z=""><do on_="change(x)"><set y="@x+1" z="@y*10"/></do></dynamic>')
    expect((await request(a, {}, { x: '1' })).vars).to.deep.include({ y: '2', z: '20' })
  })
})

const RECOMPUTE = `<dynamic g="" lo="" label="" miss="" f="">
  <do onchange_="@g" value1_="lo" value2_="label" col2_="2" value3_="miss" row3_="2" value4_="f" col4_="3">
    <base table="pub.demo.retail.item"/><sel value="g='{@g}'"/>
  </do>
</dynamic>`

describe('engine/dynamic: recompute <do>', () => {
  it('runs its query with the current variables when an onchange_ variable changed, and copies cells into variables', async () => {
    const rec = recorder()
    const out = await request(app(RECOMPUTE), {}, { g: 'east' }, { runQuery: rec.run })
    expect(rec.calls).to.have.length(1)
    expect(rec.calls[0].xml).to.equal(`<base table="pub.demo.retail.item"/><sel value="g='{@g}'"/>`)
    expect(rec.calls[0].vars.g).to.equal('east')
    expect(out.vars).to.deep.equal({ g: 'east', lo: '5', label: 'east', miss: '', f: '2.5' })
  })

  it('gives an N/A cell and a cell outside the result the empty text', async () => {
    const a = app(
      `<dynamic g="" a="x" b="x" c="x"><do onchange_="g" value1_="a" row1_="2" value2_="b" row2_="3" value3_="c" col3_="9"><base table="t"/></do></dynamic>`,
    )
    const out = await request(a, {}, { g: '1' }, { runQuery: recorder().run })
    expect(out.vars).to.deep.include({ a: '', b: '', c: '' })
  })

  it('does not run when nothing it watches changed', async () => {
    const rec = recorder()
    await request(app(RECOMPUTE), { g: 'east' }, { g: 'east', lo: '1' }, { runQuery: rec.run })
    expect(rec.calls).to.have.length(0)
  })

  it('runs for an onsame_ variable the request sets, even to the value it had', async () => {
    const a = app(`<dynamic go="1" lo=""><do onsame_="go" value1_="lo"><base table="t"/></do></dynamic>`)
    const rec = recorder()
    const out = await request(a, { go: '1', lo: '' }, { go: '1' }, { runQuery: rec.run })
    expect(rec.calls).to.have.length(1)
    expect(out.changes).to.deep.equal({ lo: '5' })
  })

  it('runs once at init so derived variables hold values from the start', async () => {
    const rec = recorder()
    const out = await request(app(RECOMPUTE), {}, {}, { init: true, runQuery: rec.run })
    expect(rec.calls).to.have.length(1)
    expect(out.vars.lo).to.equal('5')
  })

  it("puts the query's libraries in front of its query", async () => {
    const a = app(`<library><block name="b"/></library><dynamic g="" lo=""><do onchange_="g" value1_="lo"><insert block="b"/></do></dynamic>`)
    const rec = recorder()
    await request(a, {}, { g: '1' }, { runQuery: rec.run })
    expect(rec.calls[0].xml).to.equal('<library><block name="b"/></library><insert block="b"/>')
  })

  it('feeds its results to event dos in the next round', async () => {
    const a = app(`<dynamic g="" lo="" twice=""><do onchange_="g" value1_="lo"><base table="t"/></do><do on_="change(lo)"><set twice="@lo*2"/></do></dynamic>`)
    const out = await request(a, {}, { g: '1' }, { runQuery: recorder().run })
    expect(out.changes).to.deep.equal({ g: '1', lo: '5', twice: '10' })
  })

  it('runs action dos on their trigger through runAction, and writes the answer into value_', async () => {
    const a = app(
      `<dynamic x="" saved=""><do action_="savetable" name="keep" onchange_="x" path_="uploads.t{@x}" value_="@saved"><base table="t"/></do></dynamic>`,
    )
    const seen: string[] = []
    const runAction: RequestOptions['runAction'] = async (d, vars) => {
      seen.push(`${d.name}:${vars.x}`)
      return { ok: true, value: `uploads.t${vars.x}` }
    }
    const out = await request(a, {}, { x: '1' }, { runAction })
    expect(seen).to.deep.equal(['keep:1'])
    expect(out.changes).to.deep.equal({ x: '1', saved: 'uploads.t1' })
    expect(out.actions).to.deep.equal([{ name: 'keep', action: 'savetable', result: { ok: true, value: 'uploads.t1' } }])
    expect((await request(a, { x: '1' }, { x: '1' }, { runAction })).actions).to.deep.equal([])
  })

  it('leaves value_ empty when an action is refused, and runs an action without a trigger only at init', async () => {
    const a = app(`<dynamic r="old"><do action_="dbm" trans_="make_dir" data_="{path:'pub.x'}" value_="@r"/></dynamic>`)
    const runAction: RequestOptions['runAction'] = async () => ({ ok: false, code: 'forbidden', message: 'no' })
    const out = await request(a, {}, {}, { init: true, runAction })
    expect(out.vars.r).to.equal('')
    expect(out.actions.map((x) => x.result.ok)).to.deep.equal([false])
    expect((await request(a, out.vars, { r: 'again' }, { runAction })).actions).to.deep.equal([])
  })
})
