/**
 * Dictionaries crossing threads by reference (engine/parallel/wire-dictionaries.ts): a result or a
 * task whose coded text holds a dictionary opened from a shared one is posted with that shared
 * dictionary in its place, and comes back as the same strings (the same array, on a thread that
 * opened it before); a dictionary a query made is posted as its strings; nothing posted is changed.
 */
import { expect } from 'chai'
import type { ResultSet, RunTask } from '../../shared/protocol.js'
import { columnMeta } from '../../shared/table.js'
import { isSharedDictionary, openDictionary, shareDictionary } from '../../engine/columns/shared-dictionary.js'
import { resultAfterReceiving, resultForPosting, taskAfterReceiving, taskForPosting } from '../../engine/parallel/wire-dictionaries.js'

const stored = shareDictionary(['', 'Ann', 'Bob', 'Cyd'])
const storedStrings = openDictionary(stored)
const madeByQuery = ['', 'ANN', 'BOB']

function result(): ResultSet {
  return {
    cols: [columnMeta({ name: 'who', type: 'text' }), columnMeta({ name: 'loud', type: 'text' }), columnMeta({ name: 'n', type: 'int' })],
    columns: [
      { kind: 'coded', codes: Int32Array.of(1, 3, 0), dict: storedStrings },
      { kind: 'coded', codes: Int32Array.of(1, 2, 0), dict: madeByQuery },
      { kind: 'int', data: Int32Array.of(1, 2, 3) },
    ],
    rowCount: 3,
  }
}

describe('dictionaries on the wire', () => {
  it('post a stored dictionary as its shared form and a query-made one as strings', () => {
    const r = result()
    const posted = resultForPosting(r)
    const [who, loud] = posted.columns as unknown as { dict: unknown }[]
    expect(isSharedDictionary(who.dict)).to.equal(true)
    expect(loud.dict).to.equal(madeByQuery)
    // The result given is left as it was (a task may be posted again after fair sharing).
    expect((r.columns[0] as { dict: unknown }).dict).to.equal(storedStrings)
  })

  it('give back the same strings after the trip, the very array where this thread opened it', () => {
    const back = resultAfterReceiving(structuredClone(resultForPosting(result())))
    expect(back).to.deep.equal(result())
    expect((back.columns[0] as { dict: unknown }).dict).to.equal(storedStrings)
  })

  it('do the same for the coded dictionaries of an answer (dicts)', () => {
    const answer = { ...result(), dicts: [storedStrings, madeByQuery, null] } as ResultSet
    const posted = resultForPosting(answer) as ResultSet & { dicts: unknown[] }
    expect(isSharedDictionary(posted.dicts[0])).to.equal(true)
    expect(posted.dicts[1]).to.equal(madeByQuery)
    expect(resultAfterReceiving(structuredClone(posted))).to.deep.equal(answer)
  })

  it('carry the group values and partials of a task', () => {
    const task: RunTask = {
      kind: 'run',
      ops: [],
      tables: [],
      maxRows: 10,
      merge: { step: 0, partials: [result(), result()], groupValues: [result()] },
    }
    const posted = taskForPosting(task) as RunTask
    expect(isSharedDictionary((posted.merge!.partials[1].columns[0] as { dict: unknown }).dict)).to.equal(true)
    expect(isSharedDictionary((posted.merge!.groupValues[0].columns[0] as { dict: unknown }).dict)).to.equal(true)
    expect(taskAfterReceiving(structuredClone(posted))).to.deep.equal(task)
    const part: RunTask = { ...task, merge: undefined, part: { start: 0, end: 3, blockRows: 3, phase: 'partials', groupValues: [result()] } }
    expect(taskAfterReceiving(structuredClone(taskForPosting(part)))).to.deep.equal(part)
  })
})
