/** Dictionary files parsed a segment at a time (engine/storage/dict-parse.ts) read as JSON.parse reads them. */
import { expect } from 'chai'
import { parseDictionaryFile, SEGMENT_BYTES } from '../../engine/storage/dict-parse.js'

const breathe = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/** Strings full of what could pass for a boundary between entries: quotes, commas, backslashes. */
function trickyDictionary(count: number, seed: number): string[] {
  const pieces = ['","', '\\","', '\\\\","', '\\', '"', ',', 'é', '😀', '\ud800', 'plain text ', '\n']
  let x = seed
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31)
  const out = ['']
  for (let i = 0; i < count; i++) {
    let s = ''
    const n = 1 + (next() % 40)
    for (let k = 0; k < n; k++) s += pieces[next() % pieces.length]
    out.push(s + i)
  }
  return out
}

describe('parseDictionaryFile', () => {
  it('reads a file of several segments whose strings hold "," and backslashes as JSON.parse does', async () => {
    const dict = trickyDictionary(120_000, 7)
    const file = Buffer.from(JSON.stringify(dict))
    expect(file.length).to.be.above(3 * SEGMENT_BYTES)
    expect(await parseDictionaryFile(file, breathe)).to.deep.equal(JSON.parse(file.toString('utf8')))
  })

  it('reads entries longer than a segment, and a file of one entry', async () => {
    const dict = ['', 'x'.repeat(SEGMENT_BYTES + 5), '","'.repeat(SEGMENT_BYTES / 2), 'end']
    expect(await parseDictionaryFile(Buffer.from(JSON.stringify(dict)), breathe)).to.deep.equal(dict)
    expect(await parseDictionaryFile(Buffer.from('[""]'), breathe)).to.deep.equal([''])
  })

  it('refuses what is not an array of strings', async () => {
    for (const bad of ['{}', '[1,2]', '["a",', '', '["a"]x']) {
      const err = await parseDictionaryFile(Buffer.from(bad), breathe).then(
        () => null,
        (e: unknown) => e,
      )
      expect(err, bad).to.be.an('error')
    }
  })
})
