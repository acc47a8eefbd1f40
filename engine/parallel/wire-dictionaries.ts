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
 */
import type { EngineTask, ResultColumn, ResultSet, RunTask } from '../../shared/protocol.js'
import { isSharedDictionary, openDictionary, sharedFormOf } from '../columns/shared-dictionary.js'

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

/** A result as it is posted to another thread. */
export const resultForPosting = (r: ResultSet): ResultSet => swapResult(r, toPosted)
/** A result as received from another thread, every dictionary as strings. */
export const resultAfterReceiving = (r: ResultSet): ResultSet => swapResult(r, toOpened)
/** A task as it is posted to a worker (the results it carries). */
export const taskForPosting = (t: EngineTask): EngineTask => swapTask(t, toPosted)
/** A task as a worker received it, every dictionary as strings. */
export const taskAfterReceiving = (t: EngineTask): EngineTask => swapTask(t, toOpened)
