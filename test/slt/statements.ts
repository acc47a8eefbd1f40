/**
 * Reading the statements of a sqllogictest script into what tabula can do with them. Tabula has
 * no CREATE TABLE or INSERT: the runner keeps each table's rows itself and uploads them
 * (test/slt/database.ts). This file only reads the text: which kind of statement it is, a table's
 * columns and their SQLite affinity, the rows of an INSERT.
 */
import { isOp, isSignificant, keywordOf, tokenize, type Token } from '../../engine/sql/tokenize.js'

/** SQLite's column affinity, from the declared type's name (SQLite's rules, in order). */
export type Affinity = 'integer' | 'text' | 'none' | 'real' | 'numeric'

export interface ColumnDef {
  readonly name: string
  readonly affinity: Affinity
}

/** A value of an INSERT: a literal as read, or an expression to evaluate. */
export type Literal = { readonly kind: 'value'; readonly value: SqlValue; readonly real?: boolean } | { readonly kind: 'expr'; readonly text: string }

/** A value as the runner keeps it: integers past 2^53 as bigint. */
export type SqlValue = number | bigint | string | null

export type Statement =
  | { readonly kind: 'create-table'; readonly name: string; readonly columns: readonly ColumnDef[]; readonly ifNotExists: boolean }
  | { readonly kind: 'insert-values'; readonly table: string; readonly columns: readonly string[] | undefined; readonly rows: readonly (readonly Literal[])[] }
  | { readonly kind: 'insert-select'; readonly table: string; readonly columns: readonly string[] | undefined; readonly select: string }
  | { readonly kind: 'delete'; readonly table: string; readonly where: string | undefined }
  | { readonly kind: 'create-view'; readonly name: string; readonly select: string; readonly ifNotExists: boolean }
  | { readonly kind: 'drop'; readonly what: 'table' | 'view' | 'index' | 'trigger'; readonly name: string; readonly ifExists: boolean }
  | { readonly kind: 'no-op'; readonly what: string }
  | { readonly kind: 'select'; readonly sql: string }
  /** Something tabula cannot do; `table` is the table it would change, if any. */
  | { readonly kind: 'unsupported'; readonly reason: string; readonly table?: string }

export function affinityOf(declared: string): Affinity {
  const t = declared.toUpperCase()
  if (t.includes('INT')) return 'integer'
  if (t.includes('CHAR') || t.includes('CLOB') || t.includes('TEXT')) return 'text'
  if (t === '' || t.includes('BLOB')) return 'none'
  if (t.includes('REAL') || t.includes('FLOA') || t.includes('DOUB')) return 'real'
  return 'numeric'
}

/** A cursor over the significant tokens of one statement. */
class Words {
  private at = 0
  constructor(
    readonly sql: string,
    private readonly tokens: readonly Token[],
  ) {}
  static of(sql: string): Words {
    return new Words(sql, tokenize(sql).filter(isSignificant))
  }
  peek(ahead = 0): Token | undefined {
    return this.tokens[this.at + ahead]
  }
  keyword(ahead = 0): string | undefined {
    return keywordOf(this.peek(ahead))
  }
  next(): Token | undefined {
    return this.tokens[this.at++]
  }
  /** Takes the keywords given, in order, if they come next. */
  accept(...words: string[]): boolean {
    if (!words.every((w, i) => this.keyword(i) === w)) return false
    this.at += words.length
    return true
  }
  acceptOp(op: string): boolean {
    if (!isOp(this.peek(), op)) return false
    this.at++
    return true
  }
  /** A name (bare or quoted), lower-cased as SQLite compares names. */
  name(): string {
    const t = this.next()
    if (t?.type !== 'ident') throw new Error(`expected a name at "${this.sql.slice(t?.start ?? this.sql.length, (t?.start ?? 0) + 30)}"`)
    return t.value.toLowerCase()
  }
  /** The text from the current token to the end. */
  rest(): string {
    const t = this.peek()
    return t ? this.sql.slice(t.start) : ''
  }
  done(): boolean {
    return this.at >= this.tokens.length || (isOp(this.peek(), ';') && this.at === this.tokens.length - 1)
  }
  /** The tokens up to the `)` closing the current level, split at its top-level commas; takes the `)`. */
  listUntilClose(): Token[][] {
    const items: Token[][] = [[]]
    let depth = 0
    for (;;) {
      const t = this.next()
      if (t === undefined) throw new Error('unclosed parenthesis')
      if (isOp(t, '(')) depth++
      if (isOp(t, ')')) {
        if (depth === 0) return items
        depth--
      }
      if (depth === 0 && isOp(t, ',')) items.push([])
      else items[items.length - 1].push(t)
    }
  }
}

