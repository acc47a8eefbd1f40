/**
 * The analytic subset of SQL that compiles to the columnar engine, as plain data: what parse.ts
 * reads out of the parser's tree and plan.ts turns into operations. Anything the parser accepts
 * that has no form here is outside the subset, and the query runs on sql.js.
 */

export type ArithOp = '+' | '-' | '*' | '/' | '%'
export type CmpOp = '=' | '<>' | '<' | '<=' | '>' | '>='
export type AggFn = 'count' | 'sum' | 'total' | 'avg' | 'min' | 'max' | 'group_concat'
/** The affinity of a CAST's type name, by SQLite's rules (BLOB, and NONE, are outside the subset). */
export type CastTo = 'integer' | 'real' | 'text' | 'numeric'

export type SqlExpr =
  /** A column of the one table, by its name as the table spells it. */
  | { readonly k: 'col'; readonly name: string }
  /** An integer literal; past 2^53 its exact `digits` (with its sign), `v` then only the nearest double. */
  | { readonly k: 'int'; readonly v: number; readonly digits?: string }
  | { readonly k: 'real'; readonly v: number }
  | { readonly k: 'str'; readonly v: string }
  | { readonly k: 'null' }
  | { readonly k: 'neg'; readonly e: SqlExpr }
  | { readonly k: 'arith'; readonly op: ArithOp; readonly l: SqlExpr; readonly r: SqlExpr }
  | { readonly k: 'cmp'; readonly op: CmpOp; readonly l: SqlExpr; readonly r: SqlExpr }
  /** `l IS r` (not: `IS NOT`): equality in which NULL equals NULL. */
  | { readonly k: 'is'; readonly not: boolean; readonly l: SqlExpr; readonly r: SqlExpr }
  | { readonly k: 'and' | 'or'; readonly l: SqlExpr; readonly r: SqlExpr }
  | { readonly k: 'not'; readonly e: SqlExpr }
  | { readonly k: 'isnull'; readonly not: boolean; readonly e: SqlExpr }
  | { readonly k: 'between'; readonly not: boolean; readonly e: SqlExpr; readonly lo: SqlExpr; readonly hi: SqlExpr }
  | { readonly k: 'in'; readonly not: boolean; readonly e: SqlExpr; readonly list: readonly SqlExpr[] }
  | { readonly k: 'like'; readonly not: boolean; readonly e: SqlExpr; readonly pattern: string }
  /** Searched CASE (a simple CASE is read as one: `CASE x WHEN v` → `WHEN x = v`). */
  | { readonly k: 'case'; readonly whens: readonly { readonly when: SqlExpr; readonly then: SqlExpr }[]; readonly else: SqlExpr | null }
  | { readonly k: 'cast'; readonly e: SqlExpr; readonly to: CastTo }
  /** `l || r`. */
  | { readonly k: 'concat'; readonly l: SqlExpr; readonly r: SqlExpr }
  /** A scalar function: abs, coalesce, ifnull, iif, nullif, lower, upper, length, round, substr, trim, ltrim, rtrim, replace, instr. */
  | { readonly k: 'call'; readonly name: string; readonly args: readonly SqlExpr[] }
  /** An aggregate; `arg` null is count(*); `sep` group_concat's separator (NULL read as ''). */
  | { readonly k: 'agg'; readonly fn: AggFn; readonly arg: SqlExpr | null; readonly distinct: boolean; readonly sep?: string }
  /** A window function over its window (the default frame: the partition up to the row's last peer). */
  | { readonly k: 'win'; readonly fn: WinFn; readonly args: readonly SqlExpr[]; readonly partition: readonly SqlExpr[]; readonly order: readonly OrderKey[] }

export type WinFn = 'sum' | 'count' | 'avg' | 'row_number' | 'rank' | 'lag' | 'lead'

export interface SelectItem {
  readonly expr: SqlExpr
  readonly alias: string | null
}

export interface OrderKey {
  readonly expr: SqlExpr
  readonly desc: boolean
  /** NULLS FIRST / LAST as written; null: SQLite's default (NULL is the smallest value). */
  readonly nulls: 'first' | 'last' | null
}

/**
 * What FROM and JOIN read: a table by its path as written (dotted), or a query: a subquery in
 * FROM, or the query a WITH name stands for (`name`, and the column names the WITH gives it).
 */
export type SqlSource =
  | { readonly k: 'table'; readonly path: string }
  /** No FROM: one row of no columns (one-row.ts). */
  | { readonly k: 'one row' }
  | { readonly k: 'query'; readonly query: SqlQuery; readonly name: string | null; readonly columns: readonly string[] | null }

/** `[INNER | LEFT] JOIN source [alias] ON …`: the ON condition as written. */
export interface SqlJoin {
  readonly kind: 'inner' | 'left'
  readonly source: SqlSource
  readonly alias: string | null
  readonly on: SqlExpr
}

/** `FROM a, source [alias]`: an inner join whose conditions are among WHERE's (comma-joins.ts finds them). */
export interface SqlCommaJoin {
  readonly kind: 'comma'
  readonly source: SqlSource
  readonly alias: string | null
}

export interface SqlSelect {
  readonly k: 'select'
  /** What the first FROM item reads, and the alias it may be called by. */
  readonly source: SqlSource
  readonly alias: string | null
  /** The items joined to it, in order: all by JOIN, or all by commas. */
  readonly joins: readonly SqlJoin[] | readonly SqlCommaJoin[]
  readonly distinct: boolean
  /** `*` is expanded by the planner into the table's columns. */
  readonly items: readonly (SelectItem | 'star')[]
  readonly where: SqlExpr | null
  readonly groupBy: readonly SqlExpr[]
  readonly having: SqlExpr | null
  readonly orderBy: readonly OrderKey[]
  /** null: no LIMIT (or a negative one, which SQLite reads as none). */
  readonly limit: number | null
  readonly offset: number
}

/** SELECTs joined by UNION ALL (each without ORDER BY or LIMIT), then the ORDER BY and LIMIT of all. */
export interface SqlUnion {
  readonly k: 'union'
  readonly arms: readonly SqlSelect[]
  readonly orderBy: readonly OrderKey[]
  readonly limit: number | null
  readonly offset: number
}

export type SqlQuery = SqlSelect | SqlUnion

/** Thrown while reading or planning when the query is outside the subset; it then runs on sql.js. */
export class NotCompiled extends Error {
  override readonly name = 'NotCompiled'
}

export const outside = (why: string): NotCompiled => new NotCompiled(why)
