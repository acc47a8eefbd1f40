/**
 * The macro language's syntax trees. Nodes are plain, readonly data keyed by `kind`, each with a
 * source location, and carry no behaviour: parsing, block expansion, checking and interpreting
 * are separate stages that read them. Plain data also means an operation list can be sent to a
 * worker thread as it is.
 */
import type { ColumnType } from '../shared/table.js'

/** 1-based line and column in the query text (for expressions: of the attribute value's text). */
export interface Loc {
  readonly line: number
  readonly col: number
}

// ---------------------------------------------------------------------------------------------
// The XML layer: what sax gives, before blocks are expanded.

export interface XmlElement {
  readonly kind: 'Element'
  /** Lower-cased element name. */
  readonly name: string
  /** Attributes by lower-cased name, values entity-decoded, in document order. */
  readonly attrs: Readonly<Record<string, string>>
  readonly children: readonly XmlNode[]
  readonly loc: Loc
}

export interface XmlText {
  readonly kind: 'Text'
  readonly text: string
  readonly loc: Loc
}

export type XmlNode = XmlElement | XmlText

// ---------------------------------------------------------------------------------------------
// Expressions (value and selection expressions, and block-level `{…}` expressions).

export type BinOp = '^' | '*' | '/' | '+' | '-' | '=' | '<>' | '<' | '>' | '<=' | '>=' | '&' | '|'

/** The largest int an int column holds (-2^31 is its N/A). */
const INT32_MAX = 2147483647

/** The type of a number literal: a decimal with a point; a whole number int within 32 bits, else a big integer. */
export const literalType = (e: { readonly value: number; readonly int: boolean }): 'int' | 'bigint' | 'float' =>
  !e.int ? 'float' : Math.abs(e.value) <= INT32_MAX ? 'int' : 'bigint'

export type Expr =
  /**
   * A number; `int` is true when written without a decimal point (or exponent). A whole number
   * past ±2^53 keeps its exact `digits` (with its sign); `value` is then only the nearest float64.
   */
  | { readonly kind: 'Num'; readonly value: number; readonly int: boolean; readonly digits?: string; readonly loc: Loc }
  | { readonly kind: 'Str'; readonly value: string; readonly loc: Loc }
  /** A date literal such as 3/15/03, as yyyymmdd. */
  | { readonly kind: 'Date'; readonly value: number; readonly loc: Loc }
  /** A time literal such as 13:45, as hhmmss. */
  | { readonly kind: 'Time'; readonly value: number; readonly loc: Loc }
  /** Side by side: `'NY' 'CA'`, `1 2 3`. Items are constants (Num, Str, Date, Time, Neg of Num), except in a call's argument, where any expressions may stand side by side (the L of splice(L;D)); the checker refuses that anywhere else. */
  | { readonly kind: 'List'; readonly items: readonly Expr[]; readonly loc: Loc }
  /** A column reference; `name` is lower-cased. */
  | { readonly kind: 'Col'; readonly name: string; readonly loc: Loc }
  /** Several columns in a G/O/C argument: `state city` or `state,city`. Names lower-cased. */
  | { readonly kind: 'ColList'; readonly names: readonly string[]; readonly loc: Loc }
  /** A function call; `null` is an omitted argument (`g_sum(g;;x)`). Name lower-cased. */
  | { readonly kind: 'Call'; readonly name: string; readonly args: readonly (Expr | null)[]; readonly loc: Loc }
  | { readonly kind: 'Neg'; readonly operand: Expr; readonly loc: Loc }
  | { readonly kind: 'Not'; readonly operand: Expr; readonly loc: Loc }
  /** `wide`: an int + - * that overflowed once and now computes in big integers (expr/widening.ts). */
  | { readonly kind: 'Bin'; readonly op: BinOp; readonly left: Expr; readonly right: Expr; readonly loc: Loc; readonly wide?: boolean }
  /** `@name` or `@name.field` inside a block-level `{…}` expression. */
  | { readonly kind: 'Var'; readonly name: string; readonly loc: Loc }

// ---------------------------------------------------------------------------------------------
// Operations: the flat pipeline left after block expansion.

/** Column metadata set by willbe, col, tcol… (absent fields are left as they are). */
export interface MetaPatch {
  readonly label?: string
  readonly desc?: string
  readonly format?: string
  readonly width?: number
  readonly fixed?: boolean
}

export interface SortKey {
  readonly col: string
  readonly dir: 'up' | 'down'
}

