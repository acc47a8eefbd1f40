import { expect } from 'chai'
import { chunkCsvInput } from '../../gateway/ingest/chunk-csv.js'
import type { ChunkText } from '../../shared/csv/chunk-text.js'

// Code 0 is N/A (an empty cell); code k is values[k - 1].
const textOf = (c: ChunkText): string[] => Array.from(c.codes, (code) => (code === 0 ? '' : c.values[code - 1]))

const refusal = (f: () => unknown): string => {
  try {
    f()
  } catch (e) {
    return (e as Error).message
  }
  throw new Error('expected a refusal')
}

describe('gateway/ingest/chunk-csv.ts: chunkCsvInput()', () => {
  it('reads a chunk as its header names it, typing each column', () => {
    const { columns, data } = chunkCsvInput('id,price,name\n1,2.5,ann\n2,3,bob\n', undefined)
    expect(columns.map((c) => c.name)).to.deep.equal(['id', 'price', 'name'])
    expect(columns.map((c) => c.type)).to.deep.equal(['int', 'float', 'text'])
    expect(Array.from(data[0] as Int32Array)).to.deep.equal([1, 2])
    expect(Array.from(data[1] as Float64Array)).to.deep.equal([2.5, 3])
    expect(textOf(data[2] as ChunkText)).to.deep.equal(['ann', 'bob'])
  })

  it("puts the columns in the upload's order and takes its types, matching the header without case", () => {
    const { columns, data } = chunkCsvInput('NAME,Id\nann,7\n', [{ name: 'id', type: 'float' }, { name: 'name' }])
    expect(columns).to.deep.equal([
      { name: 'id', type: 'float' },
      { name: 'name', type: 'text' },
    ])
    expect(data[0]).to.be.instanceOf(Float64Array)
    expect(Array.from(data[0] as Float64Array)).to.deep.equal([7])
  })

  it("refuses a header that does not name exactly the upload's columns", () => {
    expect(refusal(() => chunkCsvInput('id,extra\n1,2\n', [{ name: 'id' }]))).to.include('has a column "extra" that the upload does not have')
    expect(refusal(() => chunkCsvInput('id\n1\n', [{ name: 'id' }, { name: 'name' }]))).to.include('no column "name"')
  })

  it('refuses bad and duplicate column names', () => {
    expect(refusal(() => chunkCsvInput('id,2nd\n1,2\n', undefined))).to.include('Invalid column name "2nd" (column 2')
    expect(refusal(() => chunkCsvInput('id,ID\n1,2\n', undefined))).to.include('Duplicate column names: "id" and "ID"')
  })

  it('names the column, type, line and value of a value of the wrong type', () => {
    const message = refusal(() => chunkCsvInput('id\n1\n2\nthree\n', [{ name: 'id', type: 'int' }]))
    expect(message).to.include('column "id" (int) on line 4').and.include('"three"')
  })
})
