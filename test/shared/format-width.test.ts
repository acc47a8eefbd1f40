import { expect } from 'chai'
import { formatWidth, withFormatWidth, withoutFormatWidth } from '../../shared/format-width.js'

describe('shared/format-width.ts', () => {
  describe('formatWidth()', () => {
    it('reads the width: part wherever it stands, spaces and case allowed', () => {
      expect(formatWidth('type:num;width:15;dec:2')).to.equal(15)
      expect(formatWidth('width:7')).to.equal(7)
      expect(formatWidth('type:char; Width : 12 ')).to.equal(12)
    })

    it('is null when the format states no whole-number width', () => {
      expect(formatWidth('')).to.equal(null)
      expect(formatWidth('type:num;dec:2')).to.equal(null)
      expect(formatWidth('type:num;width:1.5')).to.equal(null)
      expect(formatWidth('type:num;width:')).to.equal(null)
      expect(formatWidth('type:num;widths:4')).to.equal(null)
    })
  })

  describe('withFormatWidth()', () => {
    it('replaces an existing width in place of the old one', () => {
      expect(withFormatWidth('type:num;width:15;dec:2', 20)).to.equal('type:num;width:20;dec:2')
    })

    it('puts a missing width right after type:, or first when there is no type', () => {
      expect(withFormatWidth('type:num;dec:2', 9)).to.equal('type:num;width:9;dec:2')
      expect(withFormatWidth('dec:2', 9)).to.equal('width:9;dec:2')
      expect(withFormatWidth('', 9)).to.equal('width:9')
    })

    it('drops empty parts and keeps the others as written', () => {
      expect(withFormatWidth('type:num;; dec: 2 ;', 4)).to.equal('type:num;width:4; dec: 2 ')
    })

    it('agrees with formatWidth()', () => {
      expect(formatWidth(withFormatWidth('type:char;width:3', 31))).to.equal(31)
    })
  })

  describe('withoutFormatWidth()', () => {
    it('removes the width and empty parts, keeps the rest', () => {
      expect(withoutFormatWidth('type:num;width:15;dec:2')).to.equal('type:num;dec:2')
      expect(withoutFormatWidth('type:num; WIDTH:3;;')).to.equal('type:num')
      expect(formatWidth(withoutFormatWidth('width:8;type:char'))).to.equal(null)
    })
  })
})
