/**
 * Random tables and random queries of the compiled SQL subset, for the differential tests: every
 * clause, operator and function the compiler takes, NULL in every column, ties, negative
 * numbers, -0, text whose case and LIKE wildcards matter, dates, big integers (type bigint,
 * tabula's j: 64-bit, past 2^31, 2^53 and up to ±(2^63 − 1)). Every ORDER BY ends with all result
 * columns, so the order of the rows is fixed and answers compare in order.
 *
 * The big-integer columns (jv in the first table, jk in the joined one) and every choice about
 * them come from a second random stream: the first draws exactly what it drew before they came,
 * so an old seed makes the same tables (plus those columns) and, in the queries that leave them
 * alone (about two in three: `BIG_SHARE`), the same queries. A query of them (`big`) reads jv
 * (jk) now and then where it would read an int column, and big literals where it would write a
 * small one.
 */
import { Rng } from '../../engine/columns/random.js'
import type { TableInput } from '../../shared/protocol.js'
import { NA_BIGINT, NA_INT, type ColumnType } from '../../shared/table.js'
import type { ColumnValues } from '../../engine/storage/types.js'
import { makeTable, type Cell } from './engine.js'

export const SQL_TABLE = 'pub.diff.t'
/** A second table to join: k (an int key, unique or, now and then, repeated), name, w. */
export const SQL_JOINED = 'pub.diff.u'

const TEXTS = ['a', 'b', 'B', 'ab', 'Zeta', 'b%c', 'x_y', 'é', 'apple', 'Apple', ' 12', '-3.5e1x', '  ab ', 'aXa']
/** Texts that order differently by UTF-16 code units (JavaScript) and by UTF-8 bytes (SQLite). */
const EXOTIC = ['😀', '\uff21', 'a😀', 'x😀y😀']
const DATES = [20240101, 20240215, 20231231, 20240301]

/** Big integers past 32 bits: ±2^31 and its neighbours (NA_INT, −2^31, among them), 2^32, 2^40. */
const WIDE: readonly bigint[] = [2147483647n, 2147483648n, -2147483648n, -2147483649n, 3000000000n, -3000000000n, 4294967296n, 1099511627776n]
/** Big integers near and past 2^53, where a double no longer holds every integer, up to ±(2^63 − 1). */
const HUGE: readonly bigint[] = [
  2n ** 53n - 1n,
  2n ** 53n,
  2n ** 53n + 1n,
  -(2n ** 53n - 1n),
  -(2n ** 53n + 1n),
  2n ** 60n + 3n,
  -(2n ** 60n + 3n),
  2n ** 62n,
  1234567890123456789n,
  -1000000000000000000n,
  2n ** 63n - 2n,
  2n ** 63n - 1n,
  -(2n ** 63n - 1n),
]
/**
 * Literals no j column holds: reals that round a big integer (2^53 + 1, 2^60 + 3), one past
 * 2^63 − 1 (a real to SQLite), −2^63 (an integer to SQLite, N/A to a j column).
 */
const BIG_LITERALS_ONLY = ['9007199254740993.0', '1152921504606846979.0', '9223372036854775808', '-9223372036854775808']
/** The share of queries that read the big-integer columns. */
const BIG_SHARE = 0.35
/** In such a query, the chance that an int column is read as jv (k as jk), and a small literal written big. */
const BIG_SWAP = 0.5
const BIG_LITERAL = 0.3

export class SqlQueries {
  private readonly rng: Rng
  /** While a join query is made: its expressions may read the joined table's columns too. */
  private joined = false
  /** While a comma join is made: the equalities WHERE must begin with. */
  private commaOn: string | null = null
  /** The stream of every choice about big integers (see the top): the first stream never draws for them. */
  private readonly jr: Rng
  /** While a query that reads the big-integer columns is made. */
  private big = false
  /** Whether the last query's first table was one row of constants (its jv a constant, not the column). */
  private constantFirst = false
  /** Whether the last query reads a big-integer column (jv, jk, or every column): set by query(). */
  readsBigints = false

  constructor(seed: number) {
    this.rng = new Rng(seed)
    this.jr = new Rng(seed ^ 0x6a6a6a6a)
  }

  /** The two tables: `table()` and a smaller one to join, keyed by k. */
  tables(): { input: TableInput; data: ColumnValues[] }[] {
    return [this.table(), this.joinedTable()]
  }

