/** sel, willbe, colord, col and sort: operations on one worksheet that keep its rows' identity. */
import type { OpOf } from '../../ast.js'
import { sortPermutation, type SortKey } from '../../columns/index.js'
import { checkError } from '../../check/errors.js'
import { evalColumn } from '../eval-column.js'
import { selectRows } from '../select.js'
import { matchesPattern } from '../patterns.js'
import { newColumn, shiftedColumn, type WsColumn, type Worksheet, type ColumnInfo } from '../worksheet.js'
import { shiftOfSum } from './tabu-shift.js'
import type { MetaPatch } from '../../ast.js'

export function runSel(op: OpOf<'Sel'>, ws: Worksheet): Worksheet {
  return ws.selectRows(selectRows(op.cond, ws))
}

export function infoPatch(meta: MetaPatch): Partial<ColumnInfo> {
  const p: { -readonly [K in keyof ColumnInfo]?: ColumnInfo[K] } = {}
  if (meta.label !== undefined) p.label = meta.label
  if (meta.desc !== undefined) p.desc = meta.desc
  if (meta.format !== undefined) p.format = meta.format
  if (meta.width !== undefined) p.width = meta.width
  if (meta.fixed !== undefined) p.fixed = meta.fixed
  return p
}

/**
 * A willbe of an int column plus a constant is made only when read: a tabulation's summaries of
 * it read the column's instead (tabu-shift.ts), and then it is never made. Nothing but an int
 * overflow can fail in it, which a summary checks for and anything else meets when it reads.
 */
export function runWillbe(op: OpOf<'Willbe'>, ws: Worksheet): Worksheet {
  if (ws.column(op.name)) throw checkError(op.loc, `A column named "${op.name}" already exists; choose another name.`)
  const shift = shiftOfSum(op.value, ws)
  const col =
    shift !== null
      ? shiftedColumn(op.name, shift, () => evalColumn(op.value, ws), infoPatch(op.meta))
      : newColumn(op.name, evalColumn(op.value, ws), infoPatch(op.meta))
  return ws.withColumns([...ws.cols, col])
}

/** Shown columns first, in the order `cols` names them; hidden ones keep their order after. */
export function runColord(op: OpOf<'Colord'>, ws: Worksheet): Worksheet {
  const hidden = (c: WsColumn) => op.hide.some((p) => matchesPattern(c.name, p)) || (op.cols !== null && !op.cols.some((p) => matchesPattern(c.name, p)))
  const shown: WsColumn[] = []
  if (op.cols === null) shown.push(...ws.cols.filter((c) => !hidden(c)))
  else for (const p of op.cols) for (const c of ws.cols) if (matchesPattern(c.name, p) && !hidden(c) && !shown.includes(c)) shown.push(c)
  const rest = ws.cols.filter((c) => !shown.includes(c))
  const cols = [...shown.map((c) => c.with({ visible: true })), ...(op.hard ? [] : rest.map((c) => c.with({ visible: false })))]
  return ws.withColumns(cols)
}

export function runColMeta(op: OpOf<'ColMeta'>, ws: Worksheet): Worksheet {
  if (!ws.column(op.name)) throw checkError(op.loc, `Unknown column "${op.name}" in <col>.`)
  return ws.withColumns(ws.cols.map((c) => (c.name === op.name ? c.with({ info: infoPatch(op.meta) }) : c)))
}

/**
 * Stable: rows with equal keys keep their order, so consecutive sorts compose.
 * @param limit only the first `limit` rows are read after it (interpret/first-rows.ts): the
 *   worksheet keeps just those
 */
export function runSort(op: OpOf<'Sort'>, ws: Worksheet, limit?: number): Worksheet {
  return runSorts([op], ws, limit)
}

/**
 * Consecutive sorts as one: stable sorts by A then by B order rows by B, ties by A, ties in
 * their order, which is one sort by B's keys then A's. The macro form of `ORDER BY c DESC, k`
 * is such a run (sort by k, then by c), and one sort over every key is one pass where the run
 * was a full sort per key; read by a first-N selection, it is one top-N where only the last sort
 * of the run could be. Columns are looked up in the run's order, so an unknown one fails as the
 * run would.
 * @param tieKeys keys after the sorts' own, one value per worksheet row (tabu.ts tabulateForSorts)
 */
export function runSorts(ops: readonly OpOf<'Sort'>[], ws: Worksheet, limit?: number, tieKeys: readonly SortKey[] = []): Worksheet {
  const perOp = ops.map((op) =>
    op.keys.map((k) => {
      const col = ws.column(k.col)
      if (!col) throw checkError(op.loc, `Unknown column "${k.col}" in <sort>.`)
      return { col: col.data(), desc: k.dir === 'down' }
    }),
  )
  const keys = [...perOp.reverse().flat(), ...tieKeys]
  return ws.selectRows(sortPermutation(keys, ws.rows, undefined, limit))
}
