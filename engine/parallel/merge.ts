/**
 * Merging the parts' per-group partials (aggregate.ts) into one row per group. Parts come in
 * range order, and each part lists its groups by first appearance, so numbering groups as they
 * are met gives the order of first appearance over the whole table, as a run on one worker has it.
 * Each summary's parts merge as summaries/parts.ts says: counts add, sums add the parts' block sums
 * in block order from zero (blocks.ts: the same additions in the same order for any number of
 * parts), extremes keep the smaller or larger, first and last values come from the first or last
 * range that has the group. Text keys and values come as codes with each part's dictionary; they
 * are put on one dictionary and groups are told apart by integer codes (numberTogether).
 */
import type { ResultSet } from '../../shared/protocol.js'
import type { ColumnType } from '../../shared/table.js'
import { firstRowOfGroups, gather, groupBy, toFloat } from '../columns/index.js'
import { concatColumns, onOneDictionary } from '../columns/concat.js'
import { NA_BIGINT, NA_INT, type BigIntColumn, type Column, type TextColumn } from '../columns/types.js'

export { concatColumns, onOneDictionary }
import { accumulationOf } from '../summaries/index.js'
import { asTypeOf, type PartValue, type StatePart } from '../summaries/parts.js'
import { keyName, partName } from './aggregate.js'
import { fromResultColumn } from './codec.js'
import type { AggSpec } from './plan.js'

/**
 * Key tuples of several lists, numbered together by first appearance over the lists in order
 * (the one group-by kernel, on integer codes): ids[l] gives list l's tuples their numbers.
 * @param lists per list, its key columns (the same number and types in each)
 * @param lengths per list, its number of tuples (no key columns: every tuple is the one group)
 */
