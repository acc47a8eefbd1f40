/**
 * Merging the parts' per-group partials (aggregate.ts) into one row per group. Parts come in
 * range order, and each part lists its groups by first appearance, so numbering groups as they
 * are met gives the order of first appearance over the whole table, as a run on one worker has it.
 * Each summary's parts merge as summaries/parts.ts says: counts add, sums add the parts' block sums
 * in block order from zero (blocks.ts: the same additions in the same order for any number of
 * parts), extremes keep the smaller or larger, first and last values come from the first or last
 * range that has the group.
 */
import type { PlainColumn, ResultSet } from '../../shared/protocol.js'
import type { ColumnType } from '../../shared/table.js'
import { textColumnFromStrings } from '../columns/index.js'
import { NA_INT, type Column } from '../columns/types.js'
import { accumulationOf } from '../summaries/index.js'
import { asTypeOf, type PartValue, type StatePart } from '../summaries/parts.js'
import { keyName, partName } from './aggregate.js'
import type { AggSpec } from './plan.js'

/** Partials are encoded by codec.ts, which never codes text; anything else is a bug upstream. */
export function plain(c: ResultSet['columns'][number]): PlainColumn {
  if (c.kind === 'coded') throw new Error('parallel merge: a partial column arrived with coded text')
  return c
}

/** One group per distinct key tuple, numbered as met. */
export class KeyIndex {
  private readonly byNumber = new Map<number, number>()
  private readonly byText = new Map<string, number>()
  private readonly values: (number | string)[][]
  private types: ColumnType[] | null = null
  count = 0

  /** @param types the key columns' types, when known before any group is met */
  constructor(
    private readonly keys: number,
    types?: readonly ColumnType[],
  ) {
    this.values = Array.from({ length: keys }, () => [])
    if (types !== undefined) this.types = [...types]
  }

  /** The group of row `i` of the key columns, added when new; -1 with `readOnly` when absent. */
  idOf(cols: readonly PlainColumn[], types: readonly ColumnType[], i: number, readOnly = false): number {
    this.types ??= [...types]
    if (this.keys === 0) return this.count > 0 ? 0 : readOnly ? -1 : this.count++
    const single = this.keys === 1 && cols[0].kind === 'int'
    const k = single ? (cols[0].data[i] as number) : tupleKey(cols, i)
    const map = (single ? this.byNumber : this.byText) as Map<number | string, number>
    const found = map.get(k)
    if (found !== undefined) return found
    if (readOnly) return -1
    map.set(k, this.count)
    cols.forEach((c, j) => this.values[j].push(c.data[i]))
    return this.count++
  }

  /** The key values of every group, one column per key. */
  columns(): Column[] {
    return this.values.map((v, j) => columnOf(v, this.types?.[j] ?? 'int'))
  }
}

/** A key tuple as text: -0 reads as 0 (group-by folds them too), text is length-prefixed. */
function tupleKey(cols: readonly PlainColumn[], i: number): string {
  let k = ''
  for (const c of cols) {
    const v = c.data[i]
    k += typeof v === 'string' ? `${v.length}:${v}|` : `${v}|`
  }
  return k
}

function columnOf(values: readonly (number | string)[], type: ColumnType): Column {
  if (type === 'text') return textColumnFromStrings(values as string[])
  if (type === 'float') return { type: 'float', data: Float64Array.from(values as number[]) }
  return { type, data: Int32Array.from(values as number[]) }
}

/** The merged groups: their key values and each aggregate's final value per group. */
export interface MergedGroups {
  readonly count: number
  readonly keys: Column[]
  readonly values: Column[]
}

interface Part {
  readonly set: ResultSet
  readonly byName: Map<string, number>
  /** Global group of each of the part's groups. */
  readonly map: Int32Array
}

const column = (p: Part, name: string): PlainColumn | undefined => {
  const i = p.byName.get(name)
  return i === undefined ? undefined : plain(p.set.columns[i])
}
const typeOf = (p: Part, name: string): ColumnType => p.set.cols[p.byName.get(name)!].logical

