/**
 * Text dictionaries in shared memory (engine/columns/shared-dictionary.ts): what a worker decodes
 * is exactly what the gateway encoded, whatever the strings, and a worker keeps one decoding per
 * encoding, within its budget.
 */
import { expect } from 'chai'
import { Worker } from 'node:worker_threads'
import { Rng } from '../../engine/columns/random.js'
import { alreadyOpened, KeptDictionaries, openDictionary, shareDictionary, type SharedDictionary } from '../../engine/columns/shared-dictionary.js'
import { columnsOf, makeTable, runXml } from '../helpers/engine.js'

/** Strings of every kind: empty, ASCII, accents, CJK, emoji (surrogate pairs) and lone surrogates. */
function randomStrings(rng: Rng, n: number): string[] {
  const pieces = ['', 'a', 'North', 'é', '漢字', '😀', '\ud800', '\udfff', ' ', '"q"', '\n', 'x'.repeat(40)]
  const out = ['']
  for (let i = 1; i < n; i++) {
    let s = ''
    const parts = Math.floor(rng.next() * 4)
    for (let k = 0; k < parts; k++) s += pieces[Math.floor(rng.next() * pieces.length)]
    out.push(s)
  }
  return out
}

describe('shared dictionaries', () => {
  it('decode to exactly the strings encoded, over random strings of every kind', () => {
    const rng = new Rng(19)
    for (const n of [1, 2, 17, 5000]) {
      const dict = randomStrings(rng, n)
      const shared = shareDictionary(dict)
      expect(shared.size).to.equal(n)
      // A structured clone is what posting a task to a worker does to it.
      expect(new KeptDictionaries(1 << 20).open(structuredClone(shared))).to.deep.equal(dict)
    }
  })

  it('decode on another thread without copying the bytes', async () => {
    const dict = ['', 'North', 'South', '漢字', '😀']
    const shared = shareDictionary(dict)
    const url = new URL('../../engine/columns/shared-dictionary.js', import.meta.url).href
    const code = `
      const { parentPort, workerData } = require('node:worker_threads')
      import(${JSON.stringify(url)}).then((m) => {
        const first = m.openDictionary(workerData)
        // Written here, seen by the test's thread: the bytes are shared, not copied.
        Buffer.from(workerData.units).write('n', 0, 'utf16le')
        parentPort.postMessage({ strings: first, same: m.openDictionary(workerData) === first })
      })`
    const answer = await new Promise<{ strings: string[]; same: boolean }>((resolve, reject) => {
      const w = new Worker(code, { eval: true, workerData: shared })
      w.once('message', (m) => {
        resolve(m as { strings: string[]; same: boolean })
        void w.terminate()
      })
      w.once('error', reject)
    })
    expect(answer).to.deep.equal({ strings: dict, same: true })
    expect(openDictionary(shared)[1]).to.equal('north')
  })

  it('give the same array for the same encoding, and a new id to every encoding', () => {
    const a = shareDictionary(['', 'x', 'y'])
    const b = shareDictionary(['', 'x', 'y'])
    expect(a.id).to.not.equal(b.id)
    const kept = new KeptDictionaries(1 << 20)
    const first = kept.open(structuredClone(a))
    expect(kept.open(structuredClone(a))).to.equal(first)
    expect(kept.open(b)).to.not.equal(first)
    expect(kept.stats).to.deep.equal({ count: 2, units: 4 })
  })

  it('keep at most their budget of code units, giving up the least recently used first', () => {
    const kept = new KeptDictionaries(10)
    const d = (s: string): SharedDictionary => shareDictionary(['', s])
    const [a, b, c] = [d('aaaa'), d('bbbb'), d('cccc')]
    const aStrings = kept.open(a)
    kept.open(b)
    kept.open(a) // a is now the most recently used
    kept.open(c) // 12 units > 10: b goes
    expect(kept.stats).to.deep.equal({ count: 2, units: 8 })
    expect(kept.open(a)).to.equal(aStrings)
    // Larger than the whole budget: decoded, answered, not kept.
    const big = d('z'.repeat(11))
    expect(kept.open(big)).to.deep.equal(['', 'z'.repeat(11)])
    expect(kept.stats.count).to.equal(2)
  })

  it("are decoded only for the columns a query reads (issue 39: a wide table's every dictionary was decoded by every query)", () => {
    const table = makeTable('pub.w.t', [
      { name: 'n', type: 'int', values: [1, 2, 3, 2] },
      { name: 'url', type: 'text', values: ['a.com', 'b.com', null, 'a.com'] },
      { name: 'title', type: 'text', values: ['A', 'B', 'C', 'D'] },
    ])
    const [url, title] = [table.columns[1].dict!, table.columns[2].dict!]
    const count = runXml('<base table="pub.w.t"/><sel value="n=2"/><tabu><tcol fun="cnt" name="c"/></tabu>', [table])
    expect(columnsOf(count)).to.deep.equal({ c: [2] })
    expect(alreadyOpened(url), 'url').to.equal(undefined)
    expect(alreadyOpened(title), 'title').to.equal(undefined)
    const urls = runXml('<base table="pub.w.t"/><sel value="n=2"/><colord cols="url"/>', [table])
    expect(columnsOf(urls)).to.deep.equal({ url: ['b.com', 'a.com'] })
    expect(alreadyOpened(url)).to.deep.equal(['', 'a.com', 'b.com'])
    expect(alreadyOpened(title), 'title').to.equal(undefined)
  })

  it('hold only N/A for a text column stored without one', () => {
    expect(new KeptDictionaries(10).open(shareDictionary(['']))).to.deep.equal([''])
  })
})
