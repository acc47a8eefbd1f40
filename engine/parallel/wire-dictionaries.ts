/**
 * Dictionaries cross between threads by reference when they can. The coded text of a part's
 * partials, of merged group values or of an answer usually still holds a stored column's
 * dictionary (a group key read straight from the table), which the structured clone would copy
 * at every hop: 100,000 customers' names, to each part, in each phase of a split g_ query.
 * Before posting, each dictionary array that this thread opened from a shared dictionary is
 * replaced by that shared dictionary (its bytes are shared memory, not copied); after receiving,
 * each is opened again, once per thread and then from its cache, which gives back the very same
 * array, so identity checks between parts' dictionaries still hold. Dictionaries a query made
 * travel as strings. The replacement lives only between the post and the receipt: nothing else
 * ever sees a ResultSet in its posted form.
 *
 * A worker's answer may also carry text the query made that runs to hundreds of megabytes (a
 * save of wide cells, a large export). The structured clone decodes all of it on the receiving
 * thread in one go, which held the gateway's event loop for a second per 200 MB. So a worker
 * posts each such dictionary, and each such column of plain text, as shared memory it encodes
 * itself, and the gateway decodes it with a turn of its event loop between slices.
 */
import type { EngineTask, ResultColumn, ResultSet, RunTask } from '../../shared/protocol.js'
import { setImmediate as nextTurn } from 'node:timers/promises'
import {
  alreadyOpened,
  decodeInSlices,
  isSharedDictionary,
  openDictionary,
  shareDictionary,
  sharedFormOf,
  type SharedDictionary,
} from '../columns/shared-dictionary.js'

type Dict = readonly string[]

function swapColumn(c: ResultColumn, swap: (d: Dict) => Dict): ResultColumn {
  if (c.kind !== 'coded') return c
  const dict = swap(c.dict)
  return dict === c.dict ? c : { ...c, dict }
}

function swapResult(r: ResultSet, swap: (d: Dict) => Dict): ResultSet {
  const columns = r.columns.map((c) => swapColumn(c, swap))
  const dicts = (r as { dicts?: readonly (Dict | null)[] }).dicts
  return dicts === undefined ? { ...r, columns } : ({ ...r, columns, dicts: dicts.map((d) => (d === null ? null : swap(d))) } as ResultSet)
}

// The posted form puts a SharedDictionary where the type says string[]: the casts below are that.
const toPosted = (d: Dict): Dict => (sharedFormOf(d) as unknown as Dict | undefined) ?? d
const toOpened = (d: Dict): Dict => (isSharedDictionary(d) ? openDictionary(d) : d)

function swapTask(task: EngineTask, swap: (d: Dict) => Dict): EngineTask {
  if (task.kind !== 'run' || (task.part?.groupValues === undefined && task.merge === undefined)) return task
  const t: RunTask = task
  return {
    ...t,
    ...(t.part?.groupValues ? { part: { ...t.part, groupValues: t.part.groupValues.map((r) => swapResult(r, swap)) } } : {}),
    ...(t.merge
      ? { merge: { ...t.merge, partials: t.merge.partials.map((r) => swapResult(r, swap)), groupValues: t.merge.groupValues.map((r) => swapResult(r, swap)) } }
      : {}),
  }
}

/**
 * Text of at least this many code units crosses from a worker as shared memory: below it the
 * structured clone takes well under a millisecond and encoding would cost more than it saves.
 */
export const SHARED_TEXT_UNITS = 1024 * 1024

function unitsOf(strings: readonly string[]): number {
  let units = 0
  for (const s of strings) units += s.length
  return units
}

/** On a worker: a dictionary as it is posted with an answer; large ones the query made are encoded. */
const toPostedAnswer = (d: Dict): Dict =>
  (sharedFormOf(d) as unknown as Dict | undefined) ?? (unitsOf(d) >= SHARED_TEXT_UNITS ? (shareDictionary(d) as unknown as Dict) : d)

/** A result as a worker posts it to the gateway. */
export function resultForPosting(r: ResultSet): ResultSet {
  const posted = swapResult(r, toPostedAnswer)
  // A plain text column (an SQL answer's) travels in the same layout as a dictionary of its rows.
  const columns = posted.columns.map((c): ResultColumn =>
    c.kind === 'text' && unitsOf(c.data) >= SHARED_TEXT_UNITS ? { ...c, data: shareDictionary(c.data) as unknown as string[] } : c,
  )
  return { ...posted, columns }
}

/** The strings of a posted dictionary or text column: decoded in slices when the worker encoded them, else as toOpened. */
async function opened(d: Dict): Promise<Dict> {
  if (!isSharedDictionary(d)) return d
  const shared = d as SharedDictionary
  return alreadyOpened(shared) ?? (shared.units.byteLength < SHARED_TEXT_UNITS * 2 ? openDictionary(shared) : decodeInSlices(shared, nextTurn))
}

/**
 * A result as the gateway receives it from a worker, every dictionary and text column as strings,
 * large ones decoded a slice at a time so that other requests are served meanwhile.
 */
export async function resultAfterReceiving(r: ResultSet): Promise<ResultSet> {
  const columns: ResultColumn[] = []
  for (const c of r.columns) {
    if (c.kind === 'coded') columns.push({ ...c, dict: await opened(c.dict) })
    else if (c.kind === 'text') columns.push({ ...c, data: await opened(c.data) })
    else columns.push(c)
  }
  const dicts = (r as { dicts?: readonly (Dict | null)[] }).dicts
  if (dicts === undefined) return { ...r, columns }
  const openedDicts: (Dict | null)[] = []
  for (const d of dicts) openedDicts.push(d === null ? null : await opened(d))
  return { ...r, columns, dicts: openedDicts } as ResultSet
}

/** A task as it is posted to a worker (the results it carries). */
export const taskForPosting = (t: EngineTask): EngineTask => swapTask(t, toPosted)
/** A task as a worker received it, every dictionary as strings. */
export const taskAfterReceiving = (t: EngineTask): EngineTask => swapTask(t, toOpened)
