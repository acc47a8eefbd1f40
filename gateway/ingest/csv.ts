/**
 * RFC 4180 CSV: comma-separated fields, records ended by CRLF or LF (a lone CR too), fields in
 * double quotes may hold commas, line breaks and doubled quotes (`""` = one `"`). Spaces belong to
 * the field. Two liberties that real files need: an empty line is skipped rather than read as a
 * one-field record, and a quote inside an unquoted field (`5" pipe`) is kept as a character.
 */
import { AppError } from '../../shared/errors.js'

export interface CsvRecord {
  readonly fields: string[]
  /** Line of the text (from 1) on which the record starts; quoted line breaks make this differ from its index. */
  readonly line: number
}

const badCsv = (message: string): AppError => new AppError('INVALID_PARAMETER', `The CSV text is not valid: ${message}`, { parameter: 'csv' })

/** Every record of `text`, in order. Throws INVALID_PARAMETER naming the line of a malformed field. */
export function parseCsvRecords(text: string): CsvRecord[] {
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const records: CsvRecord[] = []
  let fields: string[] = []
  let line = 1
  let recordLine = 1
  let i = 0
  // True once the current record has anything in it, so an empty line yields no record.
  let started = false
  const endRecord = (): void => {
    if (started) records.push({ fields, line: recordLine })
    fields = []
    started = false
  }
  while (i < s.length) {
    if (!started) recordLine = line
    const c = s[i]
    if (c === '\r' || c === '\n') {
      endRecord()
      i += c === '\r' && s[i + 1] === '\n' ? 2 : 1
      line++
      continue
    }
    started = true
    if (c === '"') {
      const quoted = readQuoted(s, i, line)
      fields.push(quoted.value)
      i = quoted.end
      line += quoted.lineBreaks
    } else {
      let end = i
      while (end < s.length && s[end] !== ',' && s[end] !== '\r' && s[end] !== '\n') end++
      fields.push(s.slice(i, end))
      i = end
    }
    if (s[i] === ',') {
      i++
      // A comma at the very end of a record still ends with an (empty) field.
      if (i === s.length || s[i] === '\r' || s[i] === '\n') fields.push('')
    }
  }
  endRecord()
  return records
}

/** The quoted field starting at `start` (on its opening quote): its value and where it ends. */
function readQuoted(s: string, start: number, line: number): { value: string; end: number; lineBreaks: number } {
  let value = ''
  let lineBreaks = 0
  let i = start + 1
  for (;;) {
    const close = s.indexOf('"', i)
    if (close === -1) throw badCsv(`the quoted field that starts on line ${line} has no closing quote.`)
    value += s.slice(i, close)
    if (s[close + 1] === '"') {
      value += '"'
      i = close + 2
      continue
    }
    i = close + 1
    break
  }
  for (let k = start; k < i; k++) if (s[k] === '\n' || (s[k] === '\r' && s[k + 1] !== '\n')) lineBreaks++
  const after = s[i]
  if (after !== undefined && after !== ',' && after !== '\r' && after !== '\n') {
    throw badCsv(`line ${line + lineBreaks}: a closing quote must end the field, but ${JSON.stringify(after)} follows it; double a quote ("") to put it inside the field.`)
  }
  return { value, end: i, lineBreaks }
}

/** The fields of every record: the plain form of parseCsvRecords. */
export function parseCsv(text: string): string[][] {
  return parseCsvRecords(text).map((r) => r.fields)
}

export interface CsvTable {
  readonly header: string[]
  readonly rows: CsvRecord[]
}

/** A CSV text whose first record names the columns. Throws when there is no header line. */
export function readCsvTable(text: string): CsvTable {
  const [header, ...rows] = parseCsvRecords(text)
  if (header === undefined) throw badCsv('it is empty; the first line must name the columns, such as "name,qty,price".')
  return { header: header.fields, rows }
}