export interface BreakSpec {
  readonly col: string
  readonly sort: 'up' | 'down' | 'none'
  readonly naorder: 'first' | 'last'
  readonly rename?: string
  readonly relabel?: string
  /** `placeholder`: the literal shown instead of N/A where a rollup rolls this break up. */
  readonly placeholder?: Expr
  readonly loc: Loc
}

/**
 * `<rollup>` inside `<tabu>`, resolved to its grouping sets: each set lists the positions (in
 * `breaks`) of the break columns kept; the others are rolled up on that set's rows.
 */
export interface RollupSpec {
  readonly sets: readonly (readonly number[])[]
  /** `ind`: the name of an int column whose bit I-1 says the I-th break from the last is rolled up. */
  readonly ind: string | null
  readonly loc: Loc
}

export interface Tcol {
  readonly fun: string
  /** The summarised value; null for `cnt` without source. */
  readonly source: Expr | null
  readonly weight: Expr | null
  readonly name: string | null
  readonly meta: MetaPatch
  readonly loc: Loc
}

/** One row of a `<cols>` table: which column, and what to change (absent fields unchanged). */
export interface ColsEntry {
  readonly name: string | null
  readonly ord: number | null
  readonly meta: MetaPatch
}

export type LinkType = 'exact' | 'select' | 'include' | 'exclude' | 'asof' | 'expand'

export type Op =
  | { readonly kind: 'Base'; readonly table: string; readonly loc: Loc }
  /** `<table>`: inline rows (cells as written, '' = N/A), or `depth` rows and no columns. */
  | {
      readonly kind: 'Table'
      readonly cols: readonly string[]
      readonly rows: readonly (readonly string[])[]
      /** Declared column types (`format="xml"`); without them types are inferred from the cells. */
      readonly types?: readonly ColumnType[]
      /** Declared column metadata (`format="xml"`), by column. */
      readonly meta?: readonly MetaPatch[]
      readonly depth: number | null
      readonly title: string
      readonly loc: Loc
    }
  | { readonly kind: 'Sel'; readonly cond: Expr; readonly loc: Loc }
  | { readonly kind: 'Willbe'; readonly name: string; readonly value: Expr; readonly meta: MetaPatch; readonly loc: Loc }
  /** `cols` null = every column; names may contain `*` wildcards. */
  | { readonly kind: 'Colord'; readonly cols: readonly string[] | null; readonly hide: readonly string[]; readonly hard: boolean; readonly loc: Loc }
  | { readonly kind: 'ColMeta'; readonly name: string; readonly meta: MetaPatch; readonly loc: Loc }
  | { readonly kind: 'Sort'; readonly keys: readonly SortKey[]; readonly loc: Loc }
  | {
      readonly kind: 'Tabu'
      readonly breaks: readonly string[]
      readonly cbreaks: readonly string[]
      readonly breakSpecs: readonly BreakSpec[]
      readonly tcols: readonly Tcol[]
      readonly label: string
      /** Subtotal rows (`<rollup>`); absent: a plain tabulation. */
      readonly rollup?: RollupSpec
      readonly loc: Loc
    }
  | {
      readonly kind: 'Link'
      readonly table2: string
      /** Operations applied to the foreign table before linking. */
      readonly ops: readonly Op[]
      readonly col: readonly string[]
      readonly col2: readonly string[]
      /** Foreign columns to bring in; null = all. */
      readonly cols: readonly string[] | null
      readonly suffix: string
      readonly type: LinkType
      readonly label: string
      readonly loc: Loc
      /** `keepcols="1"`: the foreign key columns (col2) come along too (by default they do not: they repeat col). */
      readonly keepcols?: boolean
      /**
       * Set by compiled SQL only: the link is an SQL join. An N/A key matches nothing (SQL's NULL
       * equals nothing), and a key that repeats in the foreign table, which would make SQL give
       * several rows where a link gives one, declines the plan (sql.js answers).
       */
      readonly sqlJoin?: boolean
    }
  /**
   * `<cols>`: metadata for several columns at once, one entry per row of its inline table. An
   * entry names its column (unknown names are skipped) or gives its 1-based position `ord`;
   * with both, the named column also moves to position `ord`.
   */
  | { readonly kind: 'Cols'; readonly entries: readonly ColsEntry[]; readonly loc: Loc }
  /** `<merge table2=…/>`: the rows of table2 (after its ops) appended, columns matched by name. */
  | { readonly kind: 'Merge'; readonly table2: string; readonly ops: readonly Op[]; readonly loc: Loc }

export type OpKind = Op['kind']

/** The operation of one kind: `OpOf<'Tabu'>` is the `<tabu>` member of Op. */
export type OpOf<K extends OpKind> = Extract<Op, { readonly kind: K }>
