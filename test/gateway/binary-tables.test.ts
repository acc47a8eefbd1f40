import { expect } from 'chai'
import { Bool, Float64, Int32, Int64, Uint64, Utf8, tableFromArrays, tableToIPC, vectorFromArray, Table, DateDay, Binary } from 'apache-arrow'
import { parquetWriteBuffer } from 'hyparquet-writer'
import { AppError } from '../../shared/errors.js'
import { binaryRowsOf, readArrowUpload, readBinaryUpload, readParquetUpload, withFileTypes } from '../../gateway/ingest/binary-tables.js'

const refusal = async (f: () => unknown): Promise<AppError> => {
  try {
    await f()
  } catch (e) {
    if (e instanceof AppError) return e
    throw e
  }
  throw new Error('expected a refusal')
}

const arrowBytes = (table: Table): Uint8Array => tableToIPC(table, 'stream')

describe('gateway/ingest/binary-tables.ts', () => {
  describe('readArrowUpload()', () => {
    it('takes int, bigint, float, text, date and boolean columns, nulls as N/A', () => {
      const table = new Table({
        i: vectorFromArray([1, null, 3], new Int32()),
        b: vectorFromArray([10n, 20n, null], new Int64()),
        f: vectorFromArray([1.5, NaN, null], new Float64()),
        t: vectorFromArray(['x', null, 'z'], new Utf8()),
        d: vectorFromArray([new Date(Date.UTC(2024, 0, 2)), null, new Date(Date.UTC(1999, 11, 31))], new DateDay()),
        ok: vectorFromArray([true, false, null], new Bool()),
      })
      const { cols, data } = readArrowUpload(arrowBytes(table), 'arrow')
      expect(cols).to.deep.equal([
        { name: 'i', type: 'int' },
        { name: 'b', type: 'bigint' },
        { name: 'f', type: 'float' },
        { name: 't', type: 'text' },
        { name: 'd', type: 'date' },
        { name: 'ok', type: 'int' },
      ])
      expect(data.i).to.deep.equal([1, null, 3])
      expect(data.b).to.deep.equal([10n, 20n, null])
      expect(data.f).to.deep.equal([1.5, null, null])
      expect(data.t).to.deep.equal(['x', null, 'z'])
      expect(data.d).to.deep.equal([20240102, null, 19991231])
      expect(data.ok).to.deep.equal([1, 0, null])
    })

    it('keeps a 64-bit integer whole, and refuses one past 2^63 − 1 (an unsigned one) naming the column', async () => {
      const table = new Table({ big: vectorFromArray([2n ** 60n + 1n, -(2n ** 63n - 1n)], new Int64()) })
      expect(readArrowUpload(arrowBytes(table), 'arrow').data.big).to.deep.equal([2n ** 60n + 1n, -(2n ** 63n - 1n)])
      const unsigned = new Table({ big: vectorFromArray([2n ** 64n - 1n], new Uint64()) })
      const e = await refusal(() => readArrowUpload(arrowBytes(unsigned), 'arrow'))
      expect(e.code).to.equal('INVALID_PARAMETER')
      expect(e.message).to.include('Column "big"').and.include('18446744073709551615').and.include('9223372036854775807')
      // −2^63 is a big integer column's N/A: refused too, rather than stored as N/A.
      const min = new Table({ big: vectorFromArray([-(2n ** 63n)], new Int64()) })
      expect((await refusal(() => readArrowUpload(arrowBytes(min), 'arrow'))).message).to.include('-9223372036854775808')
    })

    it('refuses a column type tabula does not store, and bytes that are no Arrow', async () => {
      const table = new Table({ blob: vectorFromArray([new Uint8Array([1, 2])], new Binary()) })
      expect((await refusal(() => readArrowUpload(arrowBytes(table), 'arrow'))).message).to.include('Column "blob"')
      expect((await refusal(() => readArrowUpload(new Uint8Array([1, 2, 3, 4]), 'arrow'))).message).to.include('Arrow upload could not be read')
    })
  })

  describe('readParquetUpload()', () => {
    it('takes a Parquet file written by another library', async () => {
      const bytes = parquetWriteBuffer({
        columnData: [
          { name: 'n', data: [1, 2, null], type: 'INT32' },
          { name: 's', data: ['a', null, 'c'], type: 'STRING' },
          { name: 'x', data: [0.5, 1.5, 2.5], type: 'DOUBLE' },
        ],
      })
      const { cols, data } = await readParquetUpload(new Uint8Array(bytes), 'parquet')
      expect(cols).to.deep.equal([
        { name: 'n', type: 'int' },
        { name: 's', type: 'text' },
        { name: 'x', type: 'float' },
      ])
      expect(data).to.deep.equal({ n: [1, 2, null], s: ['a', null, 'c'], x: [0.5, 1.5, 2.5] })
    })

    it('refuses bytes that are no Parquet file', async () => {
      const e = await refusal(() => readBinaryUpload('parquet', new Uint8Array([80, 65, 82, 49]), 'parquet'))
      expect(e.message).to.include('Parquet upload could not be read')
    })
  })

  describe('binaryRowsOf()', () => {
    const bytes = arrowBytes(tableFromArrays({ a: Int32Array.from([7]) }))

    it('is null without parquet or arrow, and reads either as bytes or base64 text', async () => {
      expect(await binaryRowsOf({}, [])).to.equal(null)
      expect((await binaryRowsOf({ arrow: bytes }, []))?.data.a).to.deep.equal([7])
      expect((await binaryRowsOf({ arrow: Buffer.from(bytes).toString('base64') }, []))?.data.a).to.deep.equal([7])
      expect((await binaryRowsOf({ arrow: Buffer.from(bytes).toString('base64url') }, []))?.data.a).to.deep.equal([7])
    })

    it('refuses rows given twice, and a value that is neither bytes nor base64', async () => {
      expect((await refusal(() => binaryRowsOf({ arrow: bytes }, ['data']))).message).to.include('"arrow" and "data"')
      expect((await refusal(() => binaryRowsOf({ arrow: bytes, parquet: bytes }, []))).message).to.include('"parquet" and "arrow"')
      expect((await refusal(() => binaryRowsOf({ arrow: 'not base64!' }, []))).message).to.include('base64')
      expect((await refusal(() => binaryRowsOf({ arrow: 42 }, []))).detail).to.deep.equal({ parameter: 'arrow' })
    })
  })

  describe('withFileTypes()', () => {
    const decoded = {
      cols: [
        { name: 'Qty', type: 'int' as const },
        { name: 'note', type: 'text' as const },
      ],
      data: {},
    }

    it("is the file's columns when none are declared", () => {
      expect(withFileTypes(decoded, undefined)).to.equal(decoded.cols)
    })

    it("fills in the file's type where a declaration has none, keeping declared types and other fields", () => {
      expect(withFileTypes(decoded, [{ name: 'qty', label: 'Q' }, { name: 'note', type: 'int' }, { name: 'gone' }, 'odd'])).to.deep.equal([
        { name: 'qty', label: 'Q', type: 'int' },
        { name: 'note', type: 'int' },
        { name: 'gone' },
        'odd',
      ])
    })
  })
})
