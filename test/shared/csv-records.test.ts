/**
 * The CLI's chunked upload (cli/csv-chunks.ts over shared/csv/records.ts) against the one CSV
 * reader (shared/csv/read.ts): random CSV texts, with quoted commas, quotes and line breaks, quotes
 * inside unquoted fields, CRLF, LF and lone CR, empty lines, a BOM and a last record without a line
 * break, fed in pieces cut anywhere (inside a CRLF, between doubled quotes), make chunks that each
 * start with the header and that the reader reads, together, as the same rows as the whole text.
 */
import { expect } from 'chai'
import { csvChunks } from '../../cli/csv-chunks.js'
import { readCsv } from '../../shared/csv/read.js'
import { Rng } from '../../engine/columns/random.js'

const FIELDS = ['a', '12', '', ' x ', '"q,1"', '"say ""hi"""', '"two\nlines"', '"cr\r\nlf"', '5" pipe', '""""', '"\r"']
const BREAKS = ['\n', '\r\n', '\r']

// Most files: no quotes and LF line breaks, which the chunker cuts at line breaks alone.
const PLAIN_FIELDS = ['a', '12', '', ' x ', '-3.5', '2024-01-31']

function randomCsv(rng: Rng): string {
  const cols = rng.int(1, 4)
  const plain = rng.chance(0.3)
  const fields = plain ? PLAIN_FIELDS : FIELDS
  const br = plain ? '\n' : rng.pick(BREAKS)
  const header = Array.from({ length: cols }, (_, c) => (rng.chance(0.3) && !plain ? `"c${c}"` : `c${c}`)).join(',')
  const lines = [header]
  for (let r = rng.int(0, 30); r > 0; r--) {
    if (rng.chance(0.05)) lines.push('')
    lines.push(Array.from({ length: cols }, () => rng.pick(fields)).join(','))
  }
  const text = lines.join(br) + (rng.chance(0.5) ? br : '')
  return rng.chance(0.1) ? `\uFEFF${text}` : text
}

async function* pieces(text: string, rng: Rng): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text)
  for (let at = 0; at < bytes.length;) {
    const len = rng.int(1, 9)
    yield bytes.subarray(at, at + len)
    at += len
  }
}

/** Rows (header first) as the reader reads a text. */
function rowsOf(text: string): string[][] {
  const { header, cells } = readCsv(text)
  const n = cells[0]?.length ?? 0
  return [header, ...Array.from({ length: n }, (_, r) => cells.map((c) => c[r]))]
}

describe('CLI upload chunks, cut by the reader grammar', () => {
  it('read back as the whole text, on 300 random CSVs in random pieces', async () => {
    const rng = new Rng(5)
    for (let k = 0; k < 300; k++) {
      const text = randomCsv(rng)
      const whole = rowsOf(text)
      const read: string[][] = []
      let header: string | null = null
      for await (const chunk of csvChunks(pieces(text, rng), { maxChars: rng.int(1, 60), maxRows: rng.chance(0.5) ? rng.int(1, 5) : undefined }, (h) => {
        header = h
      })) {
        const rows = rowsOf(chunk.csv.toString('utf8'))
        expect(rows.length - 1, `no records in ${JSON.stringify(chunk.csv.toString('utf8'))}`).to.be.above(0)
        if (read.length === 0) read.push(rows[0])
        else expect(rows[0]).to.deep.equal(read[0])
        read.push(...rows.slice(1))
      }
      if (whole.length > 1) {
        expect(read, JSON.stringify(text)).to.deep.equal(whole)
        expect(readCsv(header!).header).to.deep.equal(whole[0])
      } else expect(read, JSON.stringify(text)).to.deep.equal([])
    }
  })

  it('says so when the text ends inside a quoted field', async () => {
    const run = async (): Promise<void> => {
      for await (const _ of csvChunks(pieces('a,b\n1,"open\n2,3\n', new Rng(1)), { maxChars: 100 })) void _
    }
    let error: unknown = null
    await run().catch((e: unknown) => (error = e))
    expect(String(error)).to.contain('ends inside a quoted field')
  })
})
