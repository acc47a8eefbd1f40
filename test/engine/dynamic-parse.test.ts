import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import { parseDynamic } from '../../engine/dynamic/index.js'
import type { DynamicApp } from '../../engine/dynamic/index.js'

/** Parses a query that must be dynamic. */
function app(xml: string): DynamicApp {
  const parsed = parseDynamic(xml)
  if (!parsed) throw new Error('expected a dynamic query')
  return parsed
}

function parseError(xml: string): AppError {
  try {
    parseDynamic(xml)
  } catch (err) {
    if (err instanceof AppError) return err
    throw err
  }
  throw new Error('expected a parse error')
}

const SALES = `<macro>
  <library><block name="pick" r="'E'"><sel value="region={@r}"/></block></library>
  <dynamic selection="19" aggregate_by="groupdesc_prod" xmin="" xmax="" mode_="manual" init_="index" isolate_="1">
    <layout name_="main" arrange_="v">
      <widget name="pickdept" class_="dropdown" value_="@selection" label_="Department">
        <base table="pub.demo.retail.dept"/>
      </widget>
      <layout name_="inner">
        <widget class_="text" text_="Current selection: {@selection}"/>
      </layout>
    </layout>
    <widget name="index" base_="pub.demo.retail.item">
      <sel value="dept={@selection}"/>
      <insert block="pick"/>
    </widget>
    <widget class_="checkbox" value_="no binding"/>
    <do on_="init"><set xmin="0" xmax="10"/></do>
    <do on_="change(selection)"><note>reset</note><set xmin="" xmax=""/><setv aggregate_by="'x'"/></do>
    <do onchange_="@aggregate_by, @selection" onsame_="xmax" value1_="xmin" row1_="1" col1_="1" value2_="xmax" col2_="2">
      <base table="pub.demo.retail.item"/><tabu><tcol source="sales" fun="min"/><tcol source="sales" fun="max"/></tabu>
    </do>
    <do action_="dbm" trans_="get_names_in_dir" data_="{path:'pub'}" value_="@xmin"/>
  </dynamic>
</macro>`

