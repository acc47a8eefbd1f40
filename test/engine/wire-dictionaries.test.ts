/**
 * Dictionaries crossing threads by reference (engine/parallel/wire-dictionaries.ts): a result or a
 * task whose coded text holds a dictionary opened from a shared one is posted with that shared
 * dictionary in its place, and comes back as the same strings (the same array, on a thread that
 * opened it before); a dictionary a query made is posted as its strings, unless it is large, when
 * the worker encodes it into shared memory and the gateway decodes it a slice at a time; nothing
 * posted is changed.
 */
import { expect } from 'chai'
import type { ResultSet, RunTask } from '../../shared/protocol.js'
import { columnMeta } from '../../shared/table.js'
import { isSharedDictionary, openDictionary, shareDictionary } from '../../engine/columns/shared-dictionary.js'
import { SHARED_TEXT_UNITS, resultAfterReceiving, resultForPosting, taskAfterReceiving, taskForPosting } from '../../engine/parallel/wire-dictionaries.js'

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

  it('give back the same strings after the trip, the very array where this thread opened it', async () => {
    const back = await resultAfterReceiving(structuredClone(resultForPosting(result())))
    expect(back).to.deep.equal(result())
    expect((back.columns[0] as { dict: unknown }).dict).to.equal(storedStrings)
  })

  it('do the same for the coded dictionaries of an answer (dicts)', async () => {
    const answer = { ...result(), dicts: [storedStrings, madeByQuery, null] } as ResultSet
    const posted = resultForPosting(answer) as ResultSet & { dicts: unknown[] }
    expect(isSharedDictionary(posted.dicts[0])).to.equal(true)
    expect(posted.dicts[1]).to.equal(madeByQuery)
    expect(await resultAfterReceiving(structuredClone(posted))).to.deep.equal(answer)
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

  describe('large text an answer carries', () => {
    // Entries of every length around the slice size, non-ASCII and a lone surrogate among them.
    const wide = (n: number, fill: string): string => `${n}:`.padEnd(n, fill)
    const bigDict = [
      '',
      'é',
      wide(300_000, 'a'),
      '\ud800x',
      wide(SHARED_TEXT_UNITS, 'b'),
      '',
      'short',
      wide(700_000, 'ü'),
      wide(2 * SHARED_TEXT_UNITS + 3, 'c'),
    ]
    const bigText = Array.from({ length: 40 }, (_, i) => wide(60_000 + i, i % 2 ? 'x' : 'ÿ'))
    function large(): ResultSet {
      return {
        cols: [columnMeta({ name: 'pad', type: 'text' }), columnMeta({ name: 'sql', type: 'text' }), columnMeta({ name: 'tiny', type: 'text' })],
        columns: [
          { kind: 'coded', codes: Int32Array.from(bigDict, (_, i) => i), dict: bigDict },
          { kind: 'text', data: bigText },
          { kind: 'text', data: ['a', 'b'] },
        ],
        rowCount: bigDict.length,
      }
    }

    it('crosses as shared memory the worker encoded, small text still as strings', () => {
      const posted = resultForPosting(large())
      const [pad, sql, tiny] = posted.columns as unknown as { dict?: unknown; data?: unknown }[]
      expect(isSharedDictionary(pad.dict)).to.equal(true)
      expect(isSharedDictionary(sql.data)).to.equal(true)
      expect(tiny.data).to.deep.equal(['a', 'b'])
    })

    it('comes back as the same strings, every entry, code unit for code unit', async () => {
      const back = await resultAfterReceiving(structuredClone(resultForPosting(large())))
      expect(back).to.deep.equal(large())
      const pad = back.columns[0] as { dict: readonly string[] }
      expect(pad.dict[3]).to.equal('\ud800x')
      expect(pad.dict.map((s) => s.length)).to.deep.equal(bigDict.map((s) => s.length))
    })

    it('is decoded with turns of the event loop between slices', async () => {
      const posted = structuredClone(resultForPosting(large()))
      let turns = 0
      let counting = true
      const tick = (): void => {
        turns++
        if (counting) setImmediate(tick)
      }
      setImmediate(tick)
      await resultAfterReceiving(posted)
      counting = false
      // About 8 M code units in slices of 1 M: several turns, where one synchronous decode gives none.
      expect(turns).to.be.at.least(4)
    })

    it('is posted again as the same shared memory, not as strings', async () => {
      const posted = resultForPosting(large())
      const back = await resultAfterReceiving(structuredClone(posted))
      const again = resultForPosting(back)
      const before = (posted.columns[0] as unknown as { dict: { id: string } }).dict.id
      expect((again.columns[0] as unknown as { dict: { id: string } }).dict.id).to.not.equal(undefined)
      // structuredClone gave the receiver a copy of the shared form's id: the same id goes back.
      expect((again.columns[0] as unknown as { dict: { id: string } }).dict.id).to.equal(before)
    })
  })
})
