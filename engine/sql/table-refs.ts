/**
 * Catalog paths inside user SQL. Users name tables as `pub.demo.retail.item` or
 * `"pub.demo.retail.item"`; SQLite cannot parse the first and would look the second up as one
 * table name, so the gateway finds both and rewrites them to the schema the worker attaches
 * (`"t0"."data"`). Working on tokens keeps names inside strings and comments untouched.
 */
import { AppError } from '../../shared/errors.js'
import { asciiLower, isOp, keywordOf, seekSignificant, tokenize } from './tokenize.js'
import type { IdentToken, Token } from './tokenize.js'

/** A dotted name in the SQL text: its path and the offsets of its text (`sql.slice(start, end)`). */
export interface TableRef {
  /** Lower-cased (ASCII) for bare names, as SQLite folds them; exactly as written when quoted. */
  readonly path: string
  readonly start: number
  readonly end: number
}

/** A ref with the indices of its first and last token, for looking at its neighbours. */
interface LocatedRef extends TableRef {
  readonly first: number
  readonly last: number
}

/** Words that can follow a table in FROM without being its alias (also read by the sqllogictest runner). */
export const CLAUSE_KEYWORDS = new Set([
  'WHERE',
  'GROUP',
  'ORDER',
  'LIMIT',
  'OFFSET',
  'HAVING',
  'WINDOW',
  'JOIN',
  'INNER',
  'LEFT',
  'RIGHT',
  'FULL',
  'OUTER',
  'CROSS',
  'NATURAL',
  'ON',
  'USING',
  'UNION',
  'INTERSECT',
  'EXCEPT',
  'RETURNING',
  'INDEXED',
  'NOT',
])

/**
 * Every dotted name in `sql`, in order: two or more bare names joined by dots with nothing
 * between them (`pub.demo.item`, also `i.store`), or one quoted name holding a dot
 * (`"pub.demo.item"`, `` `pub.demo.item` ``, `[pub.demo.item]`). A name cut short by a dot
 * (`item.*`) or mixing bare and quoted parts is not a ref.
 */
export function findTableRefs(sql: string): TableRef[] {
  return locateRefs(tokenize(sql)).map(({ path, start, end }) => ({ path, start, end }))
}

/**
 * Replaces each ref whose path is in `aliases` by `"<alias>"."data"`, adding ` AS "<last segment>"`
 * when the ref has no alias of its own, so `item.store` still works after `FROM pub.demo.item`.
 * Refs not in the map and all text between refs are kept byte for byte, except for a space
 * added where a replacement would otherwise touch a quoted name.
 */
export function rewriteTableRefs(sql: string, aliases: ReadonlyMap<string, string>): string {
  const tokens = tokenize(sql)
  let out = ''
  let copied = 0
  for (const ref of locateRefs(tokens)) {
    const schema = aliases.get(ref.path)
    if (schema === undefined) continue
    const alias = needsAlias(tokens, ref) ? ` AS ${quoteIdent(ref.path.slice(ref.path.lastIndexOf('.') + 1))}` : ''
    out = append(append(out, sql.slice(copied, ref.start)), `${quoteIdent(schema)}.${quoteIdent('data')}${alias}`)
    copied = ref.end
  }
  return append(out, sql.slice(copied))
}

/**
 * Joins two pieces, one of them a replacement, with a space where two quoted names would touch:
 * `"data""i"` would lex as the single name `data"i`. A replacement starts and ends with `"`.
 */
const append = (out: string, piece: string): string => (out.endsWith('"') && piece.startsWith('"') ? `${out} ${piece}` : out + piece)

/**
 * Quotes a name for SQLite: wrapped in `"`, with `"` doubled. The only place in engine/sql that
 * writes a name into SQL text. Refuses NUL, where SQLite would stop reading the query.
 */
export function quoteIdent(name: string): string {
  if (name.includes('\0')) throw new AppError('SQL_ERROR', 'A name in the query contains a NUL character. Remove it.')
  return `"${name.replaceAll('"', '""')}"`
}

function locateRefs(tokens: readonly Token[]): LocatedRef[] {
  const refs: LocatedRef[] = []
  for (let i = 0; i < tokens.length; i++) {
    // A name right after a dot belongs to a longer name that started earlier (or after `*.`).
    if (tokens[i].type !== 'ident' || isOp(tokens[i - 1], '.')) continue
    let last = i
    while (isOp(tokens[last + 1], '.') && tokens[last + 2]?.type === 'ident') last += 2
    const ref = refOf(tokens, i, last)
    if (ref) refs.push(ref)
    i = last
  }
  return refs
}

/** The ref spelled by the name tokens[first..last] (idents joined by dots), if it is one. */
function refOf(tokens: readonly Token[], first: number, last: number): LocatedRef | undefined {
  if (isOp(tokens[last + 1], '.')) return undefined
  const parts = tokens.slice(first, last + 1).filter((t): t is IdentToken => t.type === 'ident')
  const span = { start: tokens[first].start, end: tokens[last].end, first, last }
  if (parts.length >= 2 && parts.every((p) => !p.quoted)) {
    return { path: parts.map((p) => asciiLower(p.value)).join('.'), ...span }
  }
  const [only] = parts
  if (parts.length === 1 && only.quoted && only.value.includes('.')) return { path: only.value, ...span }
  return undefined
}

/** False when the ref already has an alias, or stands where SQLite takes none. */
function needsAlias(tokens: readonly Token[], ref: LocatedRef): boolean {
  // `x IN pub.demo.item` is SQLite's IN-table form, which has no alias.
  if (keywordOf(tokens[seekSignificant(tokens, ref.first - 1, -1)]) === 'IN') return false
  const next = tokens[seekSignificant(tokens, ref.last + 1)]
  if (next === undefined) return true
  // SQLite reads a quoted name or a string after a table as its alias; '(' would be a table-valued call.
  if (next.type === 'string' || isOp(next, '(')) return false
  if (next.type !== 'ident') return true
  const keyword = keywordOf(next)
  return keyword !== undefined && CLAUSE_KEYWORDS.has(keyword)
}