  private joinedTable(): { input: TableInput; data: ColumnValues[] } {
    const r = this.rng
    const rows = r.pick([0, 3, 10, 16])
    const keys = Array.from({ length: 18 }, (_, i) => i - 5)
      .sort(() => r.next() - 0.5)
      .slice(0, rows)
      .map((k): Cell => (r.chance(0.1) ? null : k))
    // Now and then a key repeats: a join then gives several rows where a link gives one.
    if (rows > 1 && r.chance(0.15)) keys[1] = keys[0]
    const defs: { name: string; type: ColumnType; values: Cell[] }[] = [
      { name: 'k', type: 'int', values: keys },
      { name: 'name', type: 'text', values: keys.map(() => (r.chance(0.1) ? null : r.pick(TEXTS))) },
      { name: 'w', type: 'float', values: keys.map(() => (r.chance(0.1) ? null : r.int(-4, 4) / 4)) },
      { name: 'jk', type: 'bigint', values: this.bigKeys(keys) },
    ]
    return { input: makeTable(SQL_JOINED, defs), data: columnValues(defs) }
  }

  /**
   * The joined table's big-integer key jk: half the time k itself (so it joins jv's small values
   * and int keys), else one of the big integers jv draws from (so j = j joins match past 2^31 and
   * 2^53), now and then NULL or repeated.
   */
  private bigKeys(keys: readonly Cell[]): Cell[] {
    const j = this.jr
    const out = keys.map((k): Cell => (j.chance(0.1) ? null : k !== null && j.chance(0.5) ? BigInt(k) : j.pick(j.chance(0.5) ? WIDE : HUGE)))
    if (out.length > 1 && j.chance(0.15)) out[1] = out[0]
    return out
  }

  /**
   * The first table's big-integer column jv, of one of three kinds per table: small values only
   * (as i's: sums stay exact), some past 2^31 too, or some near and past 2^53 up to ±(2^63 − 1) too
   * (sums overflow, which SQLite refuses).
   */
  private bigColumn(rows: number): Cell[] {
    const j = this.jr
    const kind = j.pick(['small', 'wide', 'huge', 'huge'])
    const value = (): bigint => {
      const u = j.next()
      if (kind === 'small' || u < 0.45) return BigInt(j.int(-5, 5))
      return kind === 'wide' || u < 0.65 ? j.pick(WIDE) : j.pick(HUGE)
    }
    return Array.from({ length: rows }, () => (j.chance(0.12) ? null : value()))
  }

  /** A big literal for a query: a value of jv's (small, past 2^31, past 2^53), or now and then one no j column holds. */
  private bigLiteral(): string {
    const j = this.jr
    const u = j.next()
    if (u < 0.2) return String(j.int(-5, 5))
    if (u < 0.45) return String(j.pick(WIDE))
    if (u < 0.9) return String(j.pick(HUGE))
    return j.pick(BIG_LITERALS_ONLY)
  }

  /** In a query of the big-integer columns, now and then a big literal for `small` (in parentheses when negative, where a minus may precede it). */
  private lit(small: string, parens = false): string {
    if (!this.big || !this.jr.chance(BIG_LITERAL)) return small
    const v = this.bigLiteral()
    return parens && v.startsWith('-') ? `(${v})` : v
  }

  /**
   * In a query of the big-integer columns, `expr` with now and then jv for the int columns i and
   * j it names (bare or qualified), jk for the key k.
   */
  private swap(expr: string): string {
    if (!this.big) return expr
    return expr.replace(/\b[ijk]\b/g, (c) => (this.jr.chance(BIG_SWAP) ? (c === 'k' ? 'jk' : 'jv') : c))
  }

  /** `make()`, made as a query of the big-integer columns only if `big` (and the query is one). */
  private bigOnlyIf<T>(big: boolean, make: () => T): T {
    const was = this.big
    this.big = was && big
    try {
      return make()
    } finally {
      this.big = was
    }
  }

  /** A table of 0 to 200 rows: i, j (int), f (float), s (text), d (date), each with NULLs, and jv (bigint, bigColumn). */
  table(): { input: TableInput; data: ColumnValues[] } {
    const r = this.rng
    const rows = r.pick([0, 1, 2, 7, 40, 200])
    const texts = r.chance(0.15) ? [...TEXTS, ...EXOTIC] : TEXTS
    const col = (na: number, value: () => Cell): Cell[] => Array.from({ length: rows }, () => (r.chance(na) ? null : value()))
    const defs: { name: string; type: ColumnType; values: Cell[] }[] = [
      { name: 'i', type: 'int', values: col(0.15, () => r.int(-5, 5)) },
      { name: 'j', type: 'int', values: col(0.1, () => r.int(0, 3)) },
      { name: 'f', type: 'float', values: col(0.15, () => (r.chance(0.05) ? -0 : r.int(-5, 5) / 2)) },
      { name: 's', type: 'text', values: col(0.15, () => r.pick(texts)) },
      { name: 'd', type: 'date', values: col(0.1, () => r.pick(DATES)) },
      { name: 'jv', type: 'bigint', values: this.bigColumn(rows) },
    ]
    return { input: makeTable(SQL_TABLE, defs), data: columnValues(defs) }
  }

