import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import { applyRequest, changedWidgets, initialVars, parseDynamic, statusTable, widgetQuery, widgetText } from '../../engine/dynamic/index.js'
import type { DynamicApp } from '../../engine/dynamic/index.js'
import { parseQuery } from '../../engine/parse/index.js'

function app(xml: string): DynamicApp {
  const parsed = parseDynamic(xml)
  if (!parsed) throw new Error('expected a dynamic query')
  return parsed
}

const DASHBOARD = app(`<macro>
  <library><block name="region"><sel value="region='{@region}'"/></block></library>
  <dynamic region="E" store="" title="Sales">
    <layout name_="top">
      <widget name="pick" class_="dropdown" value_="@store"><base table="pub.demo.retail.store"/></widget>
      <widget name="heading" class_="text" text_="{@title} for {@region}, instance {@count}"/>
    </layout>
    <widget name="index"><base table="pub.demo.retail.item"/><insert block="region"/></widget>
    <widget name="bystore" base_="pub.demo.retail.item"><sel value="store={@store}"/></widget>
    <widget class_="text">Static &amp; plain</widget>
    <do on_="change(region)"><set title="'Sales'"/></do>
  </dynamic>
</macro>`)

describe('engine/dynamic: widgets', () => {
  it('gives a widget query with the libraries in front, ready for parseQuery with the variables', () => {
    const text = widgetQuery(DASHBOARD, 'index')!
    expect(text).to.equal(
      `<library><block name="region"><sel value="region='{@region}'"/></block></library><base table="pub.demo.retail.item"/><insert block="region"/>`,
    )
    const ops = parseQuery(text, initialVars(DASHBOARD, 1))
    expect(ops.map((op) => op.kind)).to.deep.equal(['Base', 'Sel'])
    expect(JSON.stringify(ops[1])).to.include('"value":"E"')
  })

  it('answers null for an unknown widget and the empty text for a widget without a body', () => {
    expect(widgetQuery(DASHBOARD, 'nope')).to.equal(null)
    expect(widgetQuery(DASHBOARD, 'heading')).to.equal('')
  })

  it("substitutes the variables, count included, into a text widget's text_", () => {
    expect(widgetText(DASHBOARD, 'heading', initialVars(DASHBOARD, 9))).to.equal('Sales for E, instance 9')
  })

  it('takes the body of a text widget without text_ as its text', () => {
    expect(widgetText(DASHBOARD, 'w1', {})).to.equal('Static & plain')
  })

  it('refuses an unknown widget with NOT_FOUND and an unknown variable with CHECK_ERROR', () => {
    const failure = (fn: () => unknown): AppError => {
      try {
        fn()
      } catch (err) {
        if (err instanceof AppError) return err
      }
      throw new Error('expected an AppError')
    }
    expect(failure(() => widgetText(DASHBOARD, 'nope', {})).code).to.equal('NOT_FOUND')
    expect(failure(() => widgetText(DASHBOARD, 'heading', { title: 't', region: 'E' })).code).to.equal('CHECK_ERROR')
  })

  it('marks as changed the widgets that mention a changed variable in their query, text or attributes, or are bound to it', () => {
    expect([...changedWidgets(DASHBOARD, ['region'])]).to.deep.equal(['heading', 'index'])
    expect([...changedWidgets(DASHBOARD, ['store'])]).to.deep.equal(['pick', 'bystore'])
    expect([...changedWidgets(DASHBOARD, ['title'])]).to.deep.equal(['heading'])
    expect([...changedWidgets(DASHBOARD, [])]).to.deep.equal([])
  })

  it('builds the status table column-major, one position per widget in document order', () => {
    expect(statusTable(DASHBOARD, new Set(['heading', 'index']))).to.deep.equal({
      name: ['pick', 'heading', 'index', 'bystore', 'w1'],
      class: ['dropdown', 'text', 'grid', 'grid', 'text'],
      changed: [0, 1, 1, 0, 0],
    })
  })

  it('flags the widgets a request changed, through the changes applyRequest reports', async () => {
    const runQuery = async (): Promise<never> => {
      throw new Error('no query expected')
    }
    const out = await applyRequest(DASHBOARD, initialVars(DASHBOARD, 1), { store: '7', fmt_: 'json' }, { init: false, runQuery })
    expect(out.changes).to.deep.equal({ store: '7' })
    expect(statusTable(DASHBOARD, changedWidgets(DASHBOARD, Object.keys(out.changes))).changed).to.deep.equal([1, 0, 0, 1, 0])
  })
})
