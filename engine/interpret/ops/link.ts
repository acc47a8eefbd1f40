/**
 * `<link>`: each row of the worksheet is matched to the FIRST row of the foreign worksheet (after
 * the link's own operations) whose keys are equal, N/A matching N/A; `asof` matches the last key
 * by order instead (columns/asof-lookup.ts) and keeps every row, as the plain link does. The plain link keeps every
 * row and pads unmatched ones with N/A; select keeps matched rows; include and exclude keep the
 * matched or unmatched rows and add no columns; expand repeats a row once per match
 * (link-expand.ts).
 */
import type { Op, OpOf } from '../../ast.js'
import { asofLookup, firstIndexLookup, groupBy, lookupCode } from '../../columns/index.js'
import { sqlDeclined } from '../../task/outcome.js'
import { NA_BIGINT, NA_INT, type Column } from '../../columns/types.js'
import { checkError } from '../../check/errors.js'
import type { Worksheet, WsColumn } from '../worksheet.js'
import { expandMatches } from './link-expand.js'

/** Text keys from two dictionaries become codes of the foreign dictionary (-2: absent there). */
function alignKeys(mine: Column, theirs: Column): [Column, Column] {
  if (mine.type === 'text' && theirs.type === 'text') {
    if (mine.dict === theirs.dict) return [mine, theirs]
    const map = Int32Array.from(mine.dict, (s) => (s === '' ? 0 : lookupCode(theirs.dict, s)))
    const codes = mine.codes.map((c) => (map[c] < 0 ? -2 : map[c]))
    return [
      { type: 'int', data: codes },
      { type: 'int', data: theirs.codes },
    ]
  }
  // Numbers of different types are brought to one by the lookup (columns/lookup.ts alignTypes).
  return [mine, theirs]
}

function keyColumn(ws: Worksheet, name: string, op: Op, where: string): Column {
  const c = ws.column(name)
  if (!c) throw checkError(op.loc, `Unknown column "${name}" in ${where} (<link>).`)
  return c.data()
}

export function runLink(op: OpOf<'Link'>, ws: Worksheet, foreign: Worksheet): Worksheet {
  const pairs = op.col.map((c, i) => alignKeys(keyColumn(ws, c, op, 'the worksheet'), keyColumn(foreign, op.col2[i], op, op.table2)))
  const { match, distinct } =
    op.type === 'asof'
      ? {
          match: asofLookup(
            pairs.map((p) => p[1]),
            foreign.rows,
            pairs.map((p) => p[0]),
            ws.rows,
          ),
          distinct: 0,
        }
      : firstIndexLookup(
          pairs.map((p) => p[1]),
          foreign.rows,
          pairs.map((p) => p[0]),
          ws.rows,
        )
  // An SQL join: a key that repeats declines the plan; a row whose key is N/A matches nothing,
  // which matters only when the foreign table has N/A keys: a row that found one of those had an
  // N/A key itself (N/A matched N/A).
  const foreignPresent = op.sqlJoin === true ? sqlJoinCheck(op, pairs, foreign, distinct) : null
  if (foreignPresent !== null) for (let i = 0; i < match.length; i++) if (match[i] >= 0 && foreignPresent[match[i]] === 0) match[i] = -1
  if (op.type === 'include' || op.type === 'exclude') return ws.selectRows(rowsWhere(match, op.type === 'include'))
  let base = ws
  let index = match
  if (op.type === 'expand') {
    const expanded = expandMatches(
      match,
      pairs.map((p) => p[1]),
      foreign.rows,
      op.loc,
    )
    base = ws.selectRows(expanded.rows)
    index = expanded.index
  }
  // An inner join where every row found its match (a foreign key into a dimension, the usual
  // case) keeps the worksheet as it is.
  if (op.type === 'select' && !everyRowMatched(match)) {
    const kept = rowsWhere(match, true)
    base = ws.selectRows(kept)
    index = new Int32Array(kept.length)
    for (let i = 0; i < kept.length; i++) index[i] = match[kept[i]]
  }
  const names = op.cols ?? foreign.cols.filter((c) => c.visible && (op.keepcols === true || !op.col2.includes(c.name))).map((c) => c.name)
  const composed = new Map<Int32Array | null, Int32Array>()
  const added: WsColumn[] = names.map((name) => {
    const c = foreign.column(name)
    if (!c) throw checkError(op.loc, `Unknown column "${name}" in ${op.table2} (cols of <link>).`)
    const newName = name + op.suffix
    if (base.column(newName)) throw checkError(op.loc, `<link> would add a second column named "${newName}"; set suffix="…" or choose cols.`)
    return c.reindex(index, composed).with({ name: newName, visible: true })
  })
  return base.withColumns([...base.cols, ...added])
}

/**
 * Declines the plan when a present key repeats in the foreign table. Answers which foreign rows
 * have every key present (1), or null when all do. `distinct`: the foreign table's different
 * keys, N/A counted as a key (the lookup's).
 */
function sqlJoinCheck(op: OpOf<'Link'>, pairs: readonly [Column, Column][], foreign: Worksheet, distinct: number): Uint8Array | null {
  const present = keysPresent(
    op.col2.map((c) => keyColumn(foreign, c, op, op.table2)),
    foreign.rows,
  )
  const all = present.count === foreign.rows
  // With no N/A key the lookup has counted them already; otherwise the present keys are counted alone.
  const distinctPresent = all
    ? distinct
    : groupBy(
        pairs.map((p) => p[1]),
        foreign.rows,
        present.mask,
      ).count
  if (distinctPresent < present.count) throw sqlDeclined('a join key that repeats in the joined table')
  return all ? null : present.mask
}

/** 1 for each row whose keys are all present (not N/A), and how many such rows. */
function keysPresent(keys: readonly Column[], rows: number): { mask: Uint8Array; count: number } {
  const mask = new Uint8Array(rows).fill(1)
  for (const k of keys) {
    if (k.type === 'float') for (let i = 0; i < rows; i++) mask[i] &= +(k.data[i] === k.data[i])
    else if (k.type === 'bigint') for (let i = 0; i < rows; i++) mask[i] &= +(k.data[i] !== NA_BIGINT)
    else if (k.type === 'text') for (let i = 0; i < rows; i++) mask[i] &= +(k.codes[i] !== 0)
    else for (let i = 0; i < rows; i++) mask[i] &= +(k.data[i] !== NA_INT)
  }
  let count = 0
  for (let i = 0; i < rows; i++) count += mask[i]
  return { mask, count }
}

function everyRowMatched(match: Int32Array): boolean {
  for (let i = 0; i < match.length; i++) if (match[i] < 0) return false
  return true
}

/** The rows that found a match (`matched`) or did not, counted first so the answer is one typed array. */
function rowsWhere(match: Int32Array, matched: boolean): Int32Array {
  const want = matched ? 1 : 0
  let n = 0
  for (let i = 0; i < match.length; i++) n += +(match[i] >= 0) === want ? 1 : 0
  const out = new Int32Array(n)
  for (let i = 0, k = 0; i < match.length; i++) if (+(match[i] >= 0) === want) out[k++] = i
  return out
}
