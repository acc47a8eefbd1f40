import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import { NA_INT } from '../../shared/table.js'
import type { DemoTable } from '../../engine/demo/index.js'
import { makeRetailDemo, Rng, STORE_COUNT, subSeed, weights } from '../../engine/demo/index.js'
import { isYmd, validateTable } from '../../engine/storage/index.js'

/** The values of a named column. */
function col<T extends Int32Array | Float64Array | readonly string[]>(table: DemoTable, name: string): T {
  const i = table.columns.findIndex((c) => c.name === name)
  expect(i, `column ${name} of ${table.path}`).to.be.at.least(0)
  return table.data[i] as T
}

/** Bytes of every typed column and the strings of every text column, for exact comparison. */
function fingerprint(tables: DemoTable[]): unknown[] {
  return tables.map((t) => [
    t.path,
    t.columns,
    t.data.map((d) => (ArrayBuffer.isView(d) ? Buffer.from(d.buffer, d.byteOffset, d.byteLength).toString('base64') : d)),
  ])
}

describe('engine/demo', function () {
  this.timeout(60_000)

  describe('Rng', () => {
    it('repeats the same stream for the same seed and a different one for another seed', () => {
      const draw = (seed: number) => {
        const rng = new Rng(seed)
        return Array.from({ length: 50 }, () => rng.next())
      }
      expect(draw(7)).to.deep.equal(draw(7))
      expect(draw(7)).to.not.deep.equal(draw(8))
      expect(draw(7).every((x) => x >= 0 && x < 1)).to.equal(true)
    })

    it('draws integers within both bounds and weighted indexes in proportion', () => {
      const rng = new Rng(1)
      const seen = new Set<number>()
      for (let i = 0; i < 1000; i++) seen.add(rng.int(3, 6))
      expect([...seen].sort()).to.deep.equal([3, 4, 5, 6])
      const counts = [0, 0, 0]
      const table = weights([1, 0, 3])
      for (let i = 0; i < 40_000; i++) counts[rng.weighted(table)]++
      expect(counts[1]).to.equal(0)
      expect(counts[2] / counts[0]).to.be.within(2.7, 3.3)
    })

    it('derives different sub-seeds for different streams', () => {
      expect(subSeed(1, 1)).to.not.equal(subSeed(1, 2))
      expect(subSeed(1, 1)).to.not.equal(subSeed(2, 1))
    })
  })

  describe('makeRetailDemo()', () => {
    const ROWS = 20_000
    const [item, products, stores] = makeRetailDemo({ rows: ROWS, seed: 42 })

    it('produces the item, products and stores tables in that order', () => {
      expect([item.path, products.path, stores.path]).to.deep.equal(['pub.demo.retail.item', 'pub.demo.retail.products', 'pub.demo.retail.stores'])
      expect(item.columns.map((c) => c.name)).to.deep.equal(['trans', 'date', 'store', 'sku', 'customer', 'qty', 'sales', 'cost', 'payment'])
      expect(products.columns.map((c) => c.name)).to.deep.equal(['sku', 'description', 'dept', 'deptdesc', 'group', 'groupdesc', 'brand', 'price'])
      expect(stores.columns.map((c) => c.name)).to.deep.equal(['store', 'city', 'state', 'region', 'sqft', 'opened'])
    })

    it('gives byte-identical tables for the same seed and different ones for another seed', () => {
      const again = makeRetailDemo({ rows: ROWS, seed: 42 })
      expect(fingerprint(again)).to.deep.equal(fingerprint([item, products, stores]))
      const other = makeRetailDemo({ rows: ROWS, seed: 43 })
      expect(fingerprint(other)).to.not.deep.equal(fingerprint([item, products, stores]))
    })

    it('has as many rows as requested and valid tables for the storage layer', () => {
      expect(validateTable(item.columns, item.data)).to.equal(ROWS)
      expect(validateTable(products.columns, products.data)).to.equal(2_000)
      expect(validateTable(stores.columns, stores.data)).to.equal(STORE_COUNT)
    })

    it('sizes the products table between 50 and 10,000 rows', () => {
      const size = (rows: number) => makeRetailDemo({ rows })[1].data[0].length
      expect(size(0)).to.equal(50)
      expect(size(100)).to.equal(50)
      expect(size(150_000)).to.equal(10_000)
      expect(makeRetailDemo({ rows: 0 })[0].data.every((d) => d.length === 0)).to.equal(true)
    })

    it('only refers to skus that exist in products and stores that exist in stores', () => {
      const skus = new Set(col<Int32Array>(products, 'sku'))
      expect(skus.size).to.equal(products.data[0].length)
      expect(col<Int32Array>(item, 'sku').every((s) => skus.has(s))).to.equal(true)
      const storeIds = new Set(col<Int32Array>(stores, 'store'))
      expect(storeIds.size).to.equal(STORE_COUNT)
      expect(col<Int32Array>(item, 'store').every((s) => storeIds.has(s))).to.equal(true)
    })

    it('dates every item within 2024-2025 with valid dates that never go back as transactions go on', () => {
      const date = col<Int32Array>(item, 'date')
      const trans = col<Int32Array>(item, 'trans')
      expect(date.every(isYmd)).to.equal(true)
      expect(date[0]).to.equal(20240101)
      expect(date[ROWS - 1]).to.equal(20251231)
      // Checked row by row, reported once: the first row that breaks the rule (-1 if none).
      const firstBad = (ok: (r: number) => boolean) => {
        for (let r = 1; r < ROWS; r++) if (!ok(r)) return r
        return -1
      }
      expect(firstBad((r) => trans[r] - trans[r - 1] === 0 || trans[r] - trans[r - 1] === 1)).to.equal(-1)
      expect(firstBad((r) => date[r] >= date[r - 1])).to.equal(-1)
      expect(col<Int32Array>(stores, 'opened').every(isYmd)).to.equal(true)
    })

    it('keeps quantities in 1..10, money in whole cents and sales at most the undiscounted price', () => {
      const qty = col<Int32Array>(item, 'qty')
      const sales = col<Float64Array>(item, 'sales')
      const cost = col<Float64Array>(item, 'cost')
      const sku = col<Int32Array>(item, 'sku')
      const priceOf = new Map<number, number>()
      col<Int32Array>(products, 'sku').forEach((s, i) => priceOf.set(s, col<Float64Array>(products, 'price')[i]))
      const cents = (x: number) => Math.round(x * 100) / 100 === x
      const bad: number[] = []
      for (let r = 0; r < ROWS; r++) {
        const ok = qty[r] >= 1 && qty[r] <= 10 && cents(sales[r]) && cents(cost[r]) && sales[r] <= qty[r] * priceOf.get(sku[r])! + 0.005 && cost[r] > 0
        if (!ok) bad.push(r)
      }
      expect(bad, 'rows breaking a rule').to.deep.equal([])
      expect(qty.filter((q) => q === 1).length).to.be.greaterThan(qty.filter((q) => q === 5).length)
    })

    it('mixes N/A into customer and payment, and uses only the four payment types', () => {
      const customer = col<Int32Array>(item, 'customer')
      const payment = col<string[]>(item, 'payment')
      const naCustomers = customer.filter((c) => c === NA_INT).length
      expect(naCustomers).to.be.within(ROWS * 0.1, ROWS * 0.3)
      expect(customer.every((c) => c === NA_INT || c >= 1)).to.equal(true)
      expect(new Set(payment)).to.deep.equal(new Set(['', 'cash', 'credit', 'debit', 'gift']))
    })

    it('gives stores a two-letter state and one of the four regions', () => {
      expect(col<string[]>(stores, 'state').every((s) => /^[A-Z]{2}$/.test(s))).to.equal(true)
      const regions = new Set(col<string[]>(stores, 'region'))
      expect([...regions].every((r) => ['Northeast', 'South', 'Midwest', 'West'].includes(r))).to.equal(true)
    })

    it('labels and formats the money and date columns', () => {
      const spec = (name: string) => item.columns.find((c) => c.name === name)!
      expect(spec('sales')).to.include({ label: 'Sales ($)', format: 'type:currency;dec:2' })
      expect(spec('date')).to.include({ format: 'type:date' })
      expect(spec('trans').label).to.equal('Transaction ID')
    })

    it('rejects a negative or fractional row count', () => {
      expect(() => makeRetailDemo({ rows: -1 })).to.throw(AppError)
      expect(() => makeRetailDemo({ rows: 1.5 })).to.throw(AppError)
    })
  })
})