  query(): string {
    const r = this.rng
    this.big = this.jr.chance(BIG_SHARE)
    const kind = r.pick(['plain', 'plain', 'grouped', 'grouped', 'aggregate', 'distinct', 'join', 'join', 'union', 'window', 'window'])
    this.constantFirst = false
    const made = ((): string => {
      if (kind === 'union') return this.union()
      const sql = kind === 'join' ? this.join() : kind === 'window' ? this.windowed() : this.single(kind)
      // Now and then the first table is read through a subquery or a WITH name giving the same columns.
      return r.chance(0.25) ? this.throughSubquery(sql) : sql
    })()
    this.readsBigints = this.constantFirst
      ? /\bjk\b/.test(made) || (/^SELECT (DISTINCT )?\*/.test(made) && made.includes(SQL_JOINED))
      : /\bj[vk]\b/.test(made) || made.includes(`SELECT * FROM ${SQL_TABLE}`)
    return made
  }

  /**
   * The query with its first table replaced by a query of it whose columns have the table's
   * names and types (i, j, f, s, d, and jv when the query reads it or all columns), as a subquery
   * in FROM or a WITH name: any query of the table reads it unchanged.
   */
  private throughSubquery(sql: string): string {
    const r = this.rng
    const from = `FROM ${SQL_TABLE}`
    const at = sql.indexOf(from)
    const after = sql.slice(at + from.length)
    const aliased = after.startsWith(' x ')
    const big = /\bjv\b|SELECT (DISTINCT )?\*/.test(sql)
    // Now and then one row of constants, a SELECT without FROM (one-row.ts), stands for the table.
    if (r.chance(0.15)) {
      this.constantFirst = true
      return `${sql.slice(0, at)}FROM (${this.constantRow(big)})${aliased ? '' : ' AS t'}${after}`
    }
    if (r.chance(0.3)) {
      const listed = r.chance(0.5)
      return `WITH t${listed ? `(i, j, f, s, d${big ? ', jv' : ''})` : ''} AS (${this.innerQuery(!listed, big)}) ${sql.slice(0, at)}FROM t${after}`
    }
    return `${sql.slice(0, at)}FROM (${this.innerQuery(true, big)})${aliased ? '' : ' AS t'}${after}`
  }

  /** One row of the first table's columns (jv too when `big`), as constants of their types: a SELECT without FROM. */
  private constantRow(big: boolean): string {
    const r = this.rng
    const real = (r.int(-5, 5) / 2).toFixed(1)
    const jv = big ? `, ${this.jr.chance(0.5) ? this.jr.int(-5, 5) : this.jr.pick([...WIDE, ...HUGE])} AS jv` : ''
    return `SELECT ${r.int(-5, 5)} AS i, ${r.int(0, 3)} AS j, ${real} AS f, '${r.pick(TEXTS)}' AS s, ${r.pick(DATES)} AS d${jv}`
  }

  /** A query of the first table whose columns are of its types (jv too when `big`), named as its columns when `named`. */
  private innerQuery(named: boolean, big: boolean): string {
    const r = this.rng
    const j = this.jr
    const as = (e: string, name: string): string => (named && e !== name ? `${e} AS ${name}` : e)
    const plain = (): string => {
      const exprs = [
        this.swap(r.pick(['i', 'i + 1', '-i', 'i % 3', 'abs(i)', 'j - i'])),
        this.swap(r.pick(['j', 'j * 2', 'j'])),
        r.pick(['f', 'f * 2', 'f + i', 'f - 0.5']),
        r.pick(['s', 'lower(s)', 'upper(s)', "coalesce(s, 'b')"]),
        'd',
        // jv + 1 and -jv past ±(2^63 − 1) become reals, as SQLite computes them.
        ...(big ? [j.pick(['jv', 'jv', 'jv', '-jv', 'abs(jv)', 'jv - i', 'jv / 3', 'jv % 1000', 'jv + 1'])] : []),
      ]
      const list = exprs.map((e, k) => as(e, ['i', 'j', 'f', 's', 'd', 'jv'][k])).join(', ')
      let q = `SELECT ${r.chance(0.15) ? 'DISTINCT ' : ''}${list} FROM ${SQL_TABLE}`
      if (r.chance(0.5)) q += ` WHERE ${this.cond(1)}`
      if (r.chance(0.2)) q += ` ORDER BY 1, 2, 3, 4, 5${big ? ', 6' : ''} LIMIT ${r.int(0, 30)}`
      return q
    }
    const form = r.pick(['plain', 'plain', 'grouped', 'union', 'nested'])
    if (form === 'grouped') {
      // jv a third key, or an aggregate of each group's.
      const jv = big ? j.pick(['key', 'max(jv)', 'min(jv)', 'count(jv)']) : null
      const jvItem = jv === null ? '' : jv === 'key' ? ', jv' : `, ${as(jv, 'jv')}`
      return `SELECT i, j, ${as('sum(f)', 'f')}, ${as('max(s)', 's')}, ${as('min(d)', 'd')}${jvItem} FROM ${SQL_TABLE} GROUP BY i, j${jv === 'key' ? ', jv' : ''}${r.chance(0.3) ? ' HAVING count(*) > 1' : ''}`
    }
    if (form === 'union') {
      const arm = plain().replace(/ ORDER BY .*$/, '')
      return `${arm} UNION ALL ${plain().replace(/ ORDER BY .*$/, '')}`
    }
    if (form === 'nested' && named) {
      const inner = plain()
      // Its WHERE reads the inner query's columns: jv only when they include it.
      return `SELECT * FROM (${inner})${r.chance(0.5) ? ` WHERE ${this.bigOnlyIf(big, () => this.cond(1))}` : ''}`
    }
    return plain()
  }

