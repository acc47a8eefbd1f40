/**
 * The worksheet: the current table of a query. Columns are kept as a source column plus an index
 * vector of the rows that survive (selections, sorts and links compose index vectors instead of
 * copying data); a column is gathered only when an expression or the output reads it, and then
 * once. Index entries of -1 are rows with no source row (unmatched link rows): N/A.
 */
import type { ColumnType } from '../../shared/table.js'
import { gather } from '../columns/index.js'
import type { Column } from '../columns/types.js'

export interface ColumnInfo {
  readonly label: string
  readonly desc: string
  readonly format: string
  readonly width: number | null
  readonly fixed: boolean
}

/** A column read through a row index without gathering it (see WsColumn.view). */
export interface ColumnView {
  readonly source: Column
  readonly index: Int32Array | null
}

/**
 * A source column made only when first read, once for every worksheet column over it: the rows
 * of a `<merge>`, most of whose columns a query usually never reads (it selects, then keeps a few).
 */
export class DeferredColumn {
  private made: Column | null = null

  /**
   * @param gatherRows the rows `index` of the column without making all of it (-1: N/A); used
   *   while the column is not made yet
   */
  constructor(
    private readonly make: () => Column,
    private readonly gatherRows: (index: Int32Array) => Column,
  ) {}

  get(): Column {
    this.made ??= this.make()
    return this.made
  }

  /** Whether the column has been made (tests observe that a folded summary never made it). */
  get isMade(): boolean {
    return this.made !== null
  }

  gather(index: Int32Array): Column {
    return this.made !== null ? gather(this.made, index) : this.gatherRows(index)
  }
}

/**
 * A column known to be `base` plus the integer `k` on every row (N/A where base is N/A), of type
 * `type`: a willbe of `x+k` (ops/simple.ts), whose summaries a tabulation can read off x's
 * (ops/tabu-shift.ts) without making the column at all.
 */
export interface Shift {
  readonly base: WsColumn
  readonly k: number
  readonly type: 'int' | 'float'
}

/** A column of the worksheet: its data (lazily gathered) and what the user sees of it. */
export class WsColumn {
  private cached: Column | null = null

  constructor(
    readonly name: string,
    readonly type: ColumnType,
    readonly info: ColumnInfo,
    readonly visible: boolean,
    private readonly source: Column | DeferredColumn,
    /** Rows of `source` in worksheet order; null = all of them, in order. */
    readonly index: Int32Array | null,
    /**
     * Set only while the column's rows are its base's rows (index null): a reindexed column drops
     * it, since its base is not reindexed with it.
     */
    readonly shift: Shift | null = null,
  ) {}

  /** Whether the data exists yet: false for a deferred column nobody has read. */
  get computed(): boolean {
    return this.cached !== null || !(this.source instanceof DeferredColumn) || this.source.isMade
  }

  private sourceData(): Column {
    return this.source instanceof DeferredColumn ? this.source.get() : this.source
  }

  /** The column's values for the worksheet's rows. */
  data(): Column {
    const data =
      this.cached ??
      (this.index === null ? this.sourceData() : this.source instanceof DeferredColumn ? this.source.gather(this.index) : gather(this.source, this.index))
    this.cached = data
    return data
  }

  /**
   * The column as it is held: row i of the worksheet is `source` row `index[i]` (-1: N/A), or
   * row i itself when `index` is null. Lets a one-pass kernel read through the index instead of
   * gathering a copy first.
   */
  view(): ColumnView {
    return this.cached !== null ? { source: this.cached, index: null } : { source: this.sourceData(), index: this.index }
  }

  /** The same column over a subset or reordering of the worksheet's rows. */
  reindex(rows: Int32Array, composed: Map<Int32Array | null, Int32Array>): WsColumn {
    let index = composed.get(this.index)
    if (index === undefined) {
      index = composeIndex(this.index, rows)
      composed.set(this.index, index)
    }
    return new WsColumn(this.name, this.type, this.info, this.visible, this.source, index)
  }

  with(changes: { name?: string; info?: Partial<ColumnInfo>; visible?: boolean }): WsColumn {
    const c = new WsColumn(
      changes.name ?? this.name,
      this.type,
      { ...this.info, ...changes.info },
      changes.visible ?? this.visible,
      this.source,
      this.index,
      this.shift,
    )
    c.cached = this.cached
    return c
  }
}

/** outer ∘ rows: position i of the result reads source row outer[rows[i]] (-1 stays -1). */
export function composeIndex(outer: Int32Array | null, rows: Int32Array): Int32Array {
  if (outer === null) return rows
  const out = new Int32Array(rows.length)
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]
    out[i] = r < 0 ? -1 : outer[r]
  }
  return out
}

export class Worksheet {
  private readonly byName: Map<string, WsColumn>

  constructor(
    readonly rows: number,
    readonly cols: readonly WsColumn[],
    readonly title: string = '',
  ) {
    this.byName = new Map(cols.map((c) => [c.name, c]))
  }

  column(name: string): WsColumn | undefined {
    return this.byName.get(name)
  }

  /** Keeps or reorders rows: `rows` are worksheet row numbers (-1 = an all-N/A row). */
  selectRows(rows: Int32Array): Worksheet {
    const composed = new Map<Int32Array | null, Int32Array>()
    return new Worksheet(
      rows.length,
      this.cols.map((c) => c.reindex(rows, composed)),
      this.title,
    )
  }

  withColumns(cols: readonly WsColumn[]): Worksheet {
    return new Worksheet(this.rows, cols, this.title)
  }
}

/** A fresh column over materialised data (computed columns, tabulations, inline tables). */
export function newColumn(name: string, data: Column, info: Partial<ColumnInfo> = {}, visible = true): WsColumn {
  return columnOver(name, data.type, data, info, visible)
}

/** A fresh column whose data is made when first read; `type` must be the type it will have. */
export function deferredColumn(
  name: string,
  type: ColumnType,
  make: () => Column,
  gatherRows: (index: Int32Array) => Column,
  info: Partial<ColumnInfo> = {},
  visible = true,
): WsColumn {
  return columnOver(name, type, new DeferredColumn(make, gatherRows), info, visible)
}

/**
 * A column that is `shift.base` + `shift.k`, made by `make` only when something reads its data;
 * a tabulation's summaries of it may read the base instead (ops/tabu-shift.ts).
 */
export function shiftedColumn(name: string, shift: Shift, make: () => Column, info: Partial<ColumnInfo> = {}): WsColumn {
  const deferred: DeferredColumn = new DeferredColumn(make, (index) => gather(deferred.get(), index))
  return columnOver(name, shift.type, deferred, info, true, shift)
}

function columnOver(
  name: string,
  type: ColumnType,
  source: Column | DeferredColumn,
  info: Partial<ColumnInfo>,
  visible: boolean,
  shift: Shift | null = null,
): WsColumn {
  const full: ColumnInfo = {
    label: info.label ?? name,
    desc: info.desc ?? '',
    format: info.format ?? '',
    width: info.width ?? null,
    fixed: info.fixed ?? false,
  }
  return new WsColumn(name, type, full, visible, source, null, shift)
}
