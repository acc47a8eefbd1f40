/**
 * bench:engine's same-shape variants (bench/queries.ts SAME_SHAPE) over the benchmark tables at
 * 20,000 rows: each variant's answer, from our engine and from DuckDB, agrees between the two and
 * with the all-rows answer it asks again (bench/same-shape.ts), and that check tells a variant
 * that computes something else, or sorts otherwise, from a faithful one.
 */
import { expect } from 'chai'
import { makeBenchData, toTableInput } from '../../bench/data.js'
import { compareDigests, type Digest } from '../../bench/digest.js'
import { DuckDb, DuckTarget, loadDuckDb } from '../../bench/duck.js'
import { OursTarget } from '../../bench/ours.js'
import { QUERIES, SAME_SHAPE, type BenchQuery, type SameShapeQuery } from '../../bench/queries.js'
import { compareWithAllRows } from '../../bench/same-shape.js'
import type { Target } from '../../bench/target.js'

const ROWS = 20_000

async function answer(t: Target, q: BenchQuery): Promise<Digest> {
  await t.before?.()
  await t.run(q)
  const d = await t.digest(q)
  await t.release()
  return d
}

describe('bench:engine same-shape variants at 20,000 rows', function () {
  this.timeout(60_000)
  const data = makeBenchData(ROWS)
  const ours = new OursTarget([data.item, data.products, data.stores].map(toTableInput))
  let db: DuckDb
  let duck: DuckTarget
  const allRows = new Map<string, Digest>()

  before(async () => {
    const loaded = await loadDuckDb()
    if (!('api' in loaded)) throw new Error(`DuckDB is needed for this test: ${loaded.error}`)
    db = await DuckDb.open(loaded.api)
    for (const t of [data.item, data.products, data.stores]) await db.load(t)
    duck = new DuckTarget(db, 1, 'DuckDB')
    for (const name of new Set(SAME_SHAPE.map((q) => q.of)))
      allRows.set(
        name,
        await answer(
          ours,
          QUERIES.find((q) => q.name === name)!,
        ),
      )
  })

  after(() => db?.close())

  it('covers every all-rows query: willbe, gsum, link, sort', () => {
    expect([...new Set(SAME_SHAPE.map((q) => q.of))].sort()).to.deep.equal(['gsum', 'link', 'sort', 'willbe'])
  })

  for (const q of SAME_SHAPE) {
    it(`${q.name}: ours and DuckDB agree, and with the all-rows ${q.of} answer`, async () => {
      const mine = await answer(ours, q)
      const theirs = await answer(duck, q)
      expect(compareDigests(theirs, mine)).to.deep.equal([])
      expect(mine.rows).to.equal(q.shape === 'cols' ? ROWS : 1)
      expect(compareWithAllRows(q, mine, allRows.get(q.of)!)).to.deep.equal([])
      expect(compareWithAllRows(q, theirs, allRows.get(q.of)!)).to.deep.equal([])
    })
  }

  it('tells a variant that computes another value from the all-rows answer', async () => {
    const base = SAME_SHAPE.find((q) => q.name === 'willbe.sum')!
    const wrong: SameShapeQuery = { ...base, xml: base.xml.replace('value="sales-cost"', 'value="sales+cost"') }
    const diffs = compareWithAllRows(wrong, await answer(ours, wrong), allRows.get('willbe')!)
    expect(diffs.join('\n')).to.contain('the sum of margin in the all-rows answer is')
  })

  it('tells the sorted columns in another order from the all-rows answer', async () => {
    const base = SAME_SHAPE.find((q) => q.name === 'sort.cols')!
    const wrong: SameShapeQuery = { ...base, xml: base.xml.replace('dir="up"', 'dir="down"') }
    const diffs = compareWithAllRows(wrong, await answer(ours, wrong), allRows.get('sort')!)
    expect(diffs.join('\n')).to.contain('rows in another order')
  })
})