  /** SELECTs of the first table joined by UNION ALL, of one shape (numbers or text per column). */
  private union(): string {
    const r = this.rng
    const shape = this.list(1, 3, () => (r.chance(0.6) ? 'num' : 'text'))
    const arm = (): string => {
      // Now and then NULL written out, which takes the column's kind.
      const items = shape.map((k) => (r.chance(0.1) ? 'NULL' : k === 'num' ? this.num(1) : this.text(1)))
      // A name the ORDER BY may use, now and then.
      const list = items.map((e, c) => (c === 0 && r.chance(0.3) ? `${e} AS u0` : e)).join(', ')
      return `SELECT ${list} FROM ${SQL_TABLE}${r.chance(0.6) ? ` WHERE ${this.cond(1)}` : ''}`
    }
    const arms = this.list(2, 3, arm)
    let sql = arms.join(' UNION ALL ')
    if (r.chance(0.5)) {
      const terms = shape.map((_, c) => (c === 0 && arms[0].includes(' AS u0') && r.chance(0.5) ? 'u0' : String(c + 1)))
      sql += ` ORDER BY ${terms.map((t) => `${t}${r.pick(['', ' DESC'])}${r.pick(['', '', ' NULLS FIRST', ' NULLS LAST'])}`).join(', ')}`
      if (r.chance(0.4)) sql += ` LIMIT ${r.int(0, 12)}${r.chance(0.4) ? ` OFFSET ${r.int(0, 6)}` : ''}`
    }
    return sql
  }

  /** A query with window functions in its select list (of rows, or of groups). */
  private windowed(): string {
    const r = this.rng
    const grouped = r.chance(0.25)
    const keys = grouped ? [this.swap(r.pick(['j', 's', 'i % 3']))] : []
    const plainItems = grouped
      ? [...keys, this.swap(r.pick(['sum(i) AS v', 'count(*) AS v', 'max(f) AS v']))]
      : this.list(1, 2, () => (r.chance(0.6) ? this.num(1) : this.text(1)))
    const wins = this.list(1, 2, () => this.windowCall(grouped))
    const items = [...plainItems, ...wins.map((w) => (r.chance(0.3) ? `${w} AS w${r.int(0, 99)}` : w))]
    let sql = `SELECT ${items.join(', ')} FROM ${SQL_TABLE}`
    if (r.chance(0.4)) sql += ` WHERE ${this.cond(1)}`
    if (grouped) sql += ` GROUP BY ${keys.join(', ')}`
    return sql + this.orderAndLimit(items.length, false)
  }

