/**
 * Cutting a result to its limits, without a service: the engine keeps the first maxRows rows of an
 * SQL or macro result and reports how many there were (task `truncate`); MAX_RESULT_BYTES counts
 * 8 bytes per number and the UTF-8 length of text and cuts at the last row that fits; and the
 * truncate_=1 rendering states the cut in every format, streamed or not, with the same bytes.
 */
import { expect } from 'chai'
import type { ResultSet } from '../../shared/protocol.js'
import { columnMeta } from '../../shared/table.js'
import { ResultBuilder } from '../../engine/sql/result-builder.js'
import { runOps } from '../../engine/interpret/index.js'
import { toResultSet } from '../../engine/parallel/wire.js'
import { parseQuery } from '../../engine/parse/index.js'
import { checkQuery } from '../../engine/check/index.js'
import { collectBody, renderTruncatable, STREAM_THRESHOLD } from '../../gateway/format/index.js'
import { countedBytes, limitResultBytes, rowsWithinBytes, truncationOf } from '../../gateway/query/limits.js'
import { dataOf } from '../helpers/columns.js'

/** n rows of an int `i` (0, 1, …) and a text `t` of `text(i)`. */
function table(n: number, text: (i: number) => string = (i) => `r${i}`): ResultSet {
  return {
    cols: [columnMeta({ name: 'i', type: 'int' }), columnMeta({ name: 't', type: 'text' })],
    columns: [
      { kind: 'int', data: Int32Array.from({ length: n }, (_, i) => i) },
      { kind: 'text', data: Array.from({ length: n }, (_, i) => text(i)) },
    ],
    rowCount: n,
  }
}

describe('engine truncation (task truncate)', () => {
  it('SQL: keeps the first maxRows rows and counts the rest; refuses them without truncate', () => {
    const cut = new ResultBuilder(['x'], 3, true)
    for (let i = 1; i <= 10; i++) cut.add([i])
    const r = cut.build()
    expect(r.rowCount).to.equal(3)
    expect(r.totalRows).to.equal(10)
    expect(Array.from(dataOf(r.columns[0]) as Int32Array)).to.deep.equal([1, 2, 3])
    const whole = new ResultBuilder(['x'], 3, true)
    for (let i = 1; i <= 3; i++) whole.add([i])
    expect(whole.build()).to.not.have.property('totalRows')
    const strict = new ResultBuilder(['x'], 3)
    for (let i = 1; i <= 3; i++) strict.add([i])
    expect(() => strict.add([4])).to.throw(/MAX_RESULT_ROWS/)
  })

  it('macro: keeps the first maxRows rows of every column and reports the worksheet rows', () => {
    const ops = checkQuery(parseQuery('<table cols="n,s">1,a;2,b;3,c;4,d</table>', {}), new Map()).ops
    const r = toResultSet(runOps(ops, new Map()), 2, true)
    expect(r.rowCount).to.equal(2)
    expect(r.totalRows).to.equal(4)
    expect(Array.from(dataOf(r.columns[0]) as Int32Array)).to.deep.equal([1, 2])
    expect(dataOf(r.columns[1])).to.deep.equal(['a', 'b'])
    expect(() => toResultSet(runOps(ops, new Map()), 2)).to.throw(/MAX_RESULT_ROWS/)
    expect(toResultSet(runOps(ops, new Map()), 4, true)).to.not.have.property('totalRows')
  })
})

describe('MAX_RESULT_BYTES', () => {
  it('counts 8 bytes per number and the UTF-8 length of each text', () => {
    expect(countedBytes(table(3, () => 'ab'))).to.equal(3 * 8 + 3 * 2)
    expect(countedBytes(table(2, () => 'é€'))).to.equal(2 * 8 + 2 * (2 + 3))
  })

  it('finds the last row that fits', () => {
    const r = table(10, () => 'xx') // 10 bytes a row
    expect(rowsWithinBytes(r, 35)).to.equal(3)
    expect(rowsWithinBytes(r, 40)).to.equal(4)
    expect(rowsWithinBytes(r, 1000)).to.equal(10)
  })

  it('passes a result that fits, refuses a larger one, and with truncate cuts it stating the whole size', () => {
    const r = table(10, () => 'xx')
    expect(limitResultBytes(r, 100, false)).to.equal(r)
    expect(() => limitResultBytes(r, 99, false)).to.throw(/MAX_RESULT_BYTES/)
    const cut = limitResultBytes(r, 45, true)
    expect(truncationOf(cut)).to.deep.equal({ truncated: true, totalRows: 10, rows: 4 })
    expect(dataOf(cut.columns[1])).to.deep.equal(['xx', 'xx', 'xx', 'xx'])
    // A result the engine already cut by rows keeps the count of the whole result.
    const engineCut: ResultSet = { ...r, totalRows: 5000 }
    expect(truncationOf(limitResultBytes(engineCut, 45, true))).to.deep.equal({ truncated: true, totalRows: 5000, rows: 4 })
  })
})

describe('renderTruncatable', () => {
  const cut = { truncated: true, totalRows: 10, rows: 2 }

  it('wraps every JSON shape as {truncated, total_rows, rows, result}', async () => {
    const r = table(2)
    const body = async (format: 'json' | 'json.rows' | 'json.keyed') => JSON.parse(await collectBody(renderTruncatable(r, format, cut)))
    expect(await body('json')).to.deep.equal({ truncated: true, total_rows: 10, rows: 2, result: { i: [0, 1], t: ['r0', 'r1'] } })
    expect((await body('json.rows')).result).to.deep.equal({
      cols: ['i', 't'],
      rows: [
        [0, 'r0'],
        [1, 'r1'],
      ],
    })
    expect((await body('json.keyed')).result).to.deep.equal([
      { i: 0, t: 'r0' },
      { i: 1, t: 'r1' },
    ])
  })

  it('ends text with the cut, and adds nothing when nothing was cut', async () => {
    const r = table(2)
    expect(await collectBody(renderTruncatable(r, 'text', cut))).to.match(/\n-- truncated: first 2 of 10 rows\n$/)
    expect(await collectBody(renderTruncatable(r, 'text', { truncated: false, totalRows: 2, rows: 2 }))).to.not.contain('truncated')
  })

  it('shows an escaped notice on the HTML page only when rows were left out', async () => {
    const r = table(2, () => '<b>')
    const page = await collectBody(renderTruncatable(r, 'html', cut, { title: 'sql' }))
    expect(page).to.contain('<strong>Truncated:</strong> showing the first 2 of 10 rows').and.to.contain('&lt;b&gt;')
    expect(await collectBody(renderTruncatable(r, 'html', { truncated: false, totalRows: 2, rows: 2 }))).to.not.contain('Truncated')
  })

  it('streams a large result, and the stream states the cut too', async () => {
    const r = table(STREAM_THRESHOLD + 500)
    const info = { truncated: true, totalRows: 1_000_000, rows: r.rowCount }
    for (const format of ['json', 'json.rows', 'json.keyed', 'text', 'html'] as const) {
      const rendered = renderTruncatable(r, format, info)
      expect(typeof rendered.body, format).to.not.equal('string')
      const text = await collectBody(rendered)
      if (format.startsWith('json')) expect(JSON.parse(text)).to.include({ truncated: true, total_rows: 1_000_000, rows: r.rowCount })
      expect(text).to.contain('1000000')
    }
  })
})
