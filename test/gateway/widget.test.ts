import { expect } from 'chai'
import type { Context } from 'koa'
import { READ_METHODS, requestedRange } from '../../gateway/routes/widget.js'

/** A context whose query string holds `query` (requestParams reads nothing else here). */
const withQuery = (query: Record<string, string>): Context => ({ query, request: {}, req: { headers: {} }, is: () => false }) as unknown as Context

describe('gateway/routes/widget.ts', () => {
  it('offers the four read methods of the index widget', () => {
    expect([...READ_METHODS]).to.deep.equal(['cols', 'rows', 'data', 'head'])
  })

  describe('requestedRange()', () => {
    it('is the whole result when no range is asked for', () => {
      expect(requestedRange(withQuery({}), 'sql', 10)).to.deep.equal({ from: 0, to: 10 })
    })

    it("reads range/to for sql and range_/to_ for run, each ignoring the other app's names", () => {
      expect(requestedRange(withQuery({ range: '2', to: '5' }), 'sql', 10)).to.deep.equal({ from: 2, to: 5 })
      expect(requestedRange(withQuery({ range_: '2', to_: '5' }), 'run', 10)).to.deep.equal({ from: 2, to: 5 })
      expect(requestedRange(withQuery({ range_: '2', to_: '5' }), 'sql', 10)).to.deep.equal({ from: 0, to: 10 })
      expect(requestedRange(withQuery({ range: '2', to: '5' }), 'run', 10)).to.deep.equal({ from: 0, to: 10 })
    })

    it('clips to the result instead of failing: past the end, and an end before the start', () => {
      expect(requestedRange(withQuery({ range: '8', to: '50' }), 'sql', 10)).to.deep.equal({ from: 8, to: 10 })
      expect(requestedRange(withQuery({ range: '50' }), 'sql', 10)).to.deep.equal({ from: 10, to: 10 })
      expect(requestedRange(withQuery({ range: '6', to: '3' }), 'sql', 10)).to.deep.equal({ from: 6, to: 6 })
    })

    it('refuses a range that is not a whole number', () => {
      expect(() => requestedRange(withQuery({ range: '-1' }), 'sql', 10)).to.throw(/whole number/)
    })
  })
})