  private windowCall(grouped: boolean): string {
    const r = this.rng
    const cols = (grouped ? ['v', 'sum(i)', 'count(*)'] : ['i', 'j', 'f', 's', 'd']).map((c) => this.swap(c))
    const numeric = grouped ? ['v', 'sum(i)'] : ['i', 'f', 'j', 'd', 'i * 2', 'f + i', 'coalesce(f, 0)', 'CASE WHEN i > 0 THEN f ELSE i END']
    const key = (): string => `${r.pick(cols)}${r.pick(['', ' DESC', ' ASC'])}${r.pick(['', '', '', ' NULLS FIRST', ' NULLS LAST'])}`
    const partition = grouped ? [] : r.pick([[], [], ['j'], ['s'], ['i % 2'], ['j', 's'], ['f']]).map((c) => this.swap(c))
    const over = (ordered: boolean, total: boolean): string => {
      const order = ordered ? [...this.list(1, 2, key), ...(total ? cols.filter(() => r.chance(0.8)) : [])] : []
      const parts = [...(partition.length > 0 ? [`PARTITION BY ${partition.join(', ')}`] : []), ...(order.length > 0 ? [`ORDER BY ${order.join(', ')}`] : [])]
      return `OVER (${parts.join(' ')})`
    }
    return r.pick([
      () => `row_number() ${over(true, true)}`,
      () => `rank() ${over(r.chance(0.8), false)}`,
      () => `count(*) ${over(r.chance(0.5), false)}`,
      () => `count(${r.pick(grouped ? ['v'] : ['i', 'f', 's'])}) ${over(r.chance(0.5), false)}`,
      () => `sum(${this.swap(r.pick(numeric))}) ${over(r.chance(0.6), false)}`,
      () => `avg(${this.swap(r.pick(numeric))}) ${over(r.chance(0.6), false)}`,
      () => {
        const [x, fallback] = r.pick(
          grouped
            ? [['v', '0']]
            : [
                ['i', '0'],
                ['f', '-1'],
                ['s', "'zz'"],
                ['d', '7'],
                ['f', '2'],
              ],
        )
        const xs = this.swap(x)
        const args = r.pick([xs, `${xs}, ${r.int(0, 2)}`, `${xs}, ${r.int(1, 3)}, ${xs === 'jv' ? this.lit(fallback) : fallback}`])
        return `${r.pick(['lag', 'lead'])}(${args}) ${over(true, true)}`
      },
    ])()
  }

  /** A query of the first table alone. */
  private single(kind: string): string {
    if (kind === 'grouped' || kind === 'aggregate') return this.grouped(kind === 'grouped')
    const items = this.list(1, 4, () => this.item(() => (this.rng.chance(0.6) ? this.num(2) : this.text(1))))
    const distinct = kind === 'distinct'
    let sql = `SELECT ${distinct ? 'DISTINCT ' : ''}${this.rng.chance(0.1) && !distinct ? '*' : items.join(', ')} FROM ${SQL_TABLE}`
    // Now and then WHERE tests a value the select list shows too (computed once, plan.ts withShared).
    const shown = items[0].replace(/ AS c[0-9]+$/, '')
    if (this.rng.chance(0.15) && !distinct)
      sql += this.where(
        `${shown} ${this.rng.pick(['>', '<=', 'IS NOT NULL AND', '='])} ${this.rng.pick(["'b'", '0', '1.5'])}`.replace(
          'IS NOT NULL AND',
          'IS NOT NULL AND i <>',
        ),
      )
    else sql += this.where(this.rng.chance(0.6) ? this.cond(2) : null)
    // SELECT * gives jv after the first table's columns and jk after the joined one's: ordered by them too, the two last.
    if (sql.includes('SELECT *')) return sql + this.orderAndLimit(this.joined ? 8 : 5, !distinct, this.joined ? 2 : 1)
    return sql + this.orderAndLimit(items.length, !distinct)
  }

  /** A join of the two tables (inner or left, on one key or two), then any of the other forms. */
  private join(): string {
    const r = this.rng
    this.joined = true
    try {
      const [a, b] = r.chance(0.5) ? ['t', 'u'] : ['x', 'y']
      const aliases = a === 'x' ? ' x' : ''
      // A key of the first table, now and then computed (a willbe before the link) or a constant.
      // In a query of big integers: jv = jk, jv = k, i = jk.
      const ours = this.swap(r.pick([`${a}.j`, `${a}.i`, `${a}.j`, `${a}.i + 1`, `${a}.j % 3`, `abs(${a}.i)`, '2']))
      const theirs = this.swap(`${b}.k`)
      const key = r.chance(0.5) ? `${ours} = ${theirs}` : `${theirs} = ${ours}`
      const on = `${key}${r.chance(0.15) ? ` AND ${b}.name = ${a}.s` : ''}`
      // Now and then the joined table is read through a subquery.
      const joined = r.chance(0.2)
        ? `(SELECT k, name, w, jk FROM ${SQL_JOINED}${r.chance(0.5) ? ` WHERE ${this.swap(r.pick(['w IS NOT NULL', 'k > -3']))}` : ''})`
        : SQL_JOINED
      const joinedAlias = a === 'x' ? ' y' : joined === SQL_JOINED ? '' : ' AS u'
      const how = r.pick(['JOIN', 'LEFT JOIN', 'INNER JOIN', 'LEFT OUTER JOIN', ','])
      // `FROM t, u WHERE <on> AND (…)`: the inner join written with a comma (comma-joins.ts).
      if (how === ',') this.commaOn = on
      const from = how === ',' ? `${SQL_TABLE}${aliases}, ${joined}${joinedAlias}` : `${SQL_TABLE}${aliases} ${how} ${joined}${joinedAlias} ON ${on}`
      const sql = this.single(r.pick(['plain', 'plain', 'grouped', 'aggregate', 'distinct']))
      // The joined subquery gives jk only to a query that reads it (or all columns).
      const readsJk = /\bjk\b|SELECT (DISTINCT )?\*/.test(sql) || /\bjk\b/.test(on)
      return sql.replace(`FROM ${SQL_TABLE}`, `FROM ${readsJk ? from : from.replace('SELECT k, name, w, jk FROM', 'SELECT k, name, w FROM')}`)
    } finally {
      this.joined = false
      this.commaOn = null
    }
  }

