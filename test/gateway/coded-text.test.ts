/**
 * Coded text result columns (shared/protocol.ts) behave exactly like the same text as strings
 * everywhere a result goes: every format's bytes, paged rendering, MAX_RESULT_BYTES counting and
 * cutting, `!data` slices and the Store's chunked copy.
 */
import { expect } from 'chai'
import type { ResultColumn, ResultSet } from '../../shared/protocol.js'
import { columnMeta, NA_INT } from '../../shared/table.js'
import { createMemoryStore } from '../../shared/store/index.js'
import { textSlice } from '../../shared/result-text.js'
import { FORMATS, collectBody, renderPaged, renderResult } from '../../gateway/format/index.js'
import { countedBytes, limitResultBytes } from '../../gateway/query/limits.js'
import { sliceResult } from '../../gateway/query/results/readable-result.js'
import { resultBytes } from '../../gateway/query/results/results.js'
import { ResultStore } from '../../gateway/query/results/store/chunked.js'
import { dataOf } from '../helpers/columns.js'

// Strings that need JSON escapes, HTML escapes, non-ASCII bytes, and N/A ('').
const DICT = ['', 'plain', 'quote " and \\ slash', '<b>&amp;</b>', 'naïve ☃', 'tab\there']
const CODES = Int32Array.from({ length: 9000 }, (_, i) => (i * 7) % DICT.length)

function results(): { coded: ResultSet; plain: ResultSet } {
  const cols = [columnMeta({ name: 'n', type: 'int' }), columnMeta({ name: 's', type: 'text' })]
  const n: ResultColumn = { kind: 'int', data: Int32Array.from(CODES, (c, i) => (c === 0 ? NA_INT : i)) }
  const coded: ResultSet = { cols, rowCount: CODES.length, columns: [n, { kind: 'coded', codes: CODES, dict: DICT }] }
  const plain: ResultSet = { cols, rowCount: CODES.length, columns: [n, { kind: 'text', data: Array.from(CODES, (c) => DICT[c]) }] }
  return { coded, plain }
}

describe('coded text in results', () => {
  it('renders every format byte for byte as the same text given as strings', async () => {
    const { coded, plain } = results()
    for (const format of FORMATS) {
      for (const range of [undefined, { from: 5, to: 130 }]) {
        const a = await collectBody(renderResult(coded, format, { range }))
        const b = await collectBody(renderResult(plain, format, { range }))
        expect(a, `${format} ${JSON.stringify(range)}`).to.equal(b)
      }
    }
  })

  it('renders paged (`!data` of a kept result) the same way, piece after piece', async () => {
    const { coded, plain } = results()
    const paged = (r: ResultSet) => ({ cols: r.cols, rowCount: r.rowCount, read: async (from: number, to: number) => sliceResult(r, from, to) })
    for (const format of FORMATS) {
      expect(await collectBody(renderPaged(paged(coded), format)), format).to.equal(await collectBody(renderPaged(paged(plain), format)))
    }
  })

  it('counts MAX_RESULT_BYTES the same and cuts at the same row, keeping the cut coded', () => {
    const { coded, plain } = results()
    expect(countedBytes(coded)).to.equal(countedBytes(plain))
    const limit = Math.floor(countedBytes(plain) / 3)
    const a = limitResultBytes(coded, limit, true)
    const b = limitResultBytes(plain, limit, true)
    expect(a.rowCount).to.equal(b.rowCount).and.to.be.below(CODES.length)
    expect(a.columns[1].kind).to.equal('coded')
    expect(dataOf(a.columns[1])).to.deep.equal(dataOf(b.columns[1]))
    expect(() => limitResultBytes(coded, limit, false)).to.throw(/MAX_RESULT_BYTES/)
  })

  it('slices without copying the codes, and charges the memo for codes and dictionary', () => {
    const { coded } = results()
    const slice = sliceResult(coded, 100, 200).columns[1]
    expect(slice.kind).to.equal('coded')
    if (slice.kind !== 'coded') return
    expect(slice.codes.buffer).to.equal(CODES.buffer)
    expect(textSlice(slice)).to.deep.equal(Array.from(CODES.subarray(100, 200), (c) => DICT[c]))
    expect(resultBytes(coded)).to.be.at.least(CODES.byteLength + DICT.join('').length * 2)
  })

  it('keeps a coded result in the Store as text, read back with the same strings', async () => {
    const { coded, plain } = results()
    const store = createMemoryStore()
    await store.connect()
    const kept = new ResultStore(store, { ttl: 60, chunkRows: 1000 })
    expect(await kept.save('k', coded)).to.equal('saved')
    const back = await kept.readRange('k', 950, 2100)
    expect(back!.columns[1].kind).to.equal('text')
    expect(dataOf(back!.columns[1])).to.deep.equal(dataOf(sliceResult(plain, 950, 2100).columns[1]))
    await store.close()
  })
})
