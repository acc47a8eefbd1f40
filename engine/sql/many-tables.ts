/**
 * Queries over more tables than sql.js can attach. sql.js is built with SQLite's default of at
 * most 10 attached databases, while a query may join up to 64 tables (SQLite's own limit), and the
 * gateway hands the worker each table as a database to attach as `t0`, `t1`… (sqllogictest's
 * select5 joins 11 to 64 tables: each was a 500, "too many attached databases").
 *
 * So past ATTACH_DIRECT tables, the rest are copied into one in-memory database attached as
 * COPIES, each as the table `tN` with its own definition (column names, declared types and so
 * affinities, as in the image), and the query's references `"tN"."data"` are rewritten to
 * `"copies"."tN"`. The rewrite works on tokens: only a name `tN` followed by `.` and the name
 * `data` changes, never text inside strings or comments. A copy costs a pass over the table's
 * rows, which only such wide joins pay.
 */
import type { Database } from 'sql.js'
import { quoteIdent } from './table-refs.js'
import { isSignificant, tokenize, type Token } from './tokenize.js'

/** sql.js's limit of attached databases (SQLITE_MAX_ATTACHED, fixed when it was built). */
export const MAX_ATTACHED = 10
/** Tables attached as they are when a query has more than MAX_ATTACHED; two places stay free: the copies and one source at a time. */
export const ATTACH_DIRECT = MAX_ATTACHED - 2
export const COPIES = 'copies'
const SOURCE = 'copysource'

/** Whether a query over `count` tables needs copies. */
export const needsCopies = (count: number): boolean => count > MAX_ATTACHED

/**
 * `sql` with each reference `"<alias>"."data"` of an alias in `copied` pointing at its copy,
 * `"copies"."<alias>"`.
 */
export function pointAtCopies(sql: string, copied: ReadonlySet<string>): string {
  const tokens = tokenize(sql)
  let out = ''
  let copiedUpTo = 0
  for (let i = 0; i < tokens.length; i++) {
    const schema = tokens[i]
    if (schema.type !== 'ident' || !copied.has(schema.value)) continue
    const dot = nextSignificant(tokens, i)
    const table = dot === -1 ? -1 : nextSignificant(tokens, dot)
    if (dot === -1 || table === -1 || tokens[dot].type !== 'op' || tokens[dot].text !== '.') continue
    const name = tokens[table]
    if (name.type !== 'ident' || name.value !== 'data') continue
    out += sql.slice(copiedUpTo, schema.start) + `${quoteIdent(COPIES)}.${quoteIdent(schema.value)}`
    copiedUpTo = name.end
    i = table
  }
  return out + sql.slice(copiedUpTo)
}

function nextSignificant(tokens: readonly Token[], i: number): number {
  for (let j = i + 1; j < tokens.length; j++) if (isSignificant(tokens[j])) return j
  return -1
}

/**
 * Copies the table `data` of each database file into COPIES as a table named by its alias, on
 * `db` (which must allow writes while this runs). COPIES must be attached already.
 */
export function copyTables(db: Database, tables: readonly { alias: string; filename: string }[]): void {
  for (const t of tables) {
    db.run(`ATTACH ? AS ${SOURCE}`, [t.filename])
    try {
      const rows = db.exec(`SELECT sql FROM ${SOURCE}.sqlite_master WHERE type = 'table' AND name = 'data'`)
      const create = String(rows[0]?.values[0]?.[0] ?? '')
      // The image's own definition, under the new name: everything from its column list on.
      const columns = create.slice(create.indexOf('('))
      if (!create || !columns) throw new Error(`the image of ${t.alias} has no table "data"`)
      db.run(`CREATE TABLE ${quoteIdent(COPIES)}.${quoteIdent(t.alias)} ${columns}`)
      db.run(`INSERT INTO ${quoteIdent(COPIES)}.${quoteIdent(t.alias)} SELECT * FROM ${SOURCE}."data" ORDER BY rowid`)
    } finally {
      db.run(`DETACH ${SOURCE}`)
    }
  }
}
