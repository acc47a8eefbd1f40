/**
 * The folds a tabulation's summaries need, each once: summaries over the same source (the same
 * column, or the same expression) share one FoldSpec whose parts are the union of theirs, so a
 * part two summaries need is accumulated once and their sources are loaded once per run of rows
 * (summaries/fold.ts shares a load between consecutive folds of one source). A summary of x+k
 * joins x's spec when tabu-shift.ts shows it may (`sum(x), sum(x+1), …, sum(x+89)` is then one
 * pass over x); its states are x's, shifted.
 */
import type { Expr } from '../../ast.js'
import type { ColumnType } from '../../columns/types.js'
import type { SourceView } from '../../summaries/doubles.js'
import type { FoldSpec, PartState } from '../../summaries/fold.js'
import type { Accumulation } from '../../summaries/index.js'
import { SUM, type StatePart } from '../../summaries/parts.js'
import { evalColumn } from '../eval-column.js'
import type { Shift, Worksheet, WsColumn } from '../worksheet.js'
import { BLOCK_VALID, foldable, intRange, shiftedState, shiftOf } from './tabu-shift.js'

/** One summary to accumulate: how, over which value (null: rows only) and weight (null: none). */
export interface GroupedSummary {
  readonly accumulates: Accumulation
  readonly source: Expr | null
  readonly weight: Expr | null
}

/** The specs to fold, and how each summary's states are read from theirs. */
export interface PlannedFolds {
  readonly specs: readonly FoldSpec[]
  /** Each summary's source type (null: none), as summing its own source would report it. */
  readonly sourceTypes: (ColumnType | null)[]
  /** Per summary, per part of its accumulation: its state, from the specs' states. */
  read(states: readonly PartState[][]): PartState[][]
}

/** One summary's parts: which spec holds them, at which of its parts, and the shift to apply. */
interface Reading {
  readonly spec: number
  readonly at: number[]
  readonly shift: Shift | null
  /** Where the spec holds BLOCK_VALID, for a shifted sum (-1: not needed). */
  readonly counts: number
}

interface SpecBuild {
  readonly view: SourceView | null
  readonly weight: SourceView | null
  readonly parts: StatePart[]
}

/** The spec of one source and weight, made at first use and then shared. */
class Specs {
  readonly list: SpecBuild[] = []
  private readonly byKey = new Map<string, number>()
  private readonly columnIds = new Map<WsColumn, number>()

  constructor(private readonly ws: Worksheet) {}

  /** A key equal for sources that read the same values: one worksheet column, or one expression. */
  key(e: Expr | null): string {
    if (e === null) return '-'
    const col = e.kind === 'Col' ? this.ws.column(e.name) : undefined
    if (col !== undefined) return this.columnKey(col)
    return `e${JSON.stringify(e, exprField)}`
  }

  columnKey(col: WsColumn): string {
    let id = this.columnIds.get(col)
    if (id === undefined) this.columnIds.set(col, (id = this.columnIds.size))
    return `c${id}`
  }

  /** The spec for `key`, its source and weight viewed (evaluated, for expressions) once. */
  spec(key: string, view: () => SourceView | null, weight: () => SourceView | null): number {
    let i = this.byKey.get(key)
    if (i === undefined) {
      i = this.list.length
      this.list.push({ view: view(), weight: weight(), parts: [] })
      this.byKey.set(key, i)
    }
    return i
  }

  /** Where spec `i` holds `part`, added if it does not yet. */
  part(i: number, part: StatePart): number {
    const parts = this.list[i].parts
    const at = parts.indexOf(part)
    return at >= 0 ? at : parts.push(part) - 1
  }
}

/** Locations left out; -0 and numbers JSON has no form for (it writes both as 0 or null) kept apart. */
function exprField(k: string, v: unknown): unknown {
  if (k === 'loc') return undefined
  return typeof v === 'number' && (Object.is(v, -0) || !Number.isFinite(v)) ? `#${Object.is(v, -0) ? '-0' : String(v)}` : v
}

/** A summary's value: a plain column is read through the worksheet's row index, not gathered. */
export function sourceView(e: Expr | null, ws: Worksheet): SourceView | null {
  if (e === null) return null
  const col = e.kind === 'Col' ? ws.column(e.name) : undefined
  return col !== undefined ? col.view() : { source: evalColumn(e, ws), index: null }
}

/**
 * The folds of `summaries` over `ws`, shared and shifted where they may be.
 * @param starts where each summing block starts among the rows, plus the row count
 */
export function planFolds(ws: Worksheet, summaries: readonly GroupedSummary[], starts: Int32Array): PlannedFolds {
  const specs = new Specs(ws)
  const ranges = new Map<WsColumn, ReturnType<typeof intRange>>()
  const sourceTypes: (ColumnType | null)[] = []
  const readings = summaries.map((s): Reading => {
    const parts = s.accumulates.parts
    const found = s.source !== null && s.weight === null ? shiftOf(s.source, ws) : null
    const shift = found !== null && foldable(parts, found, () => rangeOf(found.base, ranges), starts) ? found : null
    const key = shift !== null ? `${specs.columnKey(shift.base)}|-` : `${specs.key(s.source)}|${specs.key(s.weight)}`
    const i = specs.spec(
      key,
      () => (shift !== null ? shift.base.view() : sourceView(s.source, ws)),
      () => sourceView(s.weight, ws),
    )
    sourceTypes.push(shift !== null ? shift.type : (specs.list[i].view?.source.type ?? null))
    const at = parts.map((p) => specs.part(i, p))
    const counts = shift !== null && parts.includes(SUM) ? specs.part(i, BLOCK_VALID) : -1
    return { spec: i, at, shift, counts }
  })
  return {
    specs: specs.list,
    sourceTypes,
    read: (states) =>
      readings.map((r, j) =>
        summaries[j].accumulates.parts.map((part, k) => {
          const state = states[r.spec][r.at[k]]
          return r.shift === null ? state : shiftedState(part, state, r.shift, r.counts >= 0 ? states[r.spec][r.counts] : null)
        }),
      ),
  }
}

function rangeOf(col: WsColumn, ranges: Map<WsColumn, ReturnType<typeof intRange>>): ReturnType<typeof intRange> {
  if (!ranges.has(col)) ranges.set(col, intRange(col))
  return ranges.get(col)!
}