export function numberTogether(
  lists: readonly (readonly Column[])[],
  lengths: readonly number[],
  types: readonly ColumnType[],
): { ids: Int32Array[]; count: number; keys: Column[] } {
  const total = lengths.reduce((n, k) => n + k, 0)
  const all = types.map((type, k) =>
    concatColumns(
      lists.map((l) => l[k]),
      type,
    ),
  )
  const groups = groupBy(all, total)
  const first = firstRowOfGroups(groups)
  let at = 0
  const ids = lengths.map((n) => groups.ids.subarray(at, (at += n)))
  return { ids, count: groups.count, keys: all.map((c) => gather(c, first)) }
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

const column = (p: Part, name: string): Column | undefined => {
  const i = p.byName.get(name)
  return i === undefined ? undefined : fromResultColumn(p.set.columns[i], p.set.cols[i].logical)
}
const numbers = (c: Column): Int32Array | Float64Array => (c.type === 'text' ? c.codes : c.type === 'bigint' ? toFloat(c).data : c.data)

/** A summed part: every part's block vectors added in block order from zero. */
function sumOf(parts: readonly Part[], j: number, name: string, count: number): Float64Array {
  const s = new Float64Array(count)
  for (const p of parts) {
    for (let b = 0; ; b++) {
      const col = column(p, partName(j, name, b))
      if (col === undefined) break
      const d = numbers(col) as Float64Array
      const map = p.map
      for (let g = 0; g < d.length; g++) s[map[g]] += d[g]
    }
  }
  return s
}

function countOf(parts: readonly Part[], j: number, name: string, count: number): Int32Array {
  const n = new Int32Array(count)
  for (const p of parts) {
    const d = numbers(column(p, partName(j, name))!) as Int32Array
    for (let g = 0; g < d.length; g++) n[p.map[g]] += d[g]
  }
  return n
}

function extremeOf(parts: readonly Part[], j: number, name: string, count: number, max: boolean): Column {
  const cols = parts.map((p) => column(p, partName(j, name))!)
  if (cols[0]?.type === 'text') return textExtremeOf(parts, onOneDictionary(cols) as TextColumn[], count, max)
  const best = new Float64Array(count).fill(Number.NaN)
  let like: Column = { type: 'float', data: best }
  for (const p of parts) {
    const at = partName(j, name)
    const col = column(p, at)!
    const type = col.type
    // A part's big integers came from doubles exactly (parts.ts asTypeOf refuses any past ±2^53).
    like =
      type === 'float' ? like : type === 'bigint' ? { type, data: new BigInt64Array(0) } : { type: type === 'date' ? 'date' : 'int', data: new Int32Array(0) }
    const d = numbers(col)
    for (let g = 0; g < d.length; g++) {
      const raw = d[g]
      const v = type === 'float' || type === 'bigint' ? raw : raw === NA_INT ? Number.NaN : raw
      if (v !== v) continue
      const to = p.map[g]
      const b = best[to]
      // Strict comparison: on a tie the earlier range's value stays, as in one pass.
      if (b !== b || (max ? v > b : v < b)) best[to] = v
    }
  }
  return asTypeOf(like, best)
}

/**
 * The smallest or largest text of each group, over parts whose codes are on one dictionary
 * (sorted, so codes order like their strings); code 0 is N/A, no value.
 */
function textExtremeOf(parts: readonly Part[], cols: readonly TextColumn[], count: number, max: boolean): Column {
  const best = new Int32Array(count)
  parts.forEach((p, i) => {
    const codes = cols[i].codes
    for (let g = 0; g < codes.length; g++) {
      const c = codes[g]
      if (c === 0) continue
      const to = p.map[g]
      const b = best[to]
      if (b === 0 || (max ? c > b : c < b)) best[to] = c
    }
  })
  return { type: 'text', codes: best, dict: cols[0].dict }
}

/** first: the value from the first part that has the group; last: from the last one. */
function edgeOf(parts: readonly Part[], j: number, name: string, count: number, last: boolean): Column {
  const cols = onOneDictionary(parts.map((p) => column(p, partName(j, name))!))
  const type: ColumnType = cols[0]?.type ?? 'float'
  if (type === 'bigint') {
    const out = new BigInt64Array(count).fill(NA_BIGINT)
    const seen = new Uint8Array(count)
    parts.forEach((p, i) => {
      const d = (cols[i] as BigIntColumn).data
      for (let g = 0; g < d.length; g++) {
        const to = p.map[g]
        if (last || seen[to] === 0) out[to] = d[g]
        seen[to] = 1
      }
    })
    return { type, data: out }
  }
  const na = type === 'text' ? 0 : type === 'float' ? Number.NaN : NA_INT
  const values = type === 'float' ? new Float64Array(count).fill(na) : new Int32Array(count).fill(na)
  const seen = new Uint8Array(count)
  parts.forEach((p, i) => {
    const d = numbers(cols[i])
    for (let g = 0; g < d.length; g++) {
      const to = p.map[g]
      if (last || seen[to] === 0) values[to] = d[g]
      seen[to] = 1
    }
  })
  if (type === 'text') return { type, codes: values as Int32Array, dict: (cols[0] as TextColumn).dict }
  return type === 'float' ? { type, data: values as Float64Array } : { type: type as 'int' | 'date', data: values as Int32Array }
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
  const byNames = sets.map((set) => new Map(set.cols.map((c, i) => [c.name, i])))
  const keyLists = sets.map((set, s) =>
    Array.from({ length: keys }, (_, k) => {
      const i = byNames[s].get(keyName(k))!
      return fromResultColumn(set.columns[i], set.cols[i].logical)
    }),
  )
  const types: ColumnType[] = keyLists[0]?.map((c) => c.type) ?? Array.from({ length: keys }, () => 'int')
  const together = numberTogether(
    keyLists,
    sets.map((s) => s.rowCount),
    types,
  )
  const parts: Part[] = sets.map((set, s) => ({ set, byName: byNames[s], map: together.ids[s] }))
  // A tabulation without breaks has its one row even over no rows at all.
  const count = keys === 0 ? 1 : together.count
  const values = aggs.map((a, j): Column => {
    const how = accumulationOf(a.fun)
    return how.finish(how.parts.map((part) => mergedPart(parts, j, part, count)))
  })
  return { count, keys: together.keys, values }
}
