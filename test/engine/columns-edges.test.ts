/**
 * Edges of engine/columns that its mutation run (docs/mutation.md) found untested: pairs of group
 * ids too many to pack into one 32-bit key, the type two number columns widen to, a lookup or a
 * grouping on no key columns, the first row of each group, -0 in a partitioned key, and columns
 * put one after another.
 */
import { expect } from 'chai'
import { firstIndexLookup, firstRowOfGroups, groupBy, widerNumber, type Column } from '../../engine/columns/index.js'
import { internIdPairs } from '../../engine/columns/pair-ids.js'
import { rowsOfPartition } from '../../engine/columns/key-partitions.js'
import { concatColumns } from '../../engine/columns/concat.js'
import { textColumnFromStrings, columnValues } from '../../engine/columns/index.js'

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

  describe('firstIndexLookup', () => {
    it('on no key columns matches every probe row to the first row, or to none when there are no rows', () => {
      expect([...firstIndexLookup([], 5, [], 3).match]).to.deep.equal([0, 0, 0])
      expect(firstIndexLookup([], 5, [], 3).distinct).to.equal(1)
      expect([...firstIndexLookup([], 0, [], 3).match]).to.deep.equal([-1, -1, -1])
      expect(firstIndexLookup([], 0, [], 3).distinct).to.equal(0)
    })

    it('refuses key and probe lists of different lengths', () => {
      const one: Column[] = [{ type: 'int', data: Int32Array.from([1]) }]
      expect(() => firstIndexLookup(one, 1, [], 1)).to.throw(/counts differ/)
    })
  })

  describe('groupBy on no key columns', () => {
    it('puts every row in one group, leaving the rows a mask drops out, and makes no group of none', () => {
      expect(groupBy([], 3)).to.deep.include({ count: 1 })
      expect([...groupBy([], 3).ids]).to.deep.equal([0, 0, 0])
      const masked = groupBy([], 3, Uint8Array.from([1, 0, 1]))
      expect(masked.count).to.equal(1)
      expect([...masked.ids]).to.deep.equal([0, -1, 0])
      expect(groupBy([], 2, Uint8Array.from([0, 0])).count).to.equal(0)
      expect(groupBy([], 0).count).to.equal(0)
    })
  })

  describe('firstRowOfGroups', () => {
    it('gives each group its first row, skipping rows in no group', () => {
      const ids = Int32Array.from([-1, 1, 0, 1, 0, -1])
      expect([...firstRowOfGroups({ ids, count: 2 })]).to.deep.equal([2, 1])
    })
  })

  describe('rowsOfPartition', () => {
    it('puts -0 with 0, as the group-by kernel does, for every partition count', () => {
      const data = Float64Array.from([0, -0, 1.5, -0, 0])
      for (let count = 2; count <= 64; count++) {
        const owner = (r: number): number => [...Array(count).keys()].find((p) => rowsOfPartition([{ type: 'float', data }], 5, p, count).includes(r))!
        expect(owner(1), `${count} partitions`).to.equal(owner(0))
        expect(owner(3), `${count} partitions`).to.equal(owner(4))
      }
    })
  })

  describe('concatColumns', () => {
    it('puts text columns of different dictionaries one after another on one dictionary', () => {
      const a = textColumnFromStrings(['pear', '', 'apple'])
      const b = textColumnFromStrings(['fig', 'pear'])
      expect(columnValues(concatColumns([a, b], 'text'))).to.deep.equal(['pear', null, 'apple', 'fig', 'pear'])
    })

    it('puts numbers one after another and makes an empty text column of no columns', () => {
      const floats = concatColumns(
        [
          { type: 'float', data: Float64Array.from([1.5]) },
          { type: 'float', data: Float64Array.from([Number.NaN, 2]) },
        ],
        'float',
      )
      expect(columnValues(floats)).to.deep.equal([1.5, null, 2])
      expect(concatColumns([], 'text')).to.deep.equal({ type: 'text', codes: new Int32Array(0), dict: [''] })
    })
  })
})
