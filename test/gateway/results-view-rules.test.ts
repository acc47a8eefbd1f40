/**
 * The result view's pure rules, loaded from the very bundles the browser runs (dist/ui): how a
 * header click rewrites the query (sort.ts), which columns the totals row sums and how it adds
 * and shows them (totals.ts, through the server's display code bundled in), and how the start
 * of a truncate_=1 answer is read (query-runner.ts).
 */
import { expect } from 'chai'

interface Column {
  readonly name: string
  readonly label: string
  readonly type: 'i' | 'j' | 'f' | 'a' | null
  readonly format: string
}
type Order = { index: number; name: string; dir: 'up' | 'down' }
interface SortModule {
  nextSort(current: Order | null, index: number, name: string): Order
  sortedQuery(app: 'sql' | 'run', text: string, order: Order | null): string
  withoutFinalSemicolon(text: string): string
}
interface TotalsModule {
  tabulationBreaks(app: 'sql' | 'run', text: string): Set<string>
  isSummed(column: Column, index: number, numeric: boolean, breaks: ReadonlySet<string>): boolean
  columnTotal(values: readonly unknown[]): number | bigint | null
  totalText(total: number | bigint | null, column: Column): string
}

const UI = new URL('../../ui/', import.meta.url)
const load = async <T>(name: string): Promise<T> => (await import(new URL(name, UI).href)) as T
const col = (name: string, type: Column['type'], format = ''): Column => ({ name, label: name, type, format })

describe('result view rules (the browser bundles)', () => {
  let sort: SortModule
  let totals: TotalsModule
  before(async () => {
    sort = await load<SortModule>('sort.js')
    totals = await load<TotalsModule>('totals.js')
  })

  it('a header click sorts up, a second click on it down, another column up again', () => {
    const up = sort.nextSort(null, 2, 'sales')
    expect(up).to.deep.equal({ index: 2, name: 'sales', dir: 'up' })
    expect(sort.nextSort(up, 2, 'sales').dir).to.equal('down')
    expect(sort.nextSort(sort.nextSort(up, 2, 'sales'), 2, 'sales').dir).to.equal('up')
    expect(sort.nextSort(up, 0, 'trans')).to.deep.equal({ index: 0, name: 'trans', dir: 'up' })
  })

  it('appends <sort> to a macro query and wraps an SQL one, ordering by position', () => {
    expect(sort.sortedQuery('run', '<base table="t"/>\n', { index: 1, name: 'a"b', dir: 'down' })).to.equal(
      '<base table="t"/>\n<sort col="a&quot;b" dir="down"/>',
    )
    expect(sort.sortedQuery('sql', 'select a, a from t -- end', { index: 1, name: 'a_2', dir: 'up' })).to.equal(
      'select * from (\nselect a, a from t -- end\n) order by 2',
    )
    expect(sort.sortedQuery('sql', 'select 1;  -- one\n/* c */ ', { index: 0, name: 'x', dir: 'down' })).to.equal(
      'select * from (\nselect 1\n) order by 1 desc',
    )
    expect(sort.sortedQuery('run', 'q', null)).to.equal('q')
    // A semicolon inside a string is the query's own: left for the server to judge.
    expect(sort.withoutFinalSemicolon("select 'a; -- b'")).to.equal("select 'a; -- b'")
  })

  it('finds the break columns of a tabulation, macro or SQL', () => {
    expect([...totals.tabulationBreaks('run', '<base table="t"/><tabu breaks="x"/><tabu breaks="Store, region"><tcol/></tabu>')]).to.deep.equal([
      'store',
      'region',
    ])
    expect([...totals.tabulationBreaks('run', '<base table="t"/><sort col="a"/>')]).to.deep.equal([])
    expect([...totals.tabulationBreaks('sql', 'select store, sum(x) from t group by t.store, 2 order by 1')]).to.deep.equal(['store', '#2'])
    expect([...totals.tabulationBreaks('sql', 'select * from t')]).to.deep.equal([])
  })

  it('sums numbers but not text, dates and times, or break columns', () => {
    const breaks = new Set(['store', '#3'])
    expect(totals.isSummed(col('sales', 'f'), 1, true, breaks)).to.equal(true)
    expect(totals.isSummed(col('store', 'i'), 0, true, breaks)).to.equal(false)
    expect(totals.isSummed(col('n', null), 2, true, breaks), 'SQL group by 3').to.equal(false)
    expect(totals.isSummed(col('date', 'i', 'type:date;width:8'), 3, true, breaks)).to.equal(false)
    expect(totals.isSummed(col('t', 'i', 'type:hms24'), 3, true, breaks)).to.equal(false)
    expect(totals.isSummed(col('city', 'a'), 4, false, breaks)).to.equal(false)
  })

  it('adds whole numbers exactly and floats without drift, skipping N/A', () => {
    expect(totals.columnTotal([1, 2, null, 3])).to.equal(6)
    expect(totals.columnTotal([Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER])).to.equal(2n * BigInt(Number.MAX_SAFE_INTEGER))
    expect(totals.columnTotal([0.1, 0.2])).to.equal(0.3)
    expect(totals.columnTotal([1, 0.5, '2'])).to.equal(3.5)
    expect(totals.columnTotal([null, ''])).to.equal(null)
    const many = Array.from({ length: 10_000 }, () => 0.01)
    expect(totals.columnTotal(many)).to.equal(100)
  })

  it('shows a total through its column’s format, never cut at the width', () => {
    expect(totals.totalText(1234.5, col('sales', 'f', 'type:currency;width:8'))).to.equal('$1,234.50')
    expect(totals.totalText(123456789, col('n', 'i', 'type:commas;width:5'))).to.equal('123,456,789')
    expect(totals.totalText(0.256, col('p', 'f', 'type:pct;dec:1'))).to.equal('25.6%')
    expect(totals.totalText(6, col('n', null))).to.equal('6')
    expect(totals.totalText(null, col('n', 'i'))).to.equal('')
  })
})
