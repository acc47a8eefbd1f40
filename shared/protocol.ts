/**
 * What crosses the boundary between the gateway and an engine worker. Plain data only: typed
 * arrays, SharedArrayBuffers, strings and plain objects (class instances lose their prototype in
 * postMessage, so errors travel as ErrorPayload). What a worker answers, a result, an error or a
 * fallback, is the engine's TaskOutcome (engine/task/outcome.ts).
 */
import type { ColumnMeta, ColumnSpec } from './table.js'

/**
 * One result column. Integer and date columns are Int32Array with NA_INT for N/A, floats are
 * Float64Array with NaN for N/A, big integers BigInt64Array with NA_BIGINT (−2^63) for N/A, text is an array of strings with '' for N/A, or (`coded`) the
 * same text as an index per row into a dictionary of strings. Macro results keep text coded all
 * the way to the renderers: a 10M-row answer is then one Int32Array and a short dictionary, not
 * ten million string slots built on the gateway's one thread (docs/operations.md, "Parallel scans").
 */
export type ResultColumn =
  | { readonly kind: 'int'; readonly data: Int32Array }
  | { readonly kind: 'float'; readonly data: Float64Array }
  | { readonly kind: 'bigint'; readonly data: BigInt64Array }
  | { readonly kind: 'text'; readonly data: readonly string[] }
  | CodedTextColumn

/** A column of values as they are (no dictionary): what crosses between parts of a parallel run. */
export type PlainColumn = Exclude<ResultColumn, CodedTextColumn>

/** Text as dictionary codes: row r holds dict[codes[r]]. */
export interface CodedTextColumn {
  readonly kind: 'coded'
  readonly codes: Int32Array
  readonly dict: readonly string[]
}

/** The one result shape every renderer and every index-widget method reads. */
export interface ResultSet {
  readonly cols: readonly ColumnMeta[]
  readonly columns: readonly ResultColumn[]
  readonly rowCount: number
  /**
   * Set only on a result cut to its first rows (a task with `truncate`, or the gateway's
   * MAX_RESULT_BYTES with truncate_=1): how many rows the whole result had.
   */
  readonly totalRows?: number
  /** For an SQL result: which engine answered it (the X-Tabula-Engine header). */
  readonly engine?: 'columnar' | 'sqlite'
}

/** A table version handed to a worker: the bytes it may read, shared without copying. */
export interface SqlTableInput {
  /** The schema name the table is attached under in the worker (t0, t1, …). */
  readonly alias: string
  /** Immutable version id; workers cache the opened image under it. */
  readonly version: string
  /** The SQLite image of the version, in shared memory. */
  readonly image: SharedArrayBuffer
}

export interface SqlTask {
  readonly kind: 'sql'
  /** SQL already rewritten by the gateway: table paths replaced by `tN."data"`. */
  readonly sql: string
  readonly tables: readonly SqlTableInput[]
  readonly maxRows: number
  /** Over maxRows: keep the first maxRows rows and set totalRows instead of failing (truncate_=1). */
  readonly truncate?: boolean
}

/**
 * A text column's dictionary in shared memory (engine/columns/shared-dictionary.ts): the entries'
 * UTF-16 code units end to end, and where each entry ends. It crosses to a worker without a copy;
 * the worker decodes it once and keeps the strings under `id`, which names this encoding alone.
 */
export interface SharedDictionary {
  readonly id: string
  readonly size: number
  /** The entries' UTF-16 code units, little-endian, end to end. */
  readonly units: SharedArrayBuffer
  /** Int32: where entry i ends in code units (it starts where entry i-1 ends, or at 0). */
  readonly ends: SharedArrayBuffer
}

/** A stored column handed to a worker: its bytes in shared memory and, for text, its dictionary. */
export interface TableColumnInput {
  readonly spec: ColumnSpec
  readonly buffer: SharedArrayBuffer
  readonly dict?: SharedDictionary
}

/** A table version a macro query may read, by its dotted path. */
export interface TableInput {
  readonly path: string
  readonly version: string
  readonly rows: number
  readonly title: string
  readonly columns: readonly TableColumnInput[]
  /**
   * A window of a table larger than TABLE_CACHE_MB (docs/large-tables.md): the buffers hold rows
   * firstRow … firstRow+n-1 of the table's `rows` only (none, in the copy a merge task carries);
   * absent, they hold every row. Only a part of a split query (RunPart) reads such a table, and only
   * over a range inside its window.
   */
  readonly firstRow?: number
}

declare const checkedByEngine: unique symbol

/**
 * The mark of an operation the engine's checker passed (engine/check/checked.ts: CheckedOp). It
 * exists for the compiler only, as a property no value has at run time: an operation list crosses
 * to a worker as the plain data it always was, while a RunTask cannot be written with operations
 * that were parsed but never checked. shared/ does not import the engine, hence an operation here
 * is known only by its mark.
 */
export interface CheckedMark {
  readonly [checkedByEngine]: true
}

/**
 * A macro-language query, already parsed, expanded and checked by the gateway. `ops` is the
 * checker's operation list (engine/ast.ts, engine/check/checked.ts), which the interpreter trusts.
 */
