/**
 * The database a sqllogictest script builds, as tabula can hold it. Tabula makes tables by
 * uploading them, so the runner keeps each table's rows here and uploads a table (`upload_table`,
 * mode replace) before the first query that reads it after it changed: a run of INSERTs becomes
 * one upload. INSERT … SELECT and DELETE … WHERE are computed by tabula itself (api/sql) and the
 * resulting rows uploaded; views are kept as their SELECT and read inline (test/slt/names.ts).
 * What tabula cannot express (UPDATE, REPLACE, triggers …) leaves the table it changes unknown,
 * and queries reading that table are skipped with the reason.
 */
import type { Gateway } from './gateway.js'
import { sqliteNumberText } from './answers.js'
import { rewriteNames } from './names.js'
import type { ColumnDef, Literal, SqlValue, Statement } from './statements.js'

interface Table {
  readonly columns: readonly ColumnDef[]
  rows: SqlValue[][]
  /** Per column: some value was written as a real literal (`1.0`), which SQLite keeps a real. */
  readonly realLiterals: boolean[]
  /** Changed since its last upload. */
  dirty: boolean
  /** Why queries on it cannot be answered here (skipped). */
  unknown?: string
  /** Tabula's refusal of its last upload (queries on it are refusals). */
  refused?: string
  /** Tabula refused to compute some of its rows: queries on it are that refusal from then on. */
  rowsRefused?: string
}

export type StatementOutcome = { readonly kind: 'applied' } | { readonly kind: 'skipped'; readonly reason: string }

export type PreparedQuery =
  | { readonly kind: 'ready'; readonly sql: string }
  | { readonly kind: 'skipped'; readonly reason: string }
  | { readonly kind: 'refused'; readonly message: string }

const INT32_MIN = -(2 ** 31)
const INT32_MAX = 2 ** 31 - 1

export class SltDatabase {
  private readonly tables = new Map<string, Table>()
  private readonly views = new Map<string, string>()

  /** `folder`: the dotted folder the tables are uploaded into (it must exist). */
  constructor(
    private readonly gateway: Gateway,
    private readonly folder: string,
  ) {}

  async apply(st: Statement): Promise<StatementOutcome> {
    switch (st.kind) {
      case 'create-table':
        if (this.tables.has(st.name) && st.ifNotExists) return APPLIED
        this.tables.set(st.name, { columns: st.columns, rows: [], realLiterals: st.columns.map(() => false), dirty: true })
        return APPLIED
      case 'create-view':
        if (this.views.has(st.name) && st.ifNotExists) return APPLIED
        this.views.set(st.name, st.select)
        return APPLIED
      case 'drop':
        if (st.what === 'table') this.tables.delete(st.name)
        if (st.what === 'view') this.views.delete(st.name)
        return APPLIED
      case 'no-op':
        return APPLIED
      case 'insert-values':
        return this.insertValues(st.table, st.columns, st.rows)
      case 'insert-select':
        return this.insertSelect(st.table, st.columns, st.select)
      case 'delete':
        return this.delete(st.table, st.where)
      case 'select': {
        const prepared = await this.prepareQuery(st.sql)
        if (prepared.kind !== 'ready') return { kind: 'skipped', reason: prepared.kind === 'skipped' ? prepared.reason : prepared.message }
        const answer = await this.gateway.sql(prepared.sql)
        return answer.status === 200 ? APPLIED : { kind: 'skipped', reason: `SELECT statement answered ${answer.status}: ${answer.message}` }
      }
      case 'unsupported': {
        const table = st.table === undefined ? undefined : this.tables.get(st.table)
        if (table) table.unknown = `its rows were changed by ${st.reason}, which the runner cannot express`
        return { kind: 'skipped', reason: st.reason }
      }
    }
  }

