/**
 * The interpreter end to end (parse → expand → check → interpret) on small tables, with the
 * expected worksheets written out by hand.
 */
import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import { columnsOf, makeTable, names, runXml, type Cell } from '../helpers/engine.js'

const KGV = makeTable('t.kgv', [
  { name: 'k', type: 'int', values: [1, 2, 3, 4, 5] },
  { name: 'g', type: 'text', values: ['x', 'y', 'x', 'y', 'x'] },
  { name: 'v', type: 'int', values: [10, null, 5, 7, null] },
])

const SALES = makeTable('t.sales', [
  { name: 'store', type: 'int', values: [1, 2, 1, 3, 2, 1, null] },
  { name: 'state', type: 'text', values: ['NY', 'CA', 'NY', 'TX', 'CA', 'NY', ''] },
  { name: 'amt', type: 'float', values: [10.5, 20, 5.25, null, 4, 1, 2] },
  { name: 'date', type: 'date', values: [20140105, 20140310, 20141231, 20150101, 20131231, 20140601, null] },
])

const STORES = makeTable('t.stores', [
  { name: 'store', type: 'int', values: [1, 2, 2, 4] },
  { name: 'city', type: 'text', values: ['NYC', 'LA', 'SF', 'Austin'] },
])

/** Cities in a dictionary of their own: some shared with t.stores, one new, one N/A. */
const MORE_STORES = makeTable('t.more', [
  { name: 'store', type: 'int', values: [5, 6, 7, 1] },
  { name: 'city', type: 'text', values: ['SF', 'Boston', '', 'NYC'] },
])

const TABLES = [KGV, SALES, STORES, MORE_STORES]

interface Case {
  readonly name: string
  readonly xml: string
  readonly expect: Record<string, Cell[]>
}

