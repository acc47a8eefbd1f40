/**
 * upload_table's input turned into what the storage layer writes: column specs and typed values.
 * Rows come as column-major JSON ({col: [values]}), as row arrays (in column order), as row
 * objects (keyed by column name) or as CSV text with a header line. Column types come from
 * `cols` when it gives them; otherwise each column's values decide (all whole numbers → int,
 * numbers → float, all dates → date, anything else → text). An empty value or null is N/A.
 */
import { AppError } from '../../shared/errors.js'
import { COLUMN_NAME, COLUMN_TYPES, NA_BIGINT, NA_INT, type ColumnSpec, type ColumnType } from '../../shared/table.js'
import type { ColumnValues, TableInput } from '../../engine/index.js'
import { readCsv } from '../../shared/csv/read.js'
import {
  BIG,
  columnTypeOf,
  DATE,
  dashedDate,
  FLOAT,
  INT,
  INT_MAX,
  KINDS,
  NA,
  plainDate,
  textKind,
  TYPE_WORDS,
  wholeKind,
  type Kind,
} from '../../shared/csv/infer.js'
import { typeTextColumn } from '../../shared/csv/cells.js'
import { isYmd } from '../../shared/ymd.js'

export interface UploadRequest {
  /** Column declarations: name, and optionally type, label, format, desc. */
  readonly cols?: readonly unknown[]
  readonly data?: unknown
  readonly csv?: string
}

/** A column as `cols` declares it; a missing type is inferred from the values. */
interface Declared {
  readonly name: string
  readonly type?: ColumnType
  readonly label?: string
  readonly format?: string
  readonly desc?: string
  readonly width?: number
  readonly fixed?: boolean
}

/** The upload before typing: named columns of raw cells. */
interface RawTable {
  readonly names: string[]
  readonly cells: unknown[][]
  /** How a message names row `r` (from 0): "row 3", or "row 3 (line 5 of the CSV)". */
  readonly rowLabel: (r: number) => string
  /** Where the names came from, for messages: "data", "the CSV header". */
  readonly source: string
  /** The parameter the rows came in; for 'csv' every cell is a string. */
  readonly param: 'data' | 'csv'
  /** True when the rows name their columns, so cols may declare columns the rows leave out. */
  readonly sparse: boolean
}

const invalid = (message: string, parameter: string): AppError => new AppError('INVALID_PARAMETER', message, { parameter })

const show = (v: unknown): string => {
  const text = JSON.stringify(v) ?? String(v)
  return text.length > 40 ? `${text.slice(0, 37)}...` : text
}

/**
 * The column specs and values of an upload. `appendTo` is the column list of the table being
 * appended to: rows given as arrays may then leave out `cols`, and values are read with the
 * table's types rather than guessed.
 */
export function uploadInput(req: UploadRequest, appendTo: readonly ColumnSpec[] | null = null): TableInput {
  const declared = req.cols === undefined ? undefined : parseCols(req.cols)
  if (declared)
    checkNames(
      declared.map((d) => d.name),
      '"cols"',
      'cols',
    )
  const positional = declared?.map((d) => d.name) ?? appendTo?.map((c) => c.name)
  const raw = readRaw(
    req,
    declared?.map((d) => d.name),
    positional,
  )
  checkNames(raw.names, raw.source, raw.param)
  const columns = declared
    ? bindToDeclared(raw, declared)
    : raw.names.map((name, i) => ({ name, cells: raw.cells[i], type: typeFromTable(name, appendTo, raw.names) }))
  if (columns.length === 0) {
    throw invalid('Empty table: the upload has no columns; declare them in "cols", or give data with at least one column.', declared ? 'cols' : 'data')
  }
  const specs: ColumnSpec[] = []
  const data: ColumnValues[] = []
  for (const c of columns) {
    if (raw.param === 'csv') {
      // CSV cells are text: the uploads' one inference types them, as it does every chunk's.
      const typed = typeTextColumn(c.cells as string[], c.type, (r, type) => wrongType(c.name, type, c.cells[r], raw, r))
      specs.push(specOf(c, typed.type))
      data.push(typed.values)
      continue
    }
    const type = c.type ?? inferType(c.name, c.cells, raw)
    specs.push(specOf(c, type))
    data.push(convertColumn(c.name, type, c.cells, raw))
  }
  return { columns: specs, data }
}

function specOf(c: Omit<Declared, 'type'>, type: ColumnType): ColumnSpec {
  return {
    name: c.name,
    type,
    ...(c.label !== undefined && { label: c.label }),
    ...(c.format !== undefined && { format: c.format }),
    ...(c.desc !== undefined && { desc: c.desc }),
    ...(c.width !== undefined && { width: c.width }),
    ...(c.fixed && { fixed: true }),
  }
}