describe('engine/dynamic: parseDynamic', () => {
  it('returns null for a query without a <dynamic>, wrapped in <macro> or not', () => {
    expect(parseDynamic('<base table="pub.demo.retail.item"/>')).to.equal(null)
    expect(parseDynamic('<macro><base table="pub.demo.retail.item"/><sel value="x>1"/></macro>')).to.equal(null)
  })

  it('finds a <dynamic> at the top level as well as inside <macro>', () => {
    expect(app('<dynamic x="1"/>').vars).to.deep.equal({ x: '1' })
    expect(app('<macro><dynamic x="1"/></macro>').vars).to.deep.equal({ x: '1' })
  })

  it('declares the attributes without a trailing underscore as variables, in order, and keeps the others as system attributes', () => {
    const a = app(SALES)
    expect(Object.entries(a.vars)).to.deep.equal([
      ['selection', '19'],
      ['aggregate_by', 'groupdesc_prod'],
      ['xmin', ''],
      ['xmax', ''],
    ])
    expect(a.system).to.deep.equal({ mode_: 'manual', init_: 'index', isolate_: '1' })
  })

  it('lists every widget in document order, layouts included, and names unnamed ones w1, w2…', () => {
    const a = app(SALES)
    expect(a.widgets.map((w) => [w.name, w.named, w.class])).to.deep.equal([
      ['pickdept', true, 'dropdown'],
      ['w1', false, 'text'],
      ['index', true, 'grid'],
      ['w2', false, 'checkbox'],
    ])
    expect(a.hasIndex).to.equal(true)
    expect(a.layouts).to.deep.equal(['main', 'inner'])
  })

  it('keeps widget attributes as written, minus name and class_, and reads value_="@var" as a binding', () => {
    const [pick, text, , box] = app(SALES).widgets
    expect(pick.attrs).to.deep.equal({ value_: '@selection', label_: 'Department' })
    expect(pick.binding).to.equal('selection')
    expect(text.attrs).to.deep.equal({ text_: 'Current selection: {@selection}' })
    expect(box.binding).to.equal(null)
  })

  it('serialises a widget body back to query text, and gives an empty body as the empty text', () => {
    const a = app(SALES)
    expect(a.widgets[2].query).to.equal('<sel value="dept={@selection}"/><insert block="pick"/>')
    expect(a.widgets[1].query).to.equal('')
  })

  it('records the line and column of each widget', () => {
    expect(app(SALES).widgets.map((w) => w.loc.line)).to.deep.equal([5, 9, 12, 16])
  })

  it('lists the variables each widget uses: mentions in body and attributes, its binding, and library mentions when it calls blocks', () => {
    const a = app(SALES)
    expect(a.widgets.map((w) => w.uses)).to.deep.equal([['selection'], ['selection'], ['selection'], []])
    const lib = app(
      '<library><block name="b"><sel value="x={@xmax}"/></block></library><dynamic xmax="1"><widget name="g"><insert block="b"/></widget></dynamic>',
    )
    expect(lib.widgets[0].uses).to.deep.equal(['xmax'])
  })

  it("keeps the query's libraries as text for the widget and <do> queries", () => {
    expect(app(SALES).libraries).to.equal(`<library><block name="pick" r="'E'"><sel value="region={@r}"/></block></library>`)
    expect(app('<dynamic/>').libraries).to.equal('')
  })

  it('reads the event form: on_="init" and on_="change(x)" with <set>/<setv> attributes as sets in order', () => {
    const [init, change] = app(SALES).dos
    expect(init).to.deep.include({ kind: 'event', on: 'init' })
    expect(init.kind === 'event' && init.sets.map((s) => [s.name, s.expr])).to.deep.equal([
      ['xmin', '0'],
      ['xmax', '10'],
    ])
    expect(change).to.deep.include({ kind: 'event', on: { change: ['selection'] } })
    expect(change.kind === 'event' && change.sets.map((s) => [s.name, s.expr])).to.deep.equal([
      ['xmin', ''],
      ['xmax', ''],
      ['aggregate_by', "'x'"],
    ])
  })

  it('reads change(x,y) and change(@x, @y) as several trigger variables', () => {
    for (const on of ['change(x,y)', 'change(@x, @y)', 'CHANGE( x y )']) {
      const d = app(`<dynamic x="" y="" z=""><do on_="${on}"><set z="1"/></do></dynamic>`).dos[0]
      expect(d, on).to.deep.include({ on: { change: ['x', 'y'] } })
    }
  })

  it('reads the recompute form: onchange_ with or without @, onsame_, and value/row/col triples with 1 as the default', () => {
    const d = app(SALES).dos[2]
    expect(d).to.deep.include({
      kind: 'recompute',
      onchange: ['aggregate_by', 'selection'],
      onsame: ['xmax'],
      cells: [
        { var: 'xmin', row: 1, col: 1 },
        { var: 'xmax', row: 1, col: 2 },
      ],
    })
    expect(d.kind === 'recompute' && d.query).to.equal(
      '<base table="pub.demo.retail.item"/><tabu><tcol source="sales" fun="min"/><tcol source="sales" fun="max"/></tabu>',
    )
  })

  it('orders recompute cells by their number, not by attribute order', () => {
    const d = app('<dynamic a="" b=""><do onchange_="a" value2_="b" value1_="a" row2_="3"><base table="t"/></do></dynamic>').dos[0]
    expect(d.kind === 'recompute' && d.cells).to.deep.equal([
      { var: 'a', row: 1, col: 1 },
      { var: 'b', row: 3, col: 1 },
    ])
  })

  it('keeps the action form as data: the action, the other attributes and the body', () => {
    expect(app(SALES).dos[3]).to.deep.include({
      kind: 'action',
      action: 'dbm',
      attrs: { trans_: 'get_names_in_dir', data_: "{path:'pub'}", value_: '@xmin' },
      query: '',
    })
  })

  it('reads attribute names lower-cased, as the XML layer does for every element', () => {
    expect(app('<DYNAMIC Region="E"><Widget Name="index"/></DYNAMIC>').vars).to.deep.equal({ region: 'E' })
  })

  it('reads a dynamic without an index widget as hasIndex false', () => {
    expect(app('<dynamic><widget name="a"/></dynamic>').hasIndex).to.equal(false)
  })

  it('does not take widgets nested inside a widget body as widgets of the app', () => {
    const a = app('<dynamic><widget name="outer" class_="nest"><dynamic><widget name="inner"/></dynamic></widget></dynamic>')
    expect(a.widgets.map((w) => w.name)).to.deep.equal(['outer'])
    expect(a.widgets[0].query).to.equal('<dynamic><widget name="inner"/></dynamic>')
  })

  it('skips generated names already used by named widgets', () => {
    const a = app('<dynamic><widget/><widget name="w1"/><widget/></dynamic>')
    expect(a.widgets.map((w) => w.name)).to.deep.equal(['w2', 'w1', 'w3'])
  })

  it('produces plain JSON data that survives a JSON round trip', () => {
    const a = app(SALES)
    expect(JSON.parse(JSON.stringify(a))).to.deep.equal(a)
  })
})