const cases: Case[] = [
  // The reference's walk-through (§9b), step by step.
  {
    name: 'g_sum ignores N/A and broadcasts per group',
    xml: '<base table="t.kgv"/><willbe name="s" value="g_sum(g;;v)"/><colord cols="s"/>',
    expect: { s: [15, 7, 15, 7, 15] },
  },
  {
    name: 'g_cumsum counts N/A as 0',
    xml: '<base table="t.kgv"/><willbe name="c" value="g_cumsum(g;;;v)"/><colord cols="c"/>',
    expect: { c: [10, 0, 15, 7, 15] },
  },
  {
    name: 'g_rank ranks the largest first and leaves N/A unranked',
    xml: '<base table="t.kgv"/><willbe name="r" value="g_rank(g;;;v)"/><colord cols="r"/>',
    expect: { r: [1, null, 2, 1, null] },
  },
  {
    name: 'g_rshift by -1 reads the previous row of the group',
    xml: '<base table="t.kgv"/><willbe name="p" value="g_rshift(g;;;v;-1)"/><colord cols="p"/>',
    expect: { p: [null, null, 10, null, 5] },
  },
  {
    name: 'a selection keeps values computed before it',
    xml: '<base table="t.kgv"/><willbe name="s" value="g_sum(g;;v)"/><sel value="v>6"/><colord cols="k,s"/>',
    expect: { k: [1, 4], s: [15, 7] },
  },
  {
    name: 'tabu with break sort names its tcols t0 and t1',
    xml: '<base table="t.kgv"/><sel value="v>6"/><tabu breaks="g"><break col="g" sort="up"/><tcol source="v" fun="sum"/><tcol fun="cnt"/></tabu>',
    expect: { g: ['x', 'y'], t0: [10, 7], t1: [1, 1] },
  },
  {
    name: 'i_() counts rows from 1 after a tabulation',
    xml: '<base table="t.kgv"/><sel value="v>6"/><tabu breaks="g"><break col="g" sort="up"/><tcol source="v" fun="sum"/><tcol fun="cnt"/></tabu><sel value="i_()=1"/>',
    expect: { g: ['x'], t0: [10], t1: [1] },
  },
  // Selections, lists and N/A.
  {
    name: 'a list on the right of = matches any member',
    xml: '<base table="t.sales"/><sel value="state=\'NY\' \'TX\'"/><colord cols="store"/>',
    expect: { store: [1, 1, 3, 1] },
  },
  {
    name: 'a list on the right of <> matches none of the members',
    xml: '<base table="t.sales"/><sel value="state<>\'NY\' \'TX\'"/><colord cols="store"/>',
    expect: { store: [2, 2, null] },
  },
  { name: 'N/A equals N/A', xml: '<base table="t.kgv"/><willbe name="w" value="v"/><sel value="v=w"/><colord cols="k"/>', expect: { k: [1, 2, 3, 4, 5] } },
  { name: 'text N/A is the empty string', xml: '<base table="t.sales"/><sel value="state=\'\'"/><colord cols="amt"/>', expect: { amt: [2] } },
  { name: 'an ordered comparison with N/A is false', xml: '<base table="t.kgv"/><sel value="v<100"/><colord cols="k"/>', expect: { k: [1, 3, 4] } },
  { name: '~ negates the whole conjunction to its right', xml: '<base table="t.kgv"/><sel value="~k>1 &amp; k<5"/><colord cols="k"/>', expect: { k: [1, 5] } },
  { name: 'raw & and < inside attributes are accepted', xml: '<base table="t.kgv"/><sel value="k>1 & k<4"/><colord cols="k"/>', expect: { k: [2, 3] } },
  {
    name: 'and/or children combine selections',
    xml: '<base table="t.kgv"/><sel><or value="k=1"/><or><and value="k>3"/><and value="g=\'y\'"/></or></sel><colord cols="k"/>',
    expect: { k: [1, 4] },
  },
  {
    name: 'quoted dates compare with date columns',
    xml: '<base table="t.sales"/><sel value="between(date;\'1/1/2014\';\'12/31/2014\')"/><colord cols="date"/>',
    expect: { date: [20140105, 20140310, 20141231, 20140601] },
  },
  {
    name: 'date literals compare with date columns',
    xml: '<base table="t.sales"/><sel value="date>=6/1/14"/><colord cols="date"/>',
    expect: { date: [20141231, 20150101, 20140601] },
  },
  // willbe arithmetic and types.
  {
    name: 'integer arithmetic stays integer and N/A propagates',
    xml: '<base table="t.kgv"/><willbe name="x" value="k*2+v"/><colord cols="x"/>',
    expect: { x: [12, null, 11, 15, null] },
  },
  {
    name: 'division gives decimals and x/0 is N/A',
    xml: '<table cols="a,b">6,4;1,0</table><willbe name="q" value="a/b"/><colord cols="q"/>',
    expect: { q: [1.5, null] },
  },
  { name: 'precedence: ^ before * before +', xml: '<table cols="a">2</table><willbe name="q" value="1+a*3^2"/><colord cols="q"/>', expect: { q: [19] } },
  {
    name: 'if picks the first true branch',
    xml: '<base table="t.kgv"/><willbe name="b" value="if(k<2;\'low\';k<4;\'mid\';\'high\')"/><colord cols="b"/>',
    expect: { b: ['low', 'mid', 'mid', 'high', 'high'] },
  },
  // colord, col and sort.
  {
    name: 'colord shows columns in the order named',
    xml: '<base table="t.sales"/><colord cols="amt,store"/><sel value="i_()=1"/>',
    expect: { amt: [10.5], store: [1] },
  },
  {
    name: 'colord hide keeps a column usable',
    xml: '<base table="t.kgv"/><colord hide="v"/><willbe name="w" value="v+1"/><sel value="k=1"/>',
    expect: { k: [1], g: ['x'], w: [11] },
  },
  { name: 'colord wildcards select by prefix', xml: '<base table="t.sales"/><colord cols="st*"/><sel value="i_()=1"/>', expect: { store: [1], state: ['NY'] } },
  { name: 'sort down puts N/A last', xml: '<base table="t.kgv"/><sort col="v" dir="down"/><colord cols="k"/>', expect: { k: [1, 4, 3, 2, 5] } },
  { name: 'sort up puts N/A first and is stable', xml: '<base table="t.kgv"/><sort col="v"/><colord cols="k"/>', expect: { k: [2, 5, 3, 4, 1] } },
  {
    name: 'consecutive sorts make the last one primary',
    xml: '<base table="t.sales"/><sort col="amt" dir="down"/><sort col="state"/><colord cols="state,amt"/>',
    expect: { state: ['', 'CA', 'CA', 'NY', 'NY', 'NY', 'TX'], amt: [2, 20, 4, 10.5, 5.25, 1, null] },
  },
  {
    name: 'sort cols sorts by several columns, first primary',
    xml: '<base table="t.sales"/><sort cols="state,amt"/><colord cols="amt"/>',
    expect: { amt: [2, 4, 20, 1, 5.25, 10.5, null] },
  },
  // Tabulations.
  {
    name: 'tabu without breaks gives one summary row',
    xml: '<base table="t.sales"/><tabu breaks=""><tcol fun="cnt" name="n"/><tcol source="amt" fun="sum" name="s"/></tabu>',
    expect: { n: [7], s: [42.75] },
  },
  {
    name: 'tabu keeps groups in order of first appearance without break sorts',
    xml: '<base table="t.sales"/><tabu breaks="state"><tcol fun="cnt"/></tabu>',
    expect: { state: ['NY', 'CA', 'TX', ''], t0: [3, 2, 1, 1] },
  },
  {
    name: 'tabu sum of an all-N/A group is 0 and avg is N/A',
    xml: '<base table="t.sales"/><tabu breaks="state"><break col="state" sort="up"/><tcol source="amt" fun="sum"/><tcol source="amt" fun="avg"/></tabu><sel value="state=\'TX\'"/>',
    expect: { state: ['TX'], t0: [0], t1: [null] },
  },
  {
    name: 'tabu min, max, first, last and ucnt, with N/A first by default even sorting down',
    xml: '<base table="t.sales"/><tabu breaks="state"><break col="state" sort="down"/><tcol source="amt" fun="min"/><tcol source="amt" fun="max"/><tcol source="date" fun="first"/><tcol source="date" fun="last"/><tcol source="store" fun="ucnt"/></tabu>',
    expect: {
      state: ['', 'TX', 'NY', 'CA'],
      t0: [2, null, 1, 4],
      t1: [2, null, 10.5, 20],
      t2: [null, 20150101, 20140105, 20140310],
      t3: [null, 20150101, 20140601, 20131231],
      t4: [0, 1, 1, 1],
    },
  },
  {
    name: 'tabu break rename and naorder last',
    xml: '<base table="t.sales"/><tabu breaks="store"><break col="store" sort="up" naorder="last" rename="shop"/><tcol fun="cnt" name="n"/></tabu>',
    expect: { shop: [1, 2, 3, null], n: [3, 2, 1, 1] },
  },
  {
    name: 'tabu over two breaks sorts by the first break first',
    xml: '<base table="t.sales"/><tabu breaks="state,store"><break col="state" sort="up"/><break col="store" sort="down"/><tcol fun="cnt" name="n"/></tabu><sel value="state<>\'\'"/>',
    expect: { state: ['CA', 'NY', 'TX'], store: [2, 1, 3], n: [2, 3, 1] },
  },
  {
    name: 'a cross-tab has row totals t0 then one m column per column value',
    xml: '<table cols="r,c,x">a,p,1;a,q,2;b,p,3;a,p,4</table><tabu breaks="r" cbreaks="c"><break col="r" sort="up"/><tcol source="x" fun="sum"/></tabu>',
    expect: { r: ['a', 'b'], t0: [7, 3], m0: [5, 3], m1: [2, null] },
  },
  // Links.
  {
    name: 'link takes the first matching foreign row and pads unmatched rows with N/A',
    xml: '<base table="t.sales"/><link table2="t.stores" col="store" col2="store"/><colord cols="store,city"/>',
    expect: { store: [1, 2, 1, 3, 2, 1, null], city: ['NYC', 'LA', 'NYC', '', 'LA', 'NYC', ''] },
  },
  {
    name: 'link type select keeps matched rows only',
    xml: '<base table="t.sales"/><link table2="t.stores" col="store" col2="store" type="select"/><colord cols="city"/>',
    expect: { city: ['NYC', 'LA', 'NYC', 'LA', 'NYC'] },
  },
  {
    name: 'link type exclude keeps unmatched rows and adds no columns',
    xml: '<base table="t.sales"/><link table2="t.stores" col="store" col2="store" type="exclude"/>',
    expect: { store: [3, null], state: ['TX', ''], amt: [null, 2], date: [20150101, null] },
  },
  {
    name: 'link type include keeps matched rows and adds no columns',
    xml: '<base table="t.stores"/><link table2="t.sales" col="store" col2="store" type="include"/>',
    expect: { store: [1, 2, 2], city: ['NYC', 'LA', 'SF'] },
  },
  {
    name: 'link applies its nested operations to the foreign table first',
    xml: '<base table="t.sales"/><link table2="t.stores" col="store" col2="store" suffix="_s"><sort col="city"/></link><colord cols="city_s"/><sel value="i_()&lt;3"/>',
    expect: { city_s: ['NYC', 'LA'] },
  },
  {
    name: 'link matches text keys across dictionaries',
    xml: '<table cols="st">CA;TX;ZZ</table><link table2="t.sales" col="st" col2="state" cols="amt"/>',
    expect: { st: ['CA', 'TX', 'ZZ'], amt: [20, null, null] },
  },
  // Inline tables and merge.
  {
    name: 'an inline table infers int, float and text columns',
    xml: '<table cols="a, b, c">1,2.5,x;2,,\'y,z\';</table>',
    expect: { a: [1, 2], b: [2.5, null], c: ['x', 'y,z'] },
  },
  { name: 'a depth table has rows and no columns until willbe adds them', xml: '<table depth="3"/><willbe name="n" value="i_()"/>', expect: { n: [1, 2, 3] } },
  {
    name: 'merge appends rows matching columns by name',
    xml: '<base table="t.stores"/><merge table2="t.kgv"/><colord cols="store"/>',
    expect: { store: [1, 2, 2, 4, null, null, null, null, null] },
  },
  {
    name: 'merge joins text of two dictionaries, shared and new values alike',
    xml: '<base table="t.stores"/><merge table2="t.more"/><colord cols="city"/>',
    expect: { city: ['NYC', 'LA', 'SF', 'Austin', 'SF', 'Boston', '', 'NYC'] },
  },
  {
    name: 'merged text sorts and tabulates by its strings (one sorted dictionary)',
    xml: '<base table="t.stores"/><merge table2="t.more"/><sort col="city"/><colord cols="city,store"/>',
    expect: { city: ['', 'Austin', 'Boston', 'LA', 'NYC', 'NYC', 'SF', 'SF'], store: [7, 4, 6, 2, 1, 1, 2, 5] },
  },
  {
    name: 'merge leaves text the foreign table lacks N/A on its rows',
    xml: '<base table="t.sales"/><merge table2="t.stores"/><colord cols="state"/>',
    expect: { state: ['NY', 'CA', 'NY', 'TX', 'CA', 'NY', '', '', '', '', ''] },
  },
  // Blocks.
  {
    name: 'let substitutes variables into attributes',
    xml: '<base table="t.kgv"/><let c="k" v="3"><sel value="{@c}>={@v}"/></let><colord cols="k"/>',
    expect: { k: [3, 4, 5] },
  },
  {
    name: 'an inserted library block takes the caller overrides',
    xml: '<library><block name="pick" val="\'x\'"><sel value="g={@val}"/></block></library><base table="t.kgv"/><insert block="pick" val="\'y\'"/><colord cols="k"/>',
    expect: { k: [2, 4] },
  },
]