/**
 * When appending without cols to a table whose column names the upload repeats exactly, read the
 * values with the table's types; otherwise guess (a mismatch is then reported by the append).
 */
function typeFromTable(name: string, appendTo: readonly ColumnSpec[] | null, names: readonly string[]): ColumnType | undefined {
  if (!appendTo || appendTo.length !== names.length) return undefined
  if (!appendTo.every((c, i) => c.name.toLowerCase() === names[i].toLowerCase())) return undefined
  return appendTo.find((c) => c.name.toLowerCase() === name.toLowerCase())?.type
}

// ---------------------------------------------------------------------------------------------
// cols

const COL_KEYS = ['name', 'type', 'label', 'format', 'desc', 'width', 'fixed']

/** The widest display width a column may declare: wider than any screen, small enough to be sane. */
const MAX_WIDTH = 1000

/**
 * The 1010data type letters `!cols` and get_table_cols report, read back as our types, so that
 * metadata read from the service can be sent back unchanged: i is an integer, or a date when its
 * format says `type:date` (dates are yyyymmdd integers there); j a 64-bit integer;
 * f a float; a text.
 */
function typeOfLetter(letter: string, format: string | undefined): ColumnType | undefined {
  switch (letter) {
    case 'i':
      return format !== undefined && /(^|;)\s*type\s*:\s*date\s*(;|$)/i.test(format) ? 'date' : 'int'
    case 'j':
      return 'bigint'
    case 'f':
      return 'float'
    case 'a':
      return 'text'
    default:
      return undefined
  }
}

/** A declared type: one of ours, or a 1010data letter; undefined when not given. */
function declaredType(o: Record<string, unknown>, where: string): ColumnType | undefined {
  if (o.type === undefined) return undefined
  if (COLUMN_TYPES.includes(o.type as ColumnType)) return o.type as ColumnType
  const fromLetter = typeof o.type === 'string' ? typeOfLetter(o.type, o.format as string | undefined) : undefined
  if (fromLetter) return fromLetter
  throw invalid(
    `${where} ("${o.name as string}") has the type ${show(o.type)}; use one of ${COLUMN_TYPES.join(', ')} (or the letters i, j, f, a that !cols reports), or leave it out to infer it from the values.`,
    'cols',
  )
}

/** The display width and pinning !cols reports: a whole number of characters, and 0/1 (or false/true). */
function layoutOf(o: Record<string, unknown>, where: string): { width?: number; fixed?: boolean } {
  const out: { width?: number; fixed?: boolean } = {}
  if (o.width !== undefined) {
    if (typeof o.width !== 'number' || !Number.isInteger(o.width) || o.width < 1 || o.width > MAX_WIDTH) {
      throw invalid(`${where} ("${o.name as string}") has the width ${show(o.width)}; give a whole number of characters from 1 to ${MAX_WIDTH}.`, 'cols')
    }
    out.width = o.width
  }
  if (o.fixed !== undefined) {
    if (o.fixed !== 0 && o.fixed !== 1 && typeof o.fixed !== 'boolean')
      throw invalid(`${where} ("${o.name as string}") has fixed ${show(o.fixed)}; give 0 or 1.`, 'cols')
    out.fixed = o.fixed === 1 || o.fixed === true
  }
  return out
}

function parseCols(cols: readonly unknown[]): Declared[] {
  return cols.map((c, i) => {
    const where = `"cols" item ${i + 1}`
    if (typeof c !== 'object' || c === null || Array.isArray(c))
      throw invalid(`${where} must be an object such as {"name": "qty", "type": "int"} (got ${show(c)}).`, 'cols')
    const o = c as Record<string, unknown>
    const unknown = Object.keys(o).find((k) => !COL_KEYS.includes(k))
    if (unknown !== undefined) throw invalid(`${where} has the unknown field "${unknown}"; a column takes ${COL_KEYS.join(', ')}.`, 'cols')
    if (typeof o.name !== 'string') throw invalid(`${where} needs a "name" (a string).`, 'cols')
    for (const k of ['label', 'format', 'desc'] as const) {
      if (o[k] !== undefined && typeof o[k] !== 'string') throw invalid(`${where} ("${o.name}") has a ${k} that is not a string.`, 'cols')
    }
    return {
      name: o.name,
      type: declaredType(o, where),
      label: o.label as string | undefined,
      format: o.format as string | undefined,
      desc: o.desc as string | undefined,
      ...layoutOf(o, where),
    }
  })
}