/** Reads one statement; anything it does not know is `unsupported` with the reason. */
export function readStatement(sql: string): Statement {
  const w = Words.of(sql)
  const first = w.keyword()
  if (first === 'SELECT' || first === 'VALUES' || first === 'WITH') return { kind: 'select', sql }
  if (w.accept('CREATE')) {
    const temp = w.accept('TEMP') || w.accept('TEMPORARY')
    if (w.accept('TABLE')) return readCreateTable(w, temp)
    if (w.accept('VIEW')) return readCreateView(w)
    if (w.accept('INDEX') || w.accept('UNIQUE', 'INDEX')) return { kind: 'no-op', what: 'CREATE INDEX' }
    if (w.accept('TRIGGER')) return { kind: 'unsupported', reason: 'CREATE TRIGGER', table: triggerTable(w) }
    return { kind: 'unsupported', reason: `CREATE ${w.keyword() ?? ''}`.trim() }
  }
  if (w.accept('DROP')) {
    const what = w.keyword()?.toLowerCase()
    if (what !== 'table' && what !== 'view' && what !== 'index' && what !== 'trigger') return { kind: 'unsupported', reason: `DROP ${what ?? ''}` }
    w.next()
    const ifExists = w.accept('IF', 'EXISTS')
    return { kind: 'drop', what, name: w.name(), ifExists }
  }
  if (w.accept('REINDEX')) return { kind: 'no-op', what: 'REINDEX' }
  if (w.accept('INSERT', 'INTO')) return readInsert(w)
  if (w.accept('DELETE', 'FROM')) {
    const table = w.name()
    if (w.done()) return { kind: 'delete', table, where: undefined }
    if (!w.accept('WHERE')) return { kind: 'unsupported', reason: 'DELETE with more than WHERE', table }
    return { kind: 'delete', table, where: w.rest().replace(/;\s*$/, '') }
  }
  if (w.accept('INSERT', 'OR') || w.accept('REPLACE')) return { kind: 'unsupported', reason: 'INSERT OR … / REPLACE', table: tableAfterInto(w) }
  if (w.accept('UPDATE')) return { kind: 'unsupported', reason: 'UPDATE', table: w.peek()?.type === 'ident' ? w.name() : undefined }
  return { kind: 'unsupported', reason: `statement ${first ?? sql.slice(0, 20)}` }
}

const COLUMN_CONSTRAINTS = new Set(['PRIMARY', 'NOT', 'NULL', 'UNIQUE', 'CHECK', 'DEFAULT', 'COLLATE', 'REFERENCES', 'CONSTRAINT', 'GENERATED', 'AS'])
const TABLE_CONSTRAINTS = new Set(['PRIMARY', 'UNIQUE', 'CHECK', 'FOREIGN', 'CONSTRAINT'])