  /** ` WHERE cond`, with a comma join's equalities first; '' for none. */
  private where(cond: string | null): string {
    if (this.commaOn === null) return cond === null ? '' : ` WHERE ${cond}`
    return ` WHERE ${this.commaOn}${cond === null ? '' : ` AND (${cond})`}`
  }

  private grouped(byKeys: boolean): string {
    const r = this.rng
    const keys = byKeys ? this.list(1, 2, () => this.swap(r.pick(['i', 'j', 's', 'd', 'i % 3', 'lower(s)', 'f']))) : []
    // Now and then the keys alone: a GROUP BY without aggregates (issue 38).
    const aggs = keys.length > 0 && r.chance(0.15) ? [] : this.list(1, 3, () => this.aggregateExpr())
    const items = [...keys.map((k) => (r.chance(0.3) ? `${k} AS k${r.int(0, 9)}` : k)), ...aggs.map((a) => (r.chance(0.4) ? `${a} AS v${r.int(0, 99)}` : a))]
    const distinctItems = [...new Set(items)]
    let sql = `SELECT ${distinctItems.join(', ')} FROM ${SQL_TABLE}`
    sql += this.where(r.chance(0.5) ? this.cond(2) : null)
    if (keys.length > 0) sql += ` GROUP BY ${keys.map((k, i) => (r.chance(0.3) ? String(i + 1) : k)).join(', ')}`
    if (r.chance(0.3)) sql += ` HAVING ${this.aggregateExpr()} ${r.pick(['>', '<=', '='])} ${this.lit(String(r.int(0, 4)))}`
    // Without ORDER BY a grouped answer comes in SQLite's order of the keys; with, the order is total.
    return sql + (r.chance(0.5) ? this.orderAndLimit(distinctItems.length, false) : '')
  }

  private aggregateExpr(): string {
    const r = this.rng
    const numeric = () => this.swap(r.pick(['i', 'j', 'f', 'd', 'i * 2', 'f + i', 'length(s)']))
    const base = r.pick([
      () => 'count(*)',
      () => `count(${this.swap(r.pick(['i', 'f', 's', 'd']))})`,
      () => `count(DISTINCT ${this.swap(r.pick(['i', 'j', 's', 'f']))})`,
      () => `sum(${numeric()})`,
      () => `group_concat(${r.pick(['s', 'i', 'f', 'd', 'upper(s)', "s || '-'"])}${r.pick(['', '', ", ';'", ", ''", ', NULL'])})`,
      () => `total(${numeric()})`,
      () => `avg(${numeric()})`,
      () => `min(${this.swap(r.pick(['i', 'f', 's', 'd']))})`,
      () => `max(${this.swap(r.pick(['i', 'f', 's', 'd']))})`,
    ])()
    return r.chance(0.2) ? r.pick([`${base} + 1`, `${base} * 2`, this.swap(`sum(i) / count(*)`), `coalesce(${base}, ${this.lit('-1')})`]) : base
  }

  /**
   * ORDER BY some terms then every result column (so the order is total), maybe LIMIT/OFFSET.
   * `bigColumns` more columns (SELECT *'s jv and jk) end the list, their directions from the
   * big-integer stream.
   */
  private orderAndLimit(columns: number, expressions: boolean, bigColumns = 0): string {
    const r = this.rng
    let out = ''
    if (r.chance(0.5)) {
      const lead = this.list(0, 2, () => (expressions && r.chance(0.4) ? this.num(1) : String(r.int(1, columns))))
      const terms = [...lead, ...Array.from({ length: columns }, (_, i) => String(i + 1))].map(
        (t) => `${t}${r.pick(['', ' DESC', ' ASC'])}${r.pick(['', '', ' NULLS FIRST', ' NULLS LAST'])}`,
      )
      for (let c = columns + 1; c <= columns + bigColumns; c++)
        terms.push(`${c}${this.jr.pick(['', ' DESC'])}${this.jr.pick(['', ' NULLS FIRST', ' NULLS LAST'])}`)
      out += ` ORDER BY ${terms.join(', ')}`
      if (r.chance(0.5)) out += ` LIMIT ${r.int(0, 12)}${r.chance(0.4) ? ` OFFSET ${r.int(0, 6)}` : ''}`
    }
    return out
  }