/** Valid and case-insensitively distinct column names. */
function checkNames(names: readonly string[], source: string, param: string): void {
  const seen = new Map<string, string>()
  names.forEach((name, i) => {
    if (!COLUMN_NAME.test(name)) {
      throw invalid(`Invalid column name ${show(name)} (column ${i + 1} of ${source}): use a letter followed by letters, digits or underscores.`, param)
    }
    const first = seen.get(name.toLowerCase())
    if (first !== undefined)
      throw invalid(`Duplicate column names: "${first}" and "${name}" in ${source} (names ignore case); give each column its own name.`, param)
    seen.set(name.toLowerCase(), name)
  })
}

/** The raw columns in the order `cols` declares, with the declared names and types. */
function bindToDeclared(raw: RawTable, declared: readonly Declared[]): (Declared & { cells: unknown[] })[] {
  const byName = new Map(raw.names.map((n, i) => [n.toLowerCase(), raw.cells[i]]))
  const extra = raw.names.find((n) => !declared.some((d) => d.name.toLowerCase() === n.toLowerCase()))
  if (extra !== undefined)
    throw invalid(`${cap(raw.source)} has a column "${extra}" that "cols" does not declare; declare it in "cols" or leave it out.`, 'cols')
  const rows = raw.cells[0]?.length ?? 0
  return declared.map((d) => {
    const cells = byName.get(d.name.toLowerCase())
    if (cells === undefined && !raw.sparse) throw invalid(`"cols" declares the column "${d.name}" but ${raw.source} has no values for it.`, 'cols')
    return { ...d, cells: cells ?? new Array<unknown>(rows).fill(null) }
  })
}

const cap = (s: string): string => s[0].toUpperCase() + s.slice(1)

// ---------------------------------------------------------------------------------------------
// the shapes rows arrive in

function readRaw(req: UploadRequest, declared: readonly string[] | undefined, positional: readonly string[] | undefined): RawTable {
  if (req.data !== undefined && req.csv !== undefined) throw invalid('Give the rows either as "data" or as "csv", not both.', 'csv')
  if (req.csv !== undefined) return fromCsv(req.csv)
  if (req.data === undefined) {
    throw new AppError(
      'MISSING_PARAMETER',
      'upload_table needs the rows: "data" (column-major {"col": [values]}, or an array of rows) or "csv" (text with a header line).',
      { parameter: 'data' },
    )
  }
  if (Array.isArray(req.data)) return fromRows(req.data, declared, positional)
  if (typeof req.data === 'object' && req.data !== null) return fromColumns(req.data as Record<string, unknown>)
  throw invalid(`"data" must be an object of columns ({"col": [values]}) or an array of rows (got ${show(req.data)}).`, 'data')
}

const rowLabel = (r: number): string => `row ${r + 1}`

function fromColumns(data: Record<string, unknown>): RawTable {
  const names = Object.keys(data)
  const cells = names.map((n) => {
    const values = data[n]
    if (!Array.isArray(values)) throw invalid(`Column "${n}" of "data" must be an array of values (got ${show(values)}).`, 'data')
    return values as unknown[]
  })
  cells.forEach((c, i) => {
    if (c.length !== cells[0].length) {
      throw invalid(
        `Too many values: column "${names[i]}" has ${c.length} values but column "${names[0]}" has ${cells[0].length}; give every column the same number of values (null for N/A).`,
        'data',
      )
    }
  })
  return { names, cells, rowLabel, source: '"data"', param: 'data', sparse: false }
}

/** Rows as arrays (in `positional` order) or objects (by name); a name a row leaves out is N/A. */
function fromRows(rows: readonly unknown[], declared: readonly string[] | undefined, positional: readonly string[] | undefined): RawTable {
  const names = [...(declared ?? [])]
  const index = new Map(names.map((n, i) => [n.toLowerCase(), i]))
  const cells: unknown[][] = names.map(() => [])
  const columnOf = (name: string, r: number): number => {
    let i = index.get(name.toLowerCase())
    if (i === undefined) {
      if (declared) throw invalid(`Row ${r + 1} of "data" has a value for "${name}", which "cols" does not declare.`, 'data')
      i = names.length
      names.push(name)
      index.set(name.toLowerCase(), i)
      cells.push(new Array<unknown>(r).fill(null))
    }
    return i
  }
  rows.forEach((row, r) => {
    for (const c of cells) c.push(null)
    if (Array.isArray(row)) {
      if (!positional) throw invalid('Rows given as arrays need "cols" to name their columns (or give rows as objects keyed by column name).', 'cols')
      if (row.length !== positional.length)
        throw rowLengthError(row.length, `row ${r + 1} of "data" has ${row.length} values for ${positional.length} columns`, positional.length, 'data')
      row.forEach((v, k) => (cells[columnOf(positional[k], r)][r] = v))
    } else if (typeof row === 'object' && row !== null) {
      for (const [k, v] of Object.entries(row)) cells[columnOf(k, r)][r] = v
    } else {
      throw invalid(`Row ${r + 1} of "data" must be an array of values or an object keyed by column name (got ${show(row)}).`, 'data')
    }
  })
  return { names, cells, rowLabel, source: '"data"', param: 'data', sparse: true }
}

