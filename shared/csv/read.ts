/**
 * The one CSV reader of uploads (upload_table's `csv` and every upload_chunk): RFC 4180 with two
 * liberties real files need. Fields are separated by commas, records end with CRLF, LF or a lone
 * CR; a field in double quotes may hold commas, line breaks and doubled quotes (`""` = `"`).
 * Spaces belong to the field. An empty line is skipped rather than read as a one-field record,
 * and a quote inside an unquoted field (`5" pipe`) is kept as a character.
 *
 * The first record names the columns; the others must have one value per column. The answer is
 * column-major, as the typing (cells.ts) and the storage want it, built in one scan of the text
 * over character codes that also tells most cells' kinds and numbers (cells.ts), so a column of
 * numbers is read without a string per cell: this loop is most of the time of a large upload.
 */
import { AppError } from '../errors.js'
import { CellColumn } from './cells.js'
import { closingQuote, COMMA, CR, LF, lineBreaks, QUOTE, unquotedEnd } from './grammar.js'

export interface CsvColumns {
  /** The header's names, trimmed. */
  readonly header: string[]
  /** Each column's cells in header order, as written (not trimmed). */
  readonly cells: string[][]
  /** The line of the text (from 1) on which each row starts; quoted line breaks make it differ from its index. */
  readonly lines: number[]
}

/** The header and the columns as the scan leaves them (cells.ts): numbers without strings. */
export interface CsvCellColumns {
  readonly header: string[]
  readonly columns: CellColumn[]
  /** As CsvColumns.lines. */
  readonly lines: Int32Array
}

const badCsv = (message: string): AppError => new AppError('INVALID_PARAMETER', `The CSV text is not valid: ${message}`, { parameter: 'csv' })

/** The header and the columns of `text`, every cell a string. Throws as readCsvColumns does. */
export function readCsv(text: string): CsvColumns {
  const { header, columns, lines } = readCsvColumns(text)
  return { header, cells: columns.map((c) => c.strings()), lines: Array.from(lines) }
}

/** The header and the columns of `text`. Throws INVALID_PARAMETER naming the line of a malformed record. */
export function readCsvColumns(text: string): CsvCellColumns {
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const n = s.length
  let header: string[] | null = null
  let columns: CellColumn[] = []
  let lines = new Int32Array(1024)
  let rows = 0
  let line = 1
  let i = 0
  // Fields of the current record so far; the header's are kept as strings.
  let fields = 0
  const headerFields: string[] = []
  // True once the current record has anything in it, so an empty line yields no record.
  let started = false
  let recordLine = 1
  const fieldCountError = (): AppError =>
    new AppError(
      'INVALID_PARAMETER',
      `${fields > header!.length ? 'Too many' : 'Too few'} values: line ${recordLine} of the CSV has ${fields} values but the header names ${header!.length} columns; give one value per column (an empty value is N/A).`,
      { parameter: 'csv' },
    )
  const end = (): void => {
    if (started) {
      if (header === null) {
        header = headerFields.slice(0, fields)
        // Records about as long as the header's, give or take half: rarely a copy to grow.
        const expected = Math.ceil((1.5 * (n - i)) / (i - recordStart + 1)) + 16
        columns = header.map(() => new CellColumn(s, expected))
      } else {
        if (fields !== header.length) throw fieldCountError()
        if (rows === lines.length) {
          const more = new Int32Array(rows * 2)
          more.set(lines)
          lines = more
        }
        lines[rows++] = recordLine
      }
    }
    fields = 0
    started = false
  }
  // A field of the current record: kept (header), put in its column, or counted past the header's.
  const range = (a: number, b: number): void => {
    if (header === null) headerFields[fields] = s.slice(a, b)
    else if (fields < header.length) columns[fields].pushRange(a, b)
    fields++
  }
  const string = (v: string): void => {
    if (header === null) headerFields[fields] = v
    else if (fields < header.length) columns[fields].pushString(v)
    fields++
  }
  let recordStart = 0
  while (i < n) {
    if (!started) {
      recordLine = line
      recordStart = i
    }
    let c = s.charCodeAt(i)
    if (c === CR || c === LF) {
      end()
      i += c === CR && s.charCodeAt(i + 1) === LF ? 2 : 1
      line++
      continue
    }
    started = true
    if (c === QUOTE) {
      const close = closingQuote(s, i + 1)
      if (close < 0) throw badCsv(`the quoted field that starts on line ${line} has no closing quote.`)
      const raw = s.slice(i + 1, close)
      line += lineBreaks(raw)
      i = close + 1
      c = s.charCodeAt(i)
      if (i < n && c !== COMMA && c !== CR && c !== LF) {
        throw badCsv(
          `line ${line}: a closing quote must end the field, but ${JSON.stringify(s[i])} follows it; double a quote ("") to put it inside the field.`,
        )
      }
      string(raw.includes('""') ? raw.replaceAll('""', '"') : raw)
    } else {
      const j = unquotedEnd(s, i)
      range(i, j)
      i = j
    }
    if (s.charCodeAt(i) === COMMA) {
      i++
      // A comma at the very end of a record still ends with an (empty) field.
      if (i === n || s.charCodeAt(i) === CR || s.charCodeAt(i) === LF) range(i, i)
    }
  }
  end()
  if (header === null) throw badCsv('it is empty; the first line must name the columns, such as "name,qty,price".')
  return { header: (header as string[]).map((h) => h.trim()), columns, lines: lines.subarray(0, rows) }
}