/** A summed part: every part's block vectors added in block order from zero. */
function sumOf(parts: readonly Part[], j: number, name: string, count: number): Float64Array {
  const s = new Float64Array(count)
  for (const p of parts) {
    for (let b = 0; ; b++) {
      const col = column(p, partName(j, name, b))
      if (col === undefined) break
      const d = col.data as Float64Array
      const map = p.map
      for (let g = 0; g < d.length; g++) s[map[g]] += d[g]
    }
  }
  return s
}

function countOf(parts: readonly Part[], j: number, name: string, count: number): Int32Array {
  const n = new Int32Array(count)
  for (const p of parts) {
    const d = column(p, partName(j, name))!.data as Int32Array
    for (let g = 0; g < d.length; g++) n[p.map[g]] += d[g]
  }
  return n
}

function extremeOf(parts: readonly Part[], j: number, name: string, count: number, max: boolean): Column {
  const best = new Float64Array(count).fill(Number.NaN)
  let like: Column = { type: 'float', data: best }
  for (const p of parts) {
    const at = partName(j, name)
    const col = column(p, at)!
    const type = typeOf(p, at)
    like = type === 'float' ? like : { type: type === 'date' ? 'date' : 'int', data: new Int32Array(0) }
    const d = col.data as Int32Array | Float64Array
    for (let g = 0; g < d.length; g++) {
      const raw = d[g]
      const v = type === 'float' ? raw : raw === NA_INT ? Number.NaN : raw
      if (v !== v) continue
      const to = p.map[g]
      const b = best[to]
      // Strict comparison: on a tie the earlier range's value stays, as in one pass.
      if (b !== b || (max ? v > b : v < b)) best[to] = v
    }
  }
  return asTypeOf(like, best)
}

/** first: the value from the first part that has the group; last: from the last one. */
function edgeOf(parts: readonly Part[], j: number, name: string, count: number, last: boolean): Column {
  const values: (number | string)[] = new Array(count)
  const seen = new Uint8Array(count)
  let type: ColumnType = 'float'
  for (const p of parts) {
    const at = partName(j, name)
    const col = column(p, at)!
    type = typeOf(p, at)
    for (let g = 0; g < col.data.length; g++) {
      const to = p.map[g]
      if (last || seen[to] === 0) values[to] = col.data[g]
      seen[to] = 1
    }
  }
  const na = type === 'text' ? '' : type === 'float' ? Number.NaN : NA_INT
  for (let g = 0; g < count; g++) if (seen[g] === 0) values[g] = na
  return columnOf(values, type)
}

/** One part of summary j over every range, as one value per merged group. */
function mergedPart(parts: readonly Part[], j: number, part: StatePart, count: number): PartValue {
  if (part.kind === 'edge') return edgeOf(parts, j, part.name, count, part.last)
  if (part.kind === 'rows' || part.merge === 'add')
    return part.kind === 'fold' && part.summed ? sumOf(parts, j, part.name, count) : countOf(parts, j, part.name, count)
  return extremeOf(parts, j, part.name, count, part.merge === 'max')
}

/**
 * Merges parts' partials (in range order) of `aggs` over `keys` key columns into each summary's
 * final value per group (its SummaryDef's finish over its merged parts).
 */
export function mergePartials(sets: readonly ResultSet[], keys: number, aggs: readonly AggSpec[]): MergedGroups {
  const first = sets[0]
  const types = first === undefined ? undefined : Array.from({ length: keys }, (_, i) => first.cols.find((c) => c.name === keyName(i))!.logical)
  const index = new KeyIndex(keys, types)
  const parts: Part[] = sets.map((set) => {
    const byName = new Map(set.cols.map((c, i) => [c.name, i]))
    const keyCols = Array.from({ length: keys }, (_, i) => plain(set.columns[byName.get(keyName(i))!]))
    const keyTypes = Array.from({ length: keys }, (_, i) => set.cols[byName.get(keyName(i))!].logical)
    const map = new Int32Array(set.rowCount)
    for (let g = 0; g < set.rowCount; g++) map[g] = index.idOf(keyCols, keyTypes, g)
    return { set, byName, map }
  })
  // A tabulation without breaks has its one row even over no rows at all.
  const count = keys === 0 ? Math.max(1, index.count) : index.count
  const values = aggs.map((a, j): Column => {
    const how = accumulationOf(a.fun)
    return how.finish(how.parts.map((part) => mergedPart(parts, j, part, count)))
  })
  return { count, keys: index.columns(), values }
}
