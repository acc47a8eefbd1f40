/**
 * Edges of engine/columns that its mutation run (docs/mutation.md) found untested: pairs of group
 * ids too many to pack into one 32-bit key, and the type two number columns widen to.
 */
import { expect } from 'chai'
import { widerNumber } from '../../engine/columns/index.js'
import { internIdPairs } from '../../engine/columns/pair-ids.js'

describe('column kernels at their edges', () => {
  describe('internIdPairs', () => {
    it('keeps pairs apart whose packed key would wrap past 32 bits', () => {
      // 61,356 × 70,000 + 47,296 = 2^32: packed into an Int32 it would be the key of (0, 0).
      const a = Int32Array.from([0, 61356, 0, 61356, -1])
      const b = Int32Array.from([0, 47296, 0, 47296, 5])
      const pairs = internIdPairs(a, 70000, b, 70000, 5)
      expect(pairs.count).to.equal(2)
      expect([...pairs.ids]).to.deep.equal([0, 1, 0, 1, -1])
      expect([...pairs.find(Int32Array.from([61356, 0, 1, -1]), Int32Array.from([47296, 0, 1, 0]), 4)]).to.deep.equal([1, 0, -1, -1])
    })

    it('packs small id ranges and still gives missing ids no pair', () => {
      const pairs = internIdPairs(Int32Array.from([1, 0, 1, -1]), 2, Int32Array.from([2, 2, 2, 0]), 3, 4)
      expect(pairs.count).to.equal(2)
      expect([...pairs.ids]).to.deep.equal([0, 1, 0, -1])
      expect([...pairs.find(Int32Array.from([0, 1, -1]), Int32Array.from([2, 2, 2]), 3)]).to.deep.equal([1, 0, -1])
    })
  })

  describe('widerNumber', () => {
    it('widens to float if either side is, else to bigint if either is, else keeps the first side', () => {
      expect(widerNumber('int', 'float')).to.equal('float')
      expect(widerNumber('float', 'int')).to.equal('float')
      expect(widerNumber('bigint', 'float')).to.equal('float')
      expect(widerNumber('int', 'bigint')).to.equal('bigint')
      expect(widerNumber('bigint', 'date')).to.equal('bigint')
      expect(widerNumber('date', 'int')).to.equal('date')
      expect(widerNumber('int', 'date')).to.equal('int')
    })
  })
})
