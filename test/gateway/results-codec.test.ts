/**
 * The result cache's encodings on their own: column codec and chunk framing must round-trip
 * every value exactly (bit patterns for numbers, code units for text) and refuse damaged input.
 */
import { expect } from 'chai'
import { decodeColumn, encodeColumn, storedKind } from '../../gateway/query/results/store/codec.js'
import { frame, unframe } from '../../gateway/query/results/store/frame.js'
import { decodeChunk, encodeChunk } from '../../gateway/query/results/store/chunk.js'
import type { ResultColumn } from '../../shared/protocol.js'
import { NA_INT } from '../../shared/table.js'

/** A NaN with a payload other than the canonical one: only a byte-exact codec keeps it. */
const ODD_NAN = new Float64Array(new BigUint64Array([0x7ff8_0000_dead_beefn]).buffer)[0]

const INTS = [0, 1, -1, NA_INT, NA_INT + 1, 2147483647, 123456789, -42]
const FLOATS = [0, -0, NaN, ODD_NAN, Infinity, -Infinity, Number.MIN_VALUE, -Number.MAX_VALUE, 0.1 + 0.2, 1e-310, 3.5]
const TEXTS = [
  '',
  'plain',
  'ünïcödé',
  '日本語',
  '👍🏽 emoji',
  '\ud800 lone high',
  'lone low \udfff',
  'a\u0000nul',
  'line\nbreak\r\t',
  '"quotes" and \\backslash',
  '\u2028\u2029',
  ' ',
]

/** The bytes of a numeric array, for bit-exact comparison (NaN payloads, -0). */
const bytesOf = (a: Int32Array | Float64Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength)

describe('result cache encodings', () => {
  describe('column codec', () => {
    it('round-trips ints exactly, NA_INT included', () => {
      const data = Int32Array.from(INTS)
      const back = decodeColumn('int', encodeColumn({ kind: 'int', data }, 0, data.length), data.length)
      expect(back.kind).to.equal('int')
      expect(Array.from(back.data as Int32Array)).to.deep.equal(INTS)
    })

    it('round-trips floats bit for bit: NaN payloads, -0, infinities, subnormals', () => {
      const data = Float64Array.from(FLOATS)
      const back = decodeColumn('float', encodeColumn({ kind: 'float', data }, 0, data.length), data.length).data as Float64Array
      expect(bytesOf(back).equals(bytesOf(data))).to.equal(true)
      expect(Object.is(back[1], -0)).to.equal(true)
      expect(Number.isNaN(back[2])).to.equal(true)
    })

    it('round-trips text exactly: N/A, unicode, lone surrogates, control characters', () => {
      const encoded = encodeColumn({ kind: 'text', data: TEXTS }, 0, TEXTS.length)
      // Well-formed, so a store that keeps UTF-8 (Redis) cannot alter it.
      expect(Buffer.from(encoded, 'utf8').toString('utf8')).to.equal(encoded)
      expect(decodeColumn('text', encoded, TEXTS.length).data).to.deep.equal(TEXTS)
    })

    it('encodes only the slice asked for', () => {
      const data = Float64Array.from(FLOATS)
      const back = decodeColumn('float', encodeColumn({ kind: 'float', data }, 3, 7), 4).data as Float64Array
      expect(bytesOf(back).equals(bytesOf(data.subarray(3, 7)))).to.equal(true)
      expect(decodeColumn('text', encodeColumn({ kind: 'text', data: TEXTS }, 2, 5), 3).data).to.deep.equal(TEXTS.slice(2, 5))
    })

    it('decodes into fresh, aligned arrays of their own', () => {
      // Decoding many small columns: Buffer's pool would hand out odd offsets if the decoder used it.
      for (let n = 0; n < 20; n++) {
        const data = Float64Array.from({ length: n }, (_, i) => i / 3)
        const back = decodeColumn('float', encodeColumn({ kind: 'float', data }, 0, n), n).data as Float64Array
        expect(back.byteOffset % 8).to.equal(0)
        expect(back.buffer.byteLength).to.equal(n * 8)
        expect(Array.from(back)).to.deep.equal(Array.from(data))
      }
    })

    it('round-trips empty slices of every kind', () => {
      const columns: ResultColumn[] = [
        { kind: 'int', data: new Int32Array(0) },
        { kind: 'float', data: new Float64Array(0) },
        { kind: 'text', data: [] },
      ]
      for (const column of columns) expect(decodeColumn(storedKind(column), encodeColumn(column, 0, 0), 0).data.length).to.equal(0)
    })

    it('refuses data of the wrong length or shape', () => {
      const ints = encodeColumn({ kind: 'int', data: Int32Array.from([1, 2, 3]) }, 0, 3)
      expect(() => decodeColumn('int', ints, 4)).to.throw(/Corrupt int column/)
      expect(() => decodeColumn('float', ints, 3)).to.throw(/Corrupt float column/)
      expect(() => decodeColumn('text', '["a",1]', 2)).to.throw(/Corrupt text column/)
      expect(() => decodeColumn('text', '["a"]', 2)).to.throw(/Corrupt text column/)
      expect(() => decodeColumn('text', '{}', 0)).to.throw(/Corrupt text column/)
    })
  })

  describe('framing', () => {
    it('round-trips any parts, empty ones and none at all', () => {
      for (const parts of [[], [''], ['', ''], ['a', '', 'b,c\n', '日本'], ['x'.repeat(10_000), '"', '\ud83d\udc4d']]) {
        expect(unframe(frame(parts), parts.length)).to.deep.equal(parts)
      }
    })

    it('refuses a frame with the wrong number of parts or a wrong total length', () => {
      expect(() => unframe(frame(['a', 'b']), 3)).to.throw(/Corrupt result chunk/)
      expect(() => unframe(frame(['a', 'b']) + 'x', 2)).to.throw(/Corrupt result chunk/)
      expect(() => unframe('no header', 1)).to.throw(/Corrupt result chunk/)
      expect(() => unframe('1,x\nab', 2)).to.throw(/Corrupt result chunk/)
    })
  })

  describe('chunks', () => {
    it('hold a row range of every column', () => {
      const result = {
        cols: [],
        rowCount: 8,
        columns: [
          { kind: 'int', data: Int32Array.from(INTS) },
          { kind: 'float', data: Float64Array.from(FLOATS.slice(0, 8)) },
          { kind: 'text', data: TEXTS.slice(0, 8) },
        ] as ResultColumn[],
      }
      const back = decodeChunk(encodeChunk(result, 2, 6), ['int', 'float', 'text'], 4)
      expect(Array.from(back[0].data as Int32Array)).to.deep.equal(INTS.slice(2, 6))
      expect(bytesOf(back[1].data as Float64Array).equals(bytesOf((result.columns[1] as { data: Float64Array }).data.subarray(2, 6)))).to.equal(true)
      expect(back[2].data).to.deep.equal(TEXTS.slice(2, 6))
    })
  })
})
