/**
 * Table and view names in a script's SQL, rewritten for tabula: a table's name becomes its dotted
 * path (the gateway then calls it by its last segment, the same name, so `t1.a` still reads), and
 * a view's name becomes its SELECT in parentheses, named as the view, which is what a view is.
 * Works on tokens, so names inside strings are left alone; a name right after `.` or before `.`
 * is a qualifier or a column, and a name after `AS` is an alias, so neither is touched.
 */
import { isOp, isSignificant, keywordOf, tokenize, type Token } from '../../engine/sql/tokenize.js'
import { CLAUSE_KEYWORDS } from '../../engine/sql/table-refs.js'

export interface NameScope {
  /** The dotted path a table is uploaded to, by its lower-cased name. */
  tablePath(name: string): string | undefined
  /** A view's SELECT, by its lower-cased name. */
  viewSelect(name: string): string | undefined
}

export interface Rewritten {
  readonly sql: string
  /** The tables the SQL reads, views looked through. */
  readonly tables: ReadonlySet<string>
}

const MAX_VIEW_DEPTH = 16

export function rewriteNames(sql: string, scope: NameScope, depth = 0): Rewritten {
  if (depth > MAX_VIEW_DEPTH) throw new Error('views nested too deep (a view that reads itself?)')
  const all = tokenize(sql)
  const tokens = all.filter(isSignificant)
  const tables = new Set<string>()
  let out = ''
  let copied = 0
  tokens.forEach((t, i) => {
    if (t.type !== 'ident') return
    const before = tokens[i - 1]
    const after = tokens[i + 1]
    if (isOp(before, '.') || isOp(after, '.') || keywordOf(before) === 'AS' || isOp(after, '(')) return
    const name = t.value.toLowerCase()
    const path = scope.tablePath(name)
    let replacement: string | undefined
    if (path !== undefined) {
      tables.add(name)
      replacement = path
    } else {
      const view = scope.viewSelect(name)
      if (view === undefined) return
      const inner = rewriteNames(view, scope, depth + 1)
      for (const n of inner.tables) tables.add(n)
      replacement = `(${inner.sql})${aliasFollows(after) ? '' : ` AS ${name}`}`
    }
    out += sql.slice(copied, t.start) + replacement
    copied = t.end
  })
  return { sql: out + sql.slice(copied), tables }
}

function aliasFollows(next: Token | undefined): boolean {
  if (next === undefined || next.type !== 'ident') return false
  const k = keywordOf(next)
  return k === undefined || k === 'AS' || !CLAUSE_KEYWORDS.has(k)
}