export interface RunTask {
  readonly kind: 'run'
  readonly ops: readonly CheckedMark[]
  readonly tables: readonly TableInput[]
  readonly maxRows: number
  /** Over maxRows: keep the first maxRows rows and set totalRows instead of failing (truncate_=1). */
  readonly truncate?: boolean
  /** Where the interpreter reports how far it got (layout: PROGRESS_SLOTS); absent when nobody watches. */
  readonly progress?: SharedArrayBuffer
  /** Set on one part of a query split into row ranges of its base table (engine/parallel). */
  readonly part?: RunPart
  /** Set on the task that merges the parts' partials of a split query (never with `part`). */
  readonly merge?: RunMerge
  /**
   * The query's parallel plan (engine/parallel/plan.ts, plain data), made once on the gateway and
   * carried by the task and every part and merge made from it, so no worker plans again. Absent
   * when the query has none: it then runs whole in the interpreter.
   */
  readonly plan?: unknown
}

/**
 * What a worker answers a `run` task with, always: a ResultSet whose text columns travel as codes
 * (far cheaper to move between threads, since only the dictionary's strings are copied). Where
 * `dicts[i]` is set, `columns[i]` is an int column of indexes into it (engine/parallel/wire.ts
 * reads it back into `coded` columns).
 */
export interface CodedResultSet extends ResultSet {
  readonly dicts: readonly (readonly string[] | null)[]
  /**
   * Set on a part's rows: where `stored[i]` is a number, column i is that column of the base
   * table over the part's whole range, unchanged, and its data is left out (the gateway holds the
   * same shared memory and views it without a copy).
   */
  readonly stored?: readonly (number | null)[]
  /** Set on a part's rows: where true, column i was written into RunPart.output[i] and is left out. */
  readonly written?: readonly boolean[]
}

/**
 * One row range of a parallel run (engine/parallel/plan.ts says which queries split). A part
 * answers either its rows of the query, or its per-group partials of one group step (a g_ willbe)
 * or of the tabulation, which a merge task (RunMerge) puts together.
 */
export interface RunPart {
  /** Base table rows start … end-1 (or the foreign table's, with `foreign`). */
  readonly start: number
  readonly end: number
  /** The range is of the foreign table of the plan's `<merge>`, whose rows come after the base table's. */
  readonly foreign?: boolean
  /** Base rows per summing block (engine/parallel/blocks.ts); parts start on block edges. */
  readonly blockRows: number
  /**
   * 'values': the values of partition step `step` (engine/parallel/plan.ts PartitionStep) for the
   * rows of partition `partition`, written into `output[0]` at their base rows; the range is then
   * the whole base table.
   */
  readonly phase: 'rows' | 'partials' | 'values'
  /** With 'values': which of how many partitions by the step's group keys. */
  readonly partition?: { readonly index: number; readonly count: number }
  /** With 'partials': which group step, or the number of group steps for the tabulation. */
  readonly step?: number
  /** The merged values of the group steps before this phase, in step order. */
  readonly groupValues?: readonly ResultSet[]
  /**
   * With 'rows': one buffer per result column (null for stored columns), shared by all parts, as
   * long as the base table; the part writes its rows of a column (text as codes) at `outputAt`, its
   * range's place, so the gateway copies nothing when every part keeps all its rows and only
   * closes the gaps a selection left otherwise. With 'values': the partition step's column.
   */
  readonly output?: readonly (SharedArrayBuffer | null)[]
  readonly outputAt?: number
}

/**
 * The merge of one summarising phase of a parallel run, a worker task of its own so that the
 * gateway's thread never interprets a query: a merge may be long (many groups, or a `<link>` to a
 * large table after the tabulation), and as a task it is stopped by `!stop` and the time limit
 * like any other. The task's `ops` and `tables` are the whole query's.
 */
export interface RunMerge {
  /**
   * As RunPart.step: a group step, answered as the merged group values that later parts read
   * (RunPart.groupValues); or the number of group steps, for the tabulation, which is merged and
   * then has the operations after it run on it: the query's answer (the finish).
   */
  readonly step: number
  /**
   * The parts' partials of that step, in range order. Their numbers sit in shared memory (the
   * parts put them there), so they are handed to the merging worker without a copy, and can be
   * handed again if fair sharing takes the task back and reruns it, which moved buffers could not.
   */
  readonly partials: readonly ResultSet[]
  /** The merged values of the group steps before this one (RunPart.groupValues). */
  readonly groupValues: readonly ResultSet[]
}

/**
 * The progress cell of a running macro query, an Int32Array over a SharedArrayBuffer that the
 * worker writes and the gateway reads while the task runs. Progress is counted in top-level
 * operations; `done` is kept in thousandths of an operation so that one word carries both the
 * finished operations and how far the current one got (one atomic store, so a reader on another
 * thread never sees the two halves of an update). `total` 0 means not known yet.
 */
export const PROGRESS_SLOTS = { done: 0, total: 1 } as const
/** Int32 slots in a progress cell. */
export const PROGRESS_LENGTH = 2
/** `done` is stored in these units per operation. */
export const PROGRESS_SCALE = 1000

export type EngineTask = SqlTask | RunTask