  private item(expr: () => string): string {
    const e = expr()
    return this.rng.chance(0.3) ? `${e} AS c${this.rng.int(0, 99)}` : e
  }

  /**
   * `<column> [NOT] IN (…)`, now and then with an empty list, which SQLite answers without looking
   * at the left side (`NULL IN ()` is 0, `NULL NOT IN ()` 1; issue 38: the engine gave NULL), and
   * then sometimes with NULL itself on the left. A NULL beside a list that is not empty is left
   * out: the compiler leaves it to sql.js, so it would only make fewer queries compare.
   */
  private inCondition(column: string, item: () => string): string {
    const r = this.rng
    const not = r.chance(0.3) ? 'NOT ' : ''
    if (r.chance(0.15)) return `${r.chance(0.3) ? 'NULL' : this.swap(column)} ${not}IN ()`
    // In a query of big integers, jv now and then, and big items.
    return `${this.swap(column)} ${not}IN (${this.list(1, 3, () => (column === 's' ? item() : this.lit(item()))).join(', ')})`
  }

  private list(min: number, max: number, f: () => string): string[] {
    return Array.from({ length: this.rng.int(min, max) }, f)
  }

  /** A numeric expression of at most `depth` levels of operators. */
  num(depth: number): string {
    const r = this.rng
    if (depth <= 0 || r.chance(0.35)) {
      const leaf = r.pick([
        'i',
        'j',
        'f',
        'd',
        'i',
        'f',
        String(r.int(-3, 10)),
        r.pick(['0.5', '2.25', '1.5', '-1.5', '0']),
        ...(this.joined ? ['w', 'k', 'w'] : []),
      ])
      return /^-?[0-9]+$/.test(leaf) ? this.lit(leaf, true) : this.swap(leaf)
    }
    return r.pick([
      () => `${this.num(depth - 1)} ${r.pick(['+', '-', '*', '/', '%'])} ${this.num(depth - 1)}`,
      () => `(${this.num(depth - 1)} ${r.pick(['+', '-', '*', '/'])} ${this.num(depth - 1)})`,
      () => `-${this.num(0)}`,
      () => `abs(${this.num(depth - 1)})`,
      () => `CASE WHEN ${this.cond(depth - 1)} THEN ${this.num(depth - 1)} ${r.chance(0.7) ? `ELSE ${this.num(depth - 1)} ` : ''}END`,
      () => `CASE ${this.swap(r.pick(['i', 'j']))} WHEN ${this.lit(String(r.int(0, 3)))} THEN ${this.num(depth - 1)} ELSE ${this.num(depth - 1)} END`,
      () => `coalesce(${this.num(depth - 1)}, ${this.lit(String(r.int(-2, 2)))})`,
      () => `ifnull(${this.num(depth - 1)}, ${r.pick(['0.5', '7'])})`,
      () => `nullif(${this.num(depth - 1)}, ${this.lit(String(r.int(0, 2)))})`,
      () => `iif(${this.cond(depth - 1)}, ${this.num(depth - 1)}, ${this.num(depth - 1)})`,
      () => `length(${this.text(depth - 1)})`,
      () => `(${this.cond(depth - 1)})`,
      () => `round(${this.num(depth - 1)}${r.pick(['', ', 0', ', 1', ', 2', ', -1', ', j'])})`,
      () => `instr(${this.text(depth - 1)}, '${r.pick(['a', 'b', 'p', '😀', 'y'])}')`,
      () => `CAST(${r.chance(0.5) ? this.text(depth - 1) : this.num(depth - 1)} AS ${r.pick(['INTEGER', 'INT', 'REAL', 'NUMERIC', 'DOUBLE', 'DECIMAL(8,2)'])})`,
    ])()
  }