  /** A query's text for tabula, its tables uploaded; or why it cannot run. */
  async prepareQuery(sql: string): Promise<PreparedQuery> {
    const rewritten = rewriteNames(sql, {
      tablePath: (name) => (this.tables.has(name) ? `${this.folder}.${name}` : undefined),
      viewSelect: (name) => this.views.get(name),
    })
    for (const name of rewritten.tables) {
      const table = this.tables.get(name)!
      if (table.unknown) return { kind: 'skipped', reason: `table ${name}: ${table.unknown}` }
      if (table.rowsRefused) return { kind: 'refused', message: table.rowsRefused }
      if (table.dirty) await this.upload(name, table)
      if (table.refused) return { kind: 'refused', message: table.refused }
    }
    return { kind: 'ready', sql: rewritten.sql }
  }

  private async insertValues(name: string, columns: readonly string[] | undefined, rows: readonly (readonly Literal[])[]): Promise<StatementOutcome> {
    const table = this.tables.get(name)
    if (!table) return { kind: 'skipped', reason: `INSERT into ${name}, which is not a table here` }
    for (const row of rows) {
      const values: SqlValue[] = []
      const exprs = row.filter((v) => v.kind === 'expr')
      let computed: readonly SqlValue[] = []
      if (exprs.length > 0) {
        const answer = await this.gateway.sql(`SELECT ${exprs.map((e) => e.text).join(', ')}`)
        if (answer.status !== 200) return this.lose(table, `an INSERT value could not be computed: ${answer.message}`, answer.status < 500)
        computed = answer.rows[0].map(cellValue)
      }
      let next = 0
      for (const v of row) values.push(v.kind === 'value' ? v.value : computed[next++])
      const real = row.map((v) => v.kind === 'value' && v.real === true)
      const placed = this.place(table, columns, values, real)
      if (typeof placed === 'string') return this.lose(table, placed)
    }
    table.dirty = true
    return APPLIED
  }

  private async insertSelect(name: string, columns: readonly string[] | undefined, select: string): Promise<StatementOutcome> {
    const table = this.tables.get(name)
    if (!table) return { kind: 'skipped', reason: `INSERT into ${name}, which is not a table here` }
    const prepared = await this.prepareQuery(select)
    if (prepared.kind !== 'ready') return this.lose(table, `INSERT … SELECT reads a table that cannot be read here`)
    const answer = await this.gateway.sql(prepared.sql)
    if (answer.status !== 200) return this.lose(table, `INSERT … SELECT answered ${answer.status}: ${answer.message}`, answer.status < 500)
    for (const row of answer.rows) {
      const placed = this.place(
        table,
        columns,
        row.map(cellValue),
        row.map(() => false),
      )
      if (typeof placed === 'string') return this.lose(table, placed)
    }
    table.dirty = true
    return APPLIED
  }

  /** DELETE: the rows that stay are the ones tabula says the condition is not true for. */
  private async delete(name: string, where: string | undefined): Promise<StatementOutcome> {
    const table = this.tables.get(name)
    if (!table) return { kind: 'skipped', reason: `DELETE from ${name}, which is not a table here` }
    if (where === undefined) {
      table.rows = []
      table.dirty = true
      return APPLIED
    }
    const prepared = await this.prepareQuery(`SELECT * FROM ${name} WHERE CASE WHEN (${where}) THEN 0 ELSE 1 END`)
    if (prepared.kind !== 'ready') return { kind: 'skipped', reason: prepared.kind === 'skipped' ? prepared.reason : prepared.message }
    const answer = await this.gateway.sql(prepared.sql)
    if (answer.status !== 200) return this.lose(table, `DELETE's WHERE answered ${answer.status}: ${answer.message}`, answer.status < 500)
    table.rows = answer.rows.map((r) => r.map(cellValue))
    table.dirty = true
    return APPLIED
  }

