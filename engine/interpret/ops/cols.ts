/**
 * `<cols>`: which columns its entries reach, and the worksheet with their metadata changed. The
 * checker resolves the entries over the schema's names (refusing an ord out of range before any
 * data is read) and the interpreter over the worksheet's, with the same function.
 */
import type { MetaPatch, OpOf } from '../../ast.js'
import { checkError } from '../../check/errors.js'
import type { Worksheet } from '../worksheet.js'
import { infoPatch } from './simple.js'

export interface ResolvedCols {
  /** Metadata changes by column name, in entry order. */
  readonly patches: readonly { readonly name: string; readonly meta: MetaPatch }[]
  /** The column names in their new order; null when no entry moves a column. */
  readonly order: readonly string[] | null
}

/**
 * Resolves `<cols>` entries over the current column names (in order). An entry with a name not
 * among them is skipped; an ord alone picks the column at that position; name and ord together
 * move the named column to that position, the other columns keeping their order around it.
 */
export function resolveCols(op: OpOf<'Cols'>, names: readonly string[]): ResolvedCols {
  const patches: { name: string; meta: MetaPatch }[] = []
  const moves = new Map<number, string>()
  for (const e of op.entries) {
    if (e.ord !== null && e.ord > names.length) {
      throw checkError(
        op.loc,
        `<cols> gives ord ${e.ord}, but the worksheet has ${names.length} column${names.length === 1 ? '' : 's'}: ord counts them from 1.`,
      )
    }
    const name = e.name ?? names[(e.ord ?? 0) - 1]
    if (!names.includes(name)) continue
    patches.push({ name, meta: e.meta })
    if (e.name !== null && e.ord !== null) moves.set(e.ord, name)
  }
  if (moves.size === 0) return { patches, order: null }
  const moved = new Set(moves.values())
  const rest = names.filter((n) => !moved.has(n))
  const order = names.map((_, i) => moves.get(i + 1) ?? (rest.shift() as string))
  return { patches, order }
}

export function runCols(op: OpOf<'Cols'>, ws: Worksheet): Worksheet {
  const { patches, order } = resolveCols(
    op,
    ws.cols.map((c) => c.name),
  )
  let cols = ws.cols.map((c) => {
    let col = c
    for (const p of patches) if (p.name === c.name) col = col.with({ info: infoPatch(p.meta) })
    return col
  })
  if (order) {
    const byName = new Map(cols.map((c) => [c.name, c]))
    cols = order.map((name) => byName.get(name) ?? missing(name))
  }
  return ws.withColumns(cols)
}

function missing(name: string): never {
  throw new Error(`unreachable: <cols> ordered a column ${name} the worksheet does not have`)
}