function rowLengthError(got: number, what: string, want: number, parameter: string): AppError {
  return invalid(`${got > want ? 'Too many' : 'Too few'} values: ${what}; give one value per column (an empty value or null is N/A).`, parameter)
}

function fromCsv(text: string): RawTable {
  const { header, cells, lines } = readCsv(text)
  return { names: header, cells, rowLabel: (r) => `row ${r + 1} (line ${lines[r]} of the CSV)`, source: 'the CSV header', param: 'csv', sparse: false }
}

// ---------------------------------------------------------------------------------------------
// values

/** A JSON value's kind (shared/csv/infer.ts's for strings); null when it is no kind of table value (object, boolean…). */
function kindOf(v: unknown): Kind | null {
  if (v === null || v === undefined) return NA
  // A bigint comes from a Parquet or Arrow upload's 64-bit column (binary-tables.ts checked its range).
  if (typeof v === 'bigint') return v <= INT_MAX && v >= -INT_MAX ? INT : BIG
  if (typeof v === 'number') return Number.isInteger(v) ? (Math.abs(v) <= INT_MAX ? INT : wholeKind(v)) : Number.isFinite(v) ? FLOAT : null
  if (typeof v !== 'string') return null
  return textKind(v.trim())
}

/** The type a column's values suggest; a column with no values at all is text. */
function inferType(name: string, cells: readonly unknown[], raw: RawTable): ColumnType {
  const seen = new Array<boolean>(KINDS).fill(false)
  cells.forEach((v, r) => {
    const k = kindOf(v)
    if (k === null) throw wrongType(name, null, v, raw, r)
    seen[k] = true
  })
  return columnTypeOf(seen, () => cells.every((v) => CONVERT.date(v) !== undefined))
}

function wrongType(name: string, type: ColumnType | null, v: unknown, raw: RawTable, r: number): AppError {
  const want = type === null ? 'a number, text or null' : TYPE_WORDS[type]
  return invalid(
    `A value of the wrong type: column "${name}"${type ? ` (${type})` : ''} ${raw.rowLabel(r)} has ${show(v)}; give ${want}, or an empty value for N/A.`,
    raw.param,
  )
}

const CONVERT: Record<ColumnType, (v: unknown) => number | bigint | string | undefined> = {
  int(v) {
    const k = kindOf(v)
    return k === NA ? NA_INT : k === INT ? Number(typeof v === 'string' ? v.trim() : (v as number | bigint)) : undefined
  },
  bigint(v) {
    // A string keeps every digit; a JSON number is exact only within ±2^53 (wholeKind).
    const k = kindOf(v)
    return k === NA ? NA_BIGINT : k === INT || k === BIG ? BigInt(typeof v === 'string' ? v.trim() : (v as number | bigint)) : undefined
  },
  float(v) {
    const k = kindOf(v)
    return k === NA ? NaN : k === INT || k === FLOAT || k === BIG ? Number(typeof v === 'string' ? v.trim() : (v as number | bigint)) : undefined
  },
  date(v) {
    const k = kindOf(v)
    if (k === NA) return NA_INT
    if (typeof v === 'string') return k === DATE ? dashedDate(v.trim()) : plainDate(v.trim()) ? Number(v.trim()) : undefined
    return typeof v === 'number' && isYmd(v) ? v : undefined
  },
  text(v) {
    if (v === null || v === undefined) return ''
    if (typeof v === 'string') return v
    if (typeof v === 'bigint') return v.toString()
    return typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined
  },
}

function convertColumn(name: string, type: ColumnType, cells: readonly unknown[], raw: RawTable): ColumnValues {
  const convert = CONVERT[type]
  const out =
    type === 'text'
      ? new Array<string>(cells.length)
      : type === 'float'
        ? new Float64Array(cells.length)
        : type === 'bigint'
          ? new BigInt64Array(cells.length)
          : new Int32Array(cells.length)
  for (let r = 0; r < cells.length; r++) {
    const x = convert(cells[r])
    if (x === undefined) throw wrongType(name, type, cells[r], raw, r)
    out[r] = x as never
  }
  return out
}