describe('interpreter', () => {
  for (const c of cases) {
    it(c.name, () => {
      const r = runXml(c.xml, TABLES)
      expect(columnsOf(r)).to.deep.equal(c.expect)
    })
  }

  it('appends willbe columns at the right with the given label and format', () => {
    const r = runXml('<base table="t.kgv"/><willbe name="m" value="v*2" label="Double`V" format="type:num;dec:1"/>', TABLES)
    expect(names(r)).to.deep.equal(['k', 'g', 'v', 'm'])
    expect(r.cols[3]).to.include({ label: 'Double`V', format: 'type:num;width:10;dec:1', width: 10, type: 'i' })
  })

  it('marks tabulation break columns fixed and labels tcols', () => {
    const r = runXml('<base table="t.kgv"/><tabu breaks="g"><tcol source="v" fun="sum" label="Total"/></tabu>', TABLES)
    expect(r.cols.map((c) => c.fixed)).to.deep.equal([1, 0])
    expect(r.cols[1]).to.include({ name: 't0', label: 'Total', type: 'f' })
  })

  it('hard colord makes hidden columns unreachable', () => {
    expect(() => runXml('<base table="t.kgv"/><colord cols="k" hard="1"/><willbe name="w" value="v"/>', TABLES)).to.throw(AppError, /Unknown column "v"/)
  })

  const errors: [string, string, RegExp][] = [
    [
      'an unknown column',
      '<base table="t.kgv"/><sel value="nope=1"/>',
      /Line 1, column 22, <sel value>: Unknown column "nope" \(at column 1 of the expression\)/,
    ],
    ['an unknown function', '<base table="t.kgv"/><willbe name="x" value="frob(k)"/>', /Unknown function "frob"/],
    ['a wrong arity', '<base table="t.kgv"/><willbe name="x" value="g_sum(g)"/>', /g_sum\(\)/],
    ['text compared with a number', '<base table="t.kgv"/><sel value="g=1"/>', /=/],
    ['a selection that gives text', '<base table="t.kgv"/><sel value="g"/>', /0\/1/],
    ['a duplicate willbe name', '<base table="t.kgv"/><willbe name="k" value="1"/>', /already exists/],
    ['an unknown summary', '<base table="t.kgv"/><tabu breaks="g"><tcol source="v" fun="frob"/></tabu>', /Unknown summary/],
    ['link keys of different types', '<base table="t.kgv"/><link table2="t.stores" col="g" col2="store"/>', /different types/],
  ]
  for (const [what, xml, message] of errors) {
    it(`refuses ${what} with a check error naming it`, () => {
      try {
        runXml(xml, TABLES)
        expect.fail('no error')
      } catch (err) {
        expect(err).to.be.instanceOf(AppError)
        expect((err as AppError).code).to.be.oneOf(['CHECK_ERROR', 'EXPR_ERROR'])
        expect((err as AppError).message).to.match(message)
      }
    })
  }
})
