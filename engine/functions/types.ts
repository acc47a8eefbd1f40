/**
 * The function registry's row type. One row per function (and per operator: `+`, `=`, `~`…):
 * its argument kinds, how its result type follows from its arguments, and its vector kernel.
 * The checker reads `args` and `result` before any data is touched; the interpreter prepares
 * each argument by its kind and calls `kernel` once per evaluation, over whole columns.
 */
import type { Column, ColumnType, GroupIndex, Value } from '../columns/types.js'

/**
 * - value: any expression (a column, a constant, a list for list-aware functions)
 * - group: G, a column or column list (`state city`), omitted = one group
 * - select: S, a 0/1 column (or expression), omitted = every row
 * - order: O, a column or column list, omitted = worksheet order
 */
export type ArgKind = 'value' | 'group' | 'select' | 'order'

export interface ArgSpec {
  readonly kind: ArgKind
  /** Documentation name: G, S, O, X, N, D… */
  readonly name: string
  /** An omitted (empty) or absent argument is allowed. */
  readonly optional?: boolean
  /** Types a value argument accepts; absent = any. */
  readonly types?: readonly ColumnType[]
  /** A list (`'a' 'b'`) is accepted here. */
  readonly list?: boolean
  /**
   * The argument must be a constant (a number or a quoted text, not a column), e.g. the N of
   * `g_nth` or the length of `substr`. Kernels reject a column here with a CHECK_ERROR.
   */
  readonly constant?: boolean
}

/** Arguments as the interpreter hands them to a kernel, one per declared (or repeated) spec. */
export type KernelArg =
  | { readonly kind: 'value'; readonly value: Value }
  | { readonly kind: 'group'; readonly groups: GroupIndex | null }
  | { readonly kind: 'select'; readonly mask: Uint8Array | null }
  /** Row numbers in O order (stable: worksheet order breaks ties); null = worksheet order. */
  | { readonly kind: 'order'; readonly order: Int32Array | null }
  | { readonly kind: 'omitted' }

export interface KernelContext {
  /** Rows of the worksheet the expression is evaluated on. */
  readonly rows: number
}

export interface FunctionDef {
  readonly name: string
  readonly args: readonly ArgSpec[]
  /**
   * When set, the specs from this index on repeat (e.g. `if(c;v;c;v;…;d)`, `max(a;b;c…)`);
   * `minArgs` then bounds the count.
   */
  readonly repeatFrom?: number
  readonly minArgs?: number
  /**
   * The result type, given the types of the arguments (null for omitted and non-value args),
   * or `{ error }` with a message (without position) when the argument types do not fit.
   */
  readonly result: (types: readonly (ColumnType | null)[]) => ColumnType | { readonly error: string }
  readonly kernel: (args: readonly KernelArg[], ctx: KernelContext) => Column
  /** One line for `list_functions` and error messages. */
  readonly doc: string
  /**
   * The function compares its value arguments with each other (`=`, `<`, between…), so a quoted
   * date such as '1/1/2014' beside any whole-number operand, not only a date column, is read as
   * the yyyymmdd it names: dates are plain ints, computed or stored.
   */
  readonly comparesValues?: boolean
}
