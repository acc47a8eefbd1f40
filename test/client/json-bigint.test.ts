/**
 * The client's JSON reading (client/json-bigint.ts): a big integer the service answers with every
 * digit comes back as a bigint, everything else exactly as JSON.parse reads it.
 */
import { expect } from 'chai'
import { parseJsonKeepingBigints } from '../../client/json-bigint.js'

describe('client: JSON with 64-bit integers', () => {
  it('keeps every digit of an integer a double cannot hold, in arrays and objects, either sign', () => {
    const text = '{"id":[9223372036854775807,-9007199254740993,12,null],"k":{"n":1152921504606846977}}'
    expect(parseJsonKeepingBigints(text)).to.deep.equal({ id: [9223372036854775807n, -9007199254740993n, 12, null], k: { n: 1152921504606846977n } })
  })

  it('reads everything else as JSON.parse does', () => {
    for (const text of [
      '[9007199254740991,-9007199254740991,0,-0,1.5]',
      '{"s":"12345678901234567890","t":"a \\"quoted\\" 99999999999999999 \\\\"}',
      '[0.12345678901234567891,1e300,12345678901234567890.5,1.2345678901234567e25]',
      '"\\u0000int:9999999999999999999"',
      '[]',
    ]) {
      expect(parseJsonKeepingBigints(text), text).to.deep.equal(JSON.parse(text))
    }
  })

  it('refuses what is not JSON, as JSON.parse does', () => {
    expect(() => parseJsonKeepingBigints('[12345678901234567890,')).to.throw(SyntaxError)
    expect(() => parseJsonKeepingBigints('{"a":1')).to.throw(SyntaxError)
  })
})