  /** Adds one row with SQLite's type affinity applied; a message when it cannot. */
  private place(table: Table, columns: readonly string[] | undefined, values: readonly SqlValue[], real: readonly boolean[]): string | undefined {
    const names = columns ?? table.columns.map((c) => c.name)
    if (names.length !== values.length) return `INSERT of ${values.length} values into ${names.length} columns`
    const row: SqlValue[] = table.columns.map(() => null)
    for (let i = 0; i < names.length; i++) {
      const at = table.columns.findIndex((c) => c.name === names[i])
      if (at < 0) return `INSERT into an unknown column ${names[i]}`
      row[at] = withAffinity(values[i], table.columns[at].affinity)
      if (real[i] && typeof row[at] === 'number') table.realLiterals[at] = true
    }
    table.rows.push(row)
    return undefined
  }

  /**
   * The table's rows are no longer known. When tabula refused (4xx) to compute them, queries on
   * the table are that refusal, so a limit behind it is counted as one; otherwise they are skipped.
   */
  private lose(table: Table, why: string, refused = false): StatementOutcome {
    if (refused) table.rowsRefused = why
    else table.unknown = why
    return { kind: 'skipped', reason: why }
  }

  private async upload(name: string, table: Table): Promise<void> {
    table.dirty = false
    table.refused = undefined
    const cols: { name: string; type: string }[] = []
    for (let c = 0; c < table.columns.length; c++) {
      const type = uploadType(
        table.rows.map((r) => r[c]),
        table.columns[c].affinity,
        table.realLiterals[c],
      )
      if (type.startsWith('unknown:')) {
        table.unknown = `column ${table.columns[c].name} ${type.slice('unknown:'.length)}`
        return
      }
      cols.push({ name: table.columns[c].name, type })
    }
    const data = table.rows.map((row) => row.map((v, c) => (cols[c].type === 'text' && typeof v !== 'string' && v !== null ? textOf(v) : v)))
    const reply = await this.gateway.dbm('upload_table', { path: `${this.folder}.${name}`, mode: 'replace', cols, data })
    if (reply.rc !== 0) table.refused = `upload_table: ${reply.msg ?? 'refused'}`
  }
}

const APPLIED: StatementOutcome = { kind: 'applied' }

/** A cell of an answer as a value to store again: tabula's text N/A (`""`) is NULL. */
function cellValue(cell: unknown): SqlValue {
  if (cell === '' || cell === null || cell === undefined) return null
  if (typeof cell === 'boolean') return cell ? 1 : 0
  return cell as SqlValue
}

const NUMERIC_TEXT = /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/

/** SQLite's affinity applied to a value on its way into a column. */
function withAffinity(v: SqlValue, affinity: ColumnDef['affinity']): SqlValue {
  if (v === null) return null
  switch (affinity) {
    case 'text':
      return typeof v === 'string' ? v : textOf(v)
    case 'integer':
    case 'numeric':
    case 'real':
      if (typeof v === 'string' && NUMERIC_TEXT.test(v)) return Number(v)
      return v
    default:
      return v
  }
}

const textOf = (v: number | bigint): string => (typeof v === 'bigint' ? v.toString() : sqliteNumberText(v))

/**
 * The upload type of a column's values, or `unknown:<why>` when tabula cannot hold them as SQLite
 * does. A REAL column holds reals even when they are whole; INTEGER and NUMERIC ones turn a whole
 * real into an integer; a column without a type keeps a real literal real.
 */
function uploadType(values: readonly SqlValue[], affinity: ColumnDef['affinity'], realLiteral: boolean): string {
  let text = false
  let number = false
  let fractional = affinity === 'real' || (affinity === 'none' && realLiteral)
  let wide = false
  for (const v of values) {
    if (v === null) continue
    if (typeof v === 'string') {
      if (v === '') return "unknown:holds the empty text, which is tabula's N/A"
      text = true
    } else {
      number = true
      if (typeof v === 'bigint') wide = true
      else if (!Number.isInteger(v)) fractional = true
      else if (v < INT32_MIN || v > INT32_MAX) wide = true
    }
  }
  if (text && number) return 'unknown:holds both text and numbers'
  if (text) return 'text'
  if (!number) return affinity === 'text' ? 'text' : affinity === 'real' ? 'float' : 'int'
  if (fractional) return 'float'
  return wide ? 'j' : 'int'
}
