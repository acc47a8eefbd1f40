import { expect } from 'chai'
import type { DynamicWidget } from '../../engine/index.js'
import { CONTROL_ONLY_METHODS, hasResult, RESULT_METHODS, widgetMethods } from '../../gateway/routes/methods.js'

const widget = (cls: string, query: string): DynamicWidget => ({ class: cls, query }) as unknown as DynamicWidget

describe('gateway/routes/methods.ts', () => {
  it('lists the read methods and the control methods for a result, only the control methods otherwise', () => {
    expect([...RESULT_METHODS]).to.deep.equal(['cols', 'rows', 'data', 'head', 'stop', 'status', 'methods'])
    expect([...CONTROL_ONLY_METHODS]).to.deep.equal(['stop', 'status', 'methods'])
  })

  it('gives a widget with a query a result, and a text widget or one without a query none', () => {
    expect(hasResult(widget('grid', '<base table="pub.demo"/>'))).to.equal(true)
    expect(hasResult(widget('text', '<base table="pub.demo"/>'))).to.equal(false)
    expect(hasResult(widget('grid', '  \n'))).to.equal(false)
  })

  it('names only the methods that answer at the widget', () => {
    expect(widgetMethods(widget('grid', '<base table="pub.demo"/>'))).to.equal(RESULT_METHODS)
    expect(widgetMethods(widget('text', ''))).to.equal(CONTROL_ONLY_METHODS)
  })
})