function readCreateTable(w: Words, temp: boolean): Statement {
  const ifNotExists = w.accept('IF', 'NOT', 'EXISTS')
  const name = w.name()
  if (!w.acceptOp('(')) return { kind: 'unsupported', reason: 'CREATE TABLE … AS SELECT' }
  const columns: ColumnDef[] = []
  for (const item of w.listUntilClose()) {
    const head = keywordOf(item[0])
    // keywordOf is undefined for a quoted name, so a column may be called "primary".
    if (item.length === 0 || (head !== undefined && TABLE_CONSTRAINTS.has(head))) continue
    const first = item[0]
    if (first.type !== 'ident') throw new Error(`cannot read the column definition "${item.map((t) => t.text).join(' ')}"`)
    const typeWords: string[] = []
    for (const t of item.slice(1)) {
      const k = keywordOf(t)
      if (k !== undefined && COLUMN_CONSTRAINTS.has(k)) break
      typeWords.push(t.text)
    }
    columns.push({ name: first.value.toLowerCase(), affinity: affinityOf(typeWords.join(' ')) })
  }
  // A TEMP table is a table like another here: the runner has one connection.
  void temp
  return { kind: 'create-table', name, columns, ifNotExists }
}

function readCreateView(w: Words): Statement {
  const ifNotExists = w.accept('IF', 'NOT', 'EXISTS')
  const name = w.name()
  if (isOp(w.peek(), '(')) return { kind: 'unsupported', reason: 'CREATE VIEW with a column list' }
  if (!w.accept('AS')) return { kind: 'unsupported', reason: 'CREATE VIEW without AS' }
  return { kind: 'create-view', name, select: w.rest().replace(/;\s*$/, ''), ifNotExists }
}

function triggerTable(w: Words): string | undefined {
  for (let t = w.next(); t !== undefined; t = w.next()) if (keywordOf(t) === 'ON') return w.name()
  return undefined
}

function tableAfterInto(w: Words): string | undefined {
  for (let t = w.next(); t !== undefined; t = w.next()) if (keywordOf(t) === 'INTO') return w.name()
  return undefined
}

function readInsert(w: Words): Statement {
  const table = w.name()
  let columns: string[] | undefined
  if (w.acceptOp('(')) {
    columns = w.listUntilClose().map((item) => {
      if (item.length !== 1 || item[0].type !== 'ident') throw new Error('cannot read the INSERT column list')
      return item[0].value.toLowerCase()
    })
  }
  const k = w.keyword()
  if (k === 'SELECT' || k === 'WITH') return { kind: 'insert-select', table, columns, select: w.rest().replace(/;\s*$/, '') }
  if (!w.accept('VALUES')) return { kind: 'unsupported', reason: 'INSERT without VALUES or SELECT', table }
  const rows: Literal[][] = []
  do {
    if (!w.acceptOp('(')) throw new Error('expected ( after VALUES')
    rows.push(w.listUntilClose().map((item) => literalOf(item, w.sql)))
  } while (w.acceptOp(','))
  return { kind: 'insert-values', table, columns, rows }
}

/** A literal value (a number with its sign, a quoted text, NULL), or the expression's text. */
function literalOf(item: readonly Token[], sql: string): Literal {
  const text = item.length === 0 ? '' : sql.slice(item[0].start, item[item.length - 1].end)
  const expr: Literal = { kind: 'expr', text }
  let sign = 1
  let at = 0
  if (item.length === 2 && (isOp(item[0], '-') || isOp(item[0], '+'))) {
    sign = isOp(item[0], '-') ? -1 : 1
    at = 1
  }
  if (item.length !== at + 1) return expr
  const t = item[at]
  if (t.type === 'number') {
    const n = numberOf(t.text)
    if (n === undefined) return expr
    return { kind: 'value', value: sign === 1 ? n : -n, real: !/^\d+$/.test(t.text) }
  }
  if (at === 0 && t.type === 'string') return { kind: 'value', value: t.text.slice(1, -1).replace(/''/g, "'") }
  if (at === 0 && keywordOf(t) === 'NULL') return { kind: 'value', value: null }
  return expr
}

/** A number token: an integer (bigint past 2^53) or a real; undefined for hex and the like. */
function numberOf(text: string): number | bigint | undefined {
  if (/^\d+$/.test(text)) {
    const big = BigInt(text)
    return big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big
  }
  if (/^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) return Number(text)
  return undefined
}