  text(depth: number): string {
    const r = this.rng
    if (depth <= 0 || r.chance(0.4)) {
      const leaf = r.chance(0.8) ? (this.joined && r.chance(0.4) ? 'name' : 's') : `'${r.pick(TEXTS)}'`
      // In a query of big integers, now and then jv's digits.
      return this.big && leaf === 's' && this.jr.chance(0.2) ? 'CAST(jv AS TEXT)' : leaf
    }
    return r.pick([
      () => `lower(${this.text(depth - 1)})`,
      () => `upper(${this.text(depth - 1)})`,
      () => `coalesce(s, '${r.pick(TEXTS)}')`,
      () => `CASE WHEN ${this.cond(depth - 1)} THEN '${r.pick(TEXTS)}' ELSE ${this.text(depth - 1)} END`,
      () => `nullif(s, '${r.pick(TEXTS)}')`,
      () => `iif(${this.cond(depth - 1)}, '${r.pick(TEXTS)}', ${this.text(depth - 1)})`,
      () => `CASE WHEN ${this.cond(depth - 1)} THEN ${this.text(depth - 1)} ELSE '' END`,
      () => `substr(${this.text(depth - 1)}, ${r.int(-4, 4)}${r.chance(0.6) ? `, ${r.int(-3, 3)}` : ''})`,
      () => `${r.pick(['trim', 'ltrim', 'rtrim'])}(${this.text(depth - 1)}${r.pick(['', ", 'a'", ", ' a'", ", 'x😀'"])})`,
      () => `replace(${this.text(depth - 1)}, '${r.pick(['a', 'b', 'ab', '😀'])}', '${r.pick(['-', 'Q', 'zz'])}')`,
      () => `(${this.text(depth - 1)} || ${r.chance(0.5) ? this.text(depth - 1) : this.num(0)})`,
      () => `CAST(${this.num(depth - 1)} AS ${r.pick(['TEXT', 'VARCHAR(5)'])})`,
    ])()
  }

  cond(depth: number): string {
    const r = this.rng
    const leaf = (): string =>
      r.pick([
        () => `${this.num(1)} ${r.pick(['=', '<>', '!=', '==', '<', '<=', '>', '>='])} ${this.num(1)}`,
        () => `${this.text(1)} ${r.pick(['=', '<>', '<', '>='])} '${r.pick(TEXTS)}'`,
        () => {
          // Mostly a column, as analysts write it (SearchPhrase <> ''); a function's text is left to sql.js.
          const t = r.chance(0.8) ? (this.joined && r.chance(0.4) ? 'name' : 's') : this.text(1)
          return r.chance(0.5) ? `${t} ${r.pick(['=', '<>', '!=', '<', '<=', '>', '>='])} ''` : `'' ${r.pick(['=', '<>', '<', '>'])} ${t}`
        },
        () => `${((x) => (x === 'i' ? this.swap(x) : x))(r.pick(['i', 'f', 's', 'd', this.num(1)]))} IS ${r.chance(0.5) ? 'NOT ' : ''}NULL`,
        () => `${this.num(1)} ${r.chance(0.3) ? 'NOT ' : ''}BETWEEN ${this.lit(String(r.int(-3, 1)))} AND ${this.lit(r.pick(['2', '3.5', '20240201']))}`,
        () => this.inCondition('i', () => String(r.int(-3, 3))),
        () => this.inCondition('s', () => `'${r.pick(TEXTS)}'`),
        () => `${this.text(1)} ${r.chance(0.3) ? 'NOT ' : ''}LIKE '${r.pick(['a%', '%b', '_', 'b\\%c', '%a%', 'A_%', 'é', 'x_y'])}'`,
        () => this.num(1),
        () => `${r.pick(['coalesce', 'ifnull'])}(${this.num(1)} ${r.pick(['>', '=', '<>'])} ${this.num(1)}, ${r.pick(['0', '1', '0.5', '-1'])})`,
      ])()
    if (depth <= 0 || r.chance(0.4)) return leaf()
    return r.pick([
      () => `${this.cond(depth - 1)} AND ${this.cond(depth - 1)}`,
      () => `${this.cond(depth - 1)} OR ${this.cond(depth - 1)}`,
      () => `(${this.cond(depth - 1)} OR ${this.cond(depth - 1)})`,
      () => `NOT (${this.cond(depth - 1)})`,
      () => `NOT ${leaf()}`,
    ])()
  }
}

export function columnValues(defs: readonly { type: ColumnType; values: readonly Cell[] }[]): ColumnValues[] {
  return defs.map((d): ColumnValues => {
    if (d.type === 'text') return d.values.map((v) => (v === null ? '' : String(v)))
    if (d.type === 'float') return Float64Array.from(d.values, (v) => (v === null ? Number.NaN : Number(v)))
    if (d.type === 'bigint') return BigInt64Array.from(d.values, (v) => (v === null ? NA_BIGINT : BigInt(v)))
    return Int32Array.from(d.values, (v) => (v === null ? NA_INT : Number(v)))
  })
}