/** Queries that must be refused, the line the error points at, and words of its message. */
const ERRORS: readonly { name: string; xml: string; line: number; says: string }[] = [
  { name: 'a variable name with a hyphen', xml: '<macro>\n<dynamic x-y="2"/></macro>', line: 2, says: "'x-y' on <dynamic> is not a valid variable name" },
  { name: 'a variable name with a dot', xml: '<dynamic\n  a.b="1"/>', line: 1, says: "'a.b'" },
  { name: 'the reserved name count', xml: '<dynamic count="1"/>', line: 1, says: 'reserved' },
  {
    name: 'a binding to an undeclared variable',
    xml: '<dynamic x="1">\n\n<widget name="a" value_="@y"/></dynamic>',
    line: 3,
    says: "'y' is not declared on <dynamic> (declared: 'x')",
  },
  { name: 'a binding to count', xml: '<dynamic x="1"><widget value_="@count"/></dynamic>', line: 1, says: 'cannot be bound' },
  {
    name: 'a <set> of an undeclared variable',
    xml: '<dynamic x="1">\n<do on_="change(x)">\n<set z="1"/></do></dynamic>',
    line: 3,
    says: "<set> assigns 'z', which is not declared",
  },
  { name: 'a <set> of count', xml: '<dynamic x="1"><do on_="init"><set count="1"/></do></dynamic>', line: 1, says: "'count'" },
  { name: 'a <do> with no trigger', xml: '<dynamic x="1">\n  <do><set x="1"/></do></dynamic>', line: 2, says: '<do> has no trigger' },
  {
    name: 'a <do> whose onchange_ names nothing',
    xml: '<dynamic x="1"><do onchange_="" value1_="x"><base table="t"/></do></dynamic>',
    line: 1,
    says: 'no trigger',
  },
  {
    name: 'a change() of an undeclared variable',
    xml: '<dynamic x="1"><do on_="change(q)"><set x="1"/></do></dynamic>',
    line: 1,
    says: "on_ of <do> names 'q'",
  },
  { name: 'an unreadable on_', xml: '<dynamic x="1"><do on_="whenever"><set x="1"/></do></dynamic>', line: 1, says: 'is not a trigger' },
  { name: 'both trigger forms on one <do>', xml: '<dynamic x="1"><do on_="init" onchange_="x"/></dynamic>', line: 1, says: 'both on_ and onchange_' },
  { name: 'an operation inside an event <do>', xml: '<dynamic x="1"><do on_="init"><sel value="1"/></do></dynamic>', line: 1, says: '<sel> inside <do on_>' },
  { name: 'a recompute <do> without a query', xml: '<dynamic x="1"><do onchange_="x" value1_="x"/></dynamic>', line: 1, says: 'no query' },
  {
    name: 'a value of an undeclared variable',
    xml: '<dynamic x="1"><do onchange_="x" value1_="y"><base table="t"/></do></dynamic>',
    line: 1,
    says: "value1_ of <do> names 'y'",
  },
  { name: 'a row of 0', xml: '<dynamic x="1"><do onchange_="x" value1_="x" row1_="0"><base table="t"/></do></dynamic>', line: 1, says: 'row1_="0"' },
  { name: 'a column without its value', xml: '<dynamic x="1"><do onchange_="x" col2_="2"><base table="t"/></do></dynamic>', line: 1, says: 'no value2_' },
  { name: 'an unknown action', xml: '<dynamic><do action_="launch"/></dynamic>', line: 1, says: 'action_="launch"' },
  { name: 'a dbm action without trans_', xml: '<dynamic v=""><do action_="dbm" value_="@v"/></dynamic>', line: 1, says: 'names no transaction' },
  { name: 'a savetable action without a query', xml: '<dynamic><do action_="savetable" path_="uploads.a.b"/></dynamic>', line: 1, says: 'no query to save' },
  {
    name: 'an action attribute the action does not take',
    xml: '<dynamic><do action_="dbm" trans_="x" path="pub"/></dynamic>',
    line: 1,
    says: 'has no attribute path',
  },
  {
    name: 'an action value_ of an undeclared variable',
    xml: '<dynamic><do action_="dbm" trans_="x" value_="@out"/></dynamic>',
    line: 1,
    says: "value_ of <do> names 'out'",
  },
  {
    name: 'an action trigger on an undeclared variable',
    xml: '<dynamic><do action_="dbm" trans_="x" onsame_="go"/></dynamic>',
    line: 1,
    says: "onsame_ of <do> names 'go'",
  },
  { name: 'two widgets with one name', xml: '<dynamic>\n<widget name="a"/>\n<widget name="a"/></dynamic>', line: 3, says: "named 'a' already exists (line 2" },
  {
    name: 'an operation directly inside <dynamic>',
    xml: '<dynamic>\n<sel value="1"/></dynamic>',
    line: 2,
    says: '<sel> cannot appear directly inside <dynamic>',
  },
  {
    name: 'text directly inside a <layout>',
    xml: '<dynamic><layout><widget/>\nhello</layout></dynamic>',
    line: 2,
    says: "text 'hello' directly inside <layout>",
  },
  { name: 'a layout without a widget', xml: '<dynamic>\n<layout name_="l"><layout/></layout></dynamic>', line: 2, says: 'holds no widget' },
  { name: 'two <dynamic> elements', xml: '<dynamic/>\n<macro><dynamic/></macro>', line: 2, says: 'one already starts at line 1' },
]

describe('engine/dynamic: parseDynamic errors', () => {
  for (const c of ERRORS) {
    it(`refuses ${c.name} with a CHECK_ERROR at line ${c.line}`, () => {
      const err = parseError(c.xml)
      expect(err.code).to.equal('CHECK_ERROR')
      expect(err.detail.line).to.equal(c.line)
      expect(err.message).to.match(new RegExp(`^Line ${c.line}, column \\d+: `))
      expect(err.message).to.include(c.says)
    })
  }

  it('reports malformed XML as a PARSE_ERROR', () => {
    expect(parseError('<dynamic><widget></dynamic>').code).to.equal('PARSE_ERROR')
  })
})
