/**
 * The one reading of whole numbers as 64-bit integers (shared/bigint-text.ts), which CSV uploads,
 * inline tables and JSON strings of digits share: signs, the range's two ends, and what is not one.
 */
import { expect } from 'chai'
import { bigintOfText } from '../../shared/bigint-text.js'

describe('shared/bigint-text: whole numbers written as text, read as 64-bit integers', () => {
  it('reads digits with an optional sign, exactly, up to ±(2^63 − 1)', () => {
    expect(bigintOfText('0')).to.equal(0n)
    expect(bigintOfText('+42')).to.equal(42n)
    expect(bigintOfText('-9007199254740993')).to.equal(-9007199254740993n)
    expect(bigintOfText('9223372036854775807')).to.equal(9223372036854775807n)
    expect(bigintOfText('-9223372036854775807')).to.equal(-9223372036854775807n)
    expect(bigintOfText('000123')).to.equal(123n)
  })

  it('is null past the range (−2^63 is N/A) and for anything but digits', () => {
    for (const t of ['9223372036854775808', '-9223372036854775808', '99999999999999999999', '', '-', '1.0', '1e3', ' 1', '0x10', '1_000', '١٢']) {
      expect(bigintOfText(t), t).to.equal(null)
    }
  })
})
