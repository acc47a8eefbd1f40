/** What the checker knows of a worksheet: its columns' names, types and visibility. */
import type { ColumnType } from '../../shared/table.js'

export interface SchemaCol {
  readonly name: string
  readonly type: ColumnType
  readonly visible: boolean
}

/**
 * The columns shared by a line of schemas, each a prefix of the next. Appending to the newest
 * schema of the line extends these arrays in place, so a query that adds 30,000 columns one
 * `<willbe>` at a time is checked in linear time, not quadratic.
 */
interface ColumnStore {
  readonly list: SchemaCol[]
  /** Position of each name in `list`; names are unique within a schema. */
  readonly positions: Map<string, number>
}

/** An immutable worksheet schema with lookup by name. */
export class Schema {
  private constructor(
    private readonly store: ColumnStore,
    /** How many columns of the store are this schema's. */
    private readonly size: number,
    /**
     * True after an operation whose columns depend on the data (a cross-tabulation makes one
     * column per distinct value): names not listed are then left for the interpreter to judge.
     */
    readonly open: boolean,
  ) {}

  /** A schema of these columns, in order (a repeated name is found as its first column). */
  static of(cols: readonly SchemaCol[], open = false): Schema {
    return new Schema({ list: [], positions: new Map() }, 0, open).append(cols)
  }

  get cols(): readonly SchemaCol[] {
    return this.size === this.store.list.length ? this.store.list : this.store.list.slice(0, this.size)
  }

  get length(): number {
    return this.size
  }

  find(name: string): SchemaCol | undefined {
    const at = this.store.positions.get(name)
    return at !== undefined && at < this.size ? this.store.list[at] : undefined
  }

  /** This schema with `cols` added at the end (their names must be new). */
  append(cols: readonly SchemaCol[], open = this.open): Schema {
    if (this.size !== this.store.list.length) return Schema.of([...this.cols, ...cols], open)
    for (const col of cols) {
      // A repeated name keeps its first column, as in `of`.
      if (!this.store.positions.has(col.name)) this.store.positions.set(col.name, this.store.list.length)
      this.store.list.push(col)
    }
    return new Schema(this.store, this.store.list.length, open)
  }

  withOpen(open: boolean): Schema {
    return new Schema(this.store, this.size, open)
  }
}

export const findCol = (s: Schema, name: string): SchemaCol | undefined => s.find(name)
