/**
 * The upload page's CSV chunker (gateway/ui/client/upload-csv.ts), loaded from the build the
 * browser runs: whatever the chunk size, the chunks hold every record once and whole (quoted line
 * breaks, CRLF, characters cut by a slice, empty lines), each starts with the header, and the line
 * it says its rows start at maps a line the service names in a chunk to the line of the file.
 */
import { expect } from 'chai'
import { readCsv } from '../../shared/csv/read.js'

interface Chunk {
  readonly body?: { readonly type: string; readonly bytes: string }
  readonly done: number
  readonly firstLine?: number
}

interface CsvChunker {
  csvChunks(file: Blob, chunkBytes: number): AsyncIterable<Chunk>
  csvColumns(file: Blob): Promise<string[]>
}

async function chunksOf(chunker: CsvChunker, text: string | Uint8Array, size: number): Promise<Chunk[]> {
  const out: Chunk[] = []
  for await (const c of chunker.csvChunks(new Blob([text]), size)) out.push(c)
  return out
}

const FILE = ['\uFEFFid,name,note', '1,Zoë,plain', '', '2,"Smith, J","two\r\nlines"', '3,日本語,"say ""hi"""', '', '', '4,last,€ end'].join('\r\n')

describe('workbench upload: CSV chunks', function () {
  let chunker: CsvChunker

  before(async function () {
    chunker = (await import(new URL('../../ui/upload-csv.js', import.meta.url).href)) as CsvChunker
  })

  it('holds every record once and whole at any chunk size, each chunk headed by the header line', async function () {
    const whole = readCsv(FILE.replace(/^\uFEFF/, ''))
    for (let size = 1; size <= FILE.length + 5; size++) {
      const chunks = await chunksOf(chunker, FILE, size)
      const rows: string[][] = []
      const lines: number[] = []
      for (const c of chunks) {
        expect(c.body?.type).to.match(/^text\/csv/)
        const read = readCsv(c.body!.bytes)
        expect(read.header, `size ${size}`).to.deep.equal(['id', 'name', 'note'])
        for (let r = 0; r < read.cells[0].length; r++) rows.push(read.cells.map((col) => String(col[r])))
        // A line the service names in the chunk, as the line of the file (line 1 of a chunk is the header).
        lines.push(...read.lines.map((l) => c.firstLine! + l - 2))
      }
      const expected = whole.cells[0].map((_, r) => whole.cells.map((col) => String(col[r])))
      expect(rows, `size ${size}`).to.deep.equal(expected)
      expect(lines, `size ${size}`).to.deep.equal(whole.lines)
      expect(chunks.at(-1)!.done).to.equal(1)
    }
  })

  it('reads the column names of the header line', async function () {
    expect(await chunker.csvColumns(new Blob([FILE]))).to.deep.equal(['id', 'name', 'note'])
  })

  it('refuses a file that ends inside a quoted field, and one that is not UTF-8', async function () {
    let err: unknown = null
    await chunksOf(chunker, 'a,b\n1,"open\n2,3\n', 4).catch((e: unknown) => (err = e))
    expect(String(err)).to.contain('never closed')
    err = null
    await chunksOf(chunker, new Uint8Array([0x61, 0x0a, 0xff, 0xfe, 0x0a]), 64).catch((e: unknown) => (err = e))
    expect(String(err)).to.contain('not UTF-8')
  })

  it('sends nothing for a header alone', async function () {
    expect(await chunksOf(chunker, 'a,b\n\n\n', 2)).to.deep.equal([])
  })
})
