/**
 * Edges of the result formats that the mutation run of gateway/format (docs/mutation.md) found
 * untested: N/A fields in CSV, the row-count line of a range that does not start at 0, the size
 * check of aligned text on such a range, times and dates that are not valid, and the smallest
 * width a display format may give.
 */
import { expect } from 'chai'
import type { ResultSet } from '../../shared/protocol.js'
import { NA_INT, columnMeta } from '../../shared/table.js'
import { csvRows } from '../../gateway/format/csv.js'
import { rowCountText } from '../../gateway/format/html-page.js'
import { TEXT_MAX_CHARS, checkTextSize, measureRows, textLayout, textTable } from '../../gateway/format/text.js'
import { CLOCK_TYPES } from '../../gateway/format/display/clock.js'
import { displaySpec } from '../../gateway/format/display/spec.js'

function csvOf(result: ResultSet): string {
  return [...csvRows(result, { from: 0, to: result.rowCount })].join('')
}

describe('result formats at their edges', () => {
  describe('CSV', () => {
    it('writes N/A as an empty field in int, date and float columns, and the values around it as they are', () => {
      const result: ResultSet = {
        cols: [columnMeta({ name: 'n', type: 'int' }), columnMeta({ name: 'd', type: 'date' }), columnMeta({ name: 'x', type: 'float' })],
        columns: [
          { kind: 'int', data: Int32Array.from([7, NA_INT, -2]) },
          { kind: 'int', data: Int32Array.from([20240131, NA_INT, 19991231]) },
          { kind: 'float', data: Float64Array.from([1.5, NaN, -0.25]) },
        ],
        rowCount: 3,
      }
      expect(csvOf(result)).to.equal('7,2024-01-31,1.5\r\n,,\r\n-2,1999-12-31,-0.25\r\n')
    })

    it('writes an empty line for a row of a result with no columns', () => {
      expect(csvOf({ cols: [], columns: [], rowCount: 2 })).to.equal('\r\n\r\n')
    })
  })

  describe('the row-count line of an HTML page', () => {
    it('names the one row shown by its number, wherever the range starts', () => {
      expect(rowCountText(10, { from: 5, to: 6 })).to.equal('10 rows, showing row 5')
      expect(rowCountText(10, { from: 3, to: 7 })).to.equal('10 rows, showing rows 3\u20136')
      expect(rowCountText(10, { from: 4, to: 4 })).to.equal('10 rows, showing none')
    })
  })

  describe('the size check of aligned text', () => {
    it('counts the rows of the range asked for, not the rows before it', () => {
      // One value of a million characters pads every line to a million: 1,100 such lines pass
      // TEXT_MAX_CHARS, two do not, wherever in the result the two are.
      const wide = 'w'.repeat(1_000_000)
      const rows = 2000
      const result: ResultSet = {
        cols: [columnMeta({ name: 'wide', type: 'text' }), columnMeta({ name: 'n', type: 'int' })],
        columns: [
          { kind: 'text', data: Array.from({ length: rows }, () => wide) },
          { kind: 'int', data: new Int32Array(rows) },
        ],
        rowCount: rows,
      }
      expect(1100 * wide.length).to.be.above(TEXT_MAX_CHARS)
      // The header line goes out in chunks (its padding is long): gather it.
      let header = ''
      for (const chunk of textTable(result, { from: 1500, to: 1502 })) {
        header += chunk
        if (header.includes('\n')) break
      }
      expect(header).to.match(/^wide +n\n/)
      // The same layout over 1,100 rows is refused (measured on one row: each is as wide).
      const layout = textLayout(result)
      for (const pause of measureRows(result, { from: 0, to: 1 }, layout)) void pause
      expect(() => checkTextSize(layout, 1100)).to.throw(/more than/)
    })
  })

  describe('times and dates that are not valid', () => {
    it('shows no clock for a negative time, a 60th second or minute, or a time past 23:59:59', () => {
      for (const type of ['hms24', 'hms12', 'hm24', 'hm12']) {
        for (const bad of [-5, 60, 6000, 240000, 1.5]) expect(CLOCK_TYPES[type](bad), `${type}(${bad})`).to.equal(null)
      }
      expect(CLOCK_TYPES.hms24(0)).to.equal('00:00:00')
      expect(CLOCK_TYPES.hms24(235959)).to.equal('23:59:59')
    })

    it('shows no date for month 0 or 13, day 0 or 32, or zero', () => {
      for (const type of ['date', 'date4y']) {
        for (const bad of [20240015, 20241315, 20240100, 20240132, 0, -20240101]) expect(CLOCK_TYPES[type](bad), `${type}(${bad})`).to.equal(null)
      }
      expect(CLOCK_TYPES.date4y(20240101)).to.equal('01/01/2024')
      expect(CLOCK_TYPES.date(20241231)).to.equal('12/31/24')
    })
  })

  describe('display format settings', () => {
    it('takes width 1, the narrowest 1010data accepts, and refuses 0', () => {
      expect(displaySpec('width:1').width).to.equal(1)
      expect(displaySpec('width:0').width).to.equal(null)
    })

    it('reads a padto of several digits, with or without a sign', () => {
      expect(displaySpec('padwith:0;padto:12').padto).to.equal(12)
      expect(displaySpec('padwith:0;padto:-12').padto).to.equal(-12)
    })
  })
})
