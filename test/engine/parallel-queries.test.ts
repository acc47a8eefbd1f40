/**
 * engine/parallel on random tables (N/A in every column, -0 and ties among the floats, text keys,
 * duplicate link keys), from empty tables and single rows to a few thousand rows cut into blocks
 * of 7 rows: every covered operation, g_ function and summary, tabulations with sorting breaks and
 * operations after them, split into 1, 2, 3 and 7 parts, answers exactly what a worker running
 * the whole query answers (float bits included), which agrees with the interpreter. Queries the
 * planner must not split have no plan. Text extremes split too: each part's codes travel with its
 * dictionary, stored or made by the query, and the merge puts them on one.
 */
import { expect } from 'chai'
import type { TableInput } from '../../shared/protocol.js'
import { tableOfColumns } from '../helpers/engine.js'
import { Rng, randomDateColumn, randomFloatColumn, randomIntColumn, randomTextColumn } from '../../engine/columns/random.js'
import { splitRanges } from '../../engine/parallel/blocks.js'
import { batchEnd, planParallel } from '../../engine/parallel/plan.js'
import { executeRunTask } from '../../engine/task/execute.js'
import { fromWire, isCoded } from '../../engine/parallel/wire.js'
import { checkedOps, expectClose, expectIdentical, interpreted, single, split, taskOf } from './parallel-harness.js'

const tableOf = tableOfColumns

const WORDS = ['', 'ant', 'bee', 'cat', 'dog', 'eel', 'fox']

/** The foreign table of the merges: some columns of t.main (y as floats), one of its own, words of its own. */
function more(rng: Rng, rows: number): TableInput {
  return tableOf('t.more', {
    k: randomIntColumn(rng, rows, 2, 9, { na: 0.1 }),
    t: randomTextColumn(rng, rows, ['', 'bee', 'gnu', 'yak', 'zebu'], { na: 0.1 }),
    x: randomFloatColumn(rng, rows, -5, 5, { na: 0.1, decimals: 1 }),
    y: randomFloatColumn(rng, rows, -3, 9, { na: 0.1, decimals: 2 }),
    j: randomIntColumn(rng, rows, 0, 30, { na: 0.05 }),
    extra: randomIntColumn(rng, rows, 0, 3, { na: 0.1 }),
  })
}

function tables(seed: number, rows: number, foreignRows = 0): TableInput[] {
  const rng = new Rng(seed)
  const x = randomFloatColumn(rng, rows, -5, 5, { na: 0.1, decimals: 1 })
  // Some -0 among the zeros: sums, extremes and keys must treat them the same way in every split.
  for (let i = 0; i < rows; i += 11) x.data[i] = -0
  const main = tableOf('t.main', {
    k: randomIntColumn(rng, rows, 0, 6, { na: 0.1 }),
    t: randomTextColumn(rng, rows, WORDS, { na: 0.1 }),
    x,
    y: randomIntColumn(rng, rows, -3, 9, { na: 0.1 }),
    d: randomDateColumn(rng, rows, 2020, 2022, { na: 0.1 }),
    j: randomIntColumn(rng, rows, 0, 30, { na: 0.05 }),
  })
  const look = tableOf('t.look', {
    j: randomIntColumn(rng, 40, 0, 35, { na: 0.05 }),
    name: randomTextColumn(rng, 40, WORDS, { na: 0.1 }),
    w: randomFloatColumn(rng, 40, 0, 100, { na: 0.1 }),
  })
  return [main, look, more(rng, foreignRows)]
}

const BASE = '<base table="t.main"/>'
const LINK = '<link table2="t.look" col="j" col2="j" cols="name,w"/>'

/** Queries the planner splits: [what, xml after the base]. */
const SPLIT: readonly (readonly [string, string])[] = [
  ['sel', '<sel value="x>0"/>'],
  ['willbe then sel', '<willbe name="z" value="x*y+1"/><sel value="z<>0"/>'],
  [
    'text made per part, then a selection (rows with gaps, dictionaries to unify)',
    '<willbe name="u" value="strupcase(t)"/><sel value="x>0"/><colord cols="u,x,k"/>',
  ],
  ['link', LINK],
  ['link select then sel', '<link table2="t.look" col="j" col2="j" type="select" cols="name,w"/><sel value="w>50"/>'],
  ['link exclude', '<link table2="t.look" col="j" col2="j" type="exclude"/>'],
  ['link with its own operations', '<link table2="t.look" col="j" col2="j" cols="w"><sel value="w>20"/></link>'],
  ['colord and col', '<colord cols="x,t" hide="k"/><col name="x" label="Ex"/>'],
  ['cols moving and relabelling columns, then sel', '<cols><table cols="name,ord,label">t,1,Tee;x,,Ex;nope,,Gone</table></cols><sel value="x>0"/>'],
  ['g_sum', '<willbe name="gs" value="g_sum(k;;x)"/>'],
  ['g_cnt with two group columns and S', '<willbe name="gc" value="g_cnt(k t;y>0)"/>'],
  ['g_avg of one group', '<willbe name="ga" value="g_avg(;;x)"/>'],
  ['g_min and g_max', '<willbe name="mn" value="g_min(t;;y)"/><willbe name="mx" value="g_max(k;x>0;d)"/><willbe name="mf" value="g_max(t;;x)"/>'],
  ['g_first and g_last in worksheet order', '<willbe name="f" value="g_first(k;y>0;;t)"/><willbe name="l" value="g_last(t k;;;x)"/>'],
  ['g_sum used after', '<willbe name="gs" value="g_sum(k;;x)"/><willbe name="r" value="x/gs"/><sel value="r>0"/>'],
  ['tabu with text extremes', '<tabu breaks="k"><tcol source="t" fun="min"/><tcol source="t" fun="max"/><tcol source="x" fun="cnt"/></tabu>'],
  ['text extremes of a stored column, by group', '<willbe name="m" value="g_max(k;;t)"/><willbe name="n" value="g_min(;;t)"/>'],
  [
    'text extremes of a text the query makes (a dictionary per part)',
    '<willbe name="u" value="strupcase(t)"/><tabu breaks="k"><tcol source="u" fun="max"/><tcol source="u" fun="min"/></tabu>',
  ],
  [
    'tabu with every accumulating summary',
    '<tabu breaks="k"><tcol source="x" fun="sum"/><tcol fun="cnt"/><tcol source="x" fun="avg"/><tcol source="y" fun="min"/><tcol source="d" fun="max"/><tcol source="t" fun="first"/><tcol source="x" fun="last"/><tcol source="t" fun="cntnna"/><tcol source="x" fun="min"/></tabu>',
  ],
  [
    'tabu with sorting breaks',
    '<tabu breaks="t,k"><break col="t" sort="up"/><break col="k" sort="down" naorder="last"/><tcol source="x" fun="sum"/><tcol source="y" fun="avg"/></tabu>',
  ],
  [
    'tabu with weighted summaries',
    '<willbe name="z" value="j*2"/><tabu breaks="t"><tcol source="x" fun="wsum" weight="y"/><tcol source="j" fun="wavg" weight="x"/><tcol source="x" fun="wavg" weight="z"/><tcol fun="cnt"/></tabu>',
  ],
  ['weighted summaries by an int key', '<tabu breaks="k"><tcol source="y" fun="wavg" weight="j"/><tcol source="d" fun="wsum" weight="x"/></tabu>'],
  ['tabu without breaks', '<tabu breaks=""><tcol source="x" fun="sum"/><tcol fun="cnt"/><tcol source="x" fun="first"/></tabu>'],
  ['tabu by a float', '<tabu breaks="x"><tcol fun="cnt"/><tcol source="y" fun="sum"/></tabu>'],
  ['tabu by a date, renamed', '<tabu breaks="d"><break col="d" sort="down" rename="day"/><tcol source="x" fun="max" name="top"/></tabu>'],
  ['tabu then sel and sort', '<tabu breaks="k"><tcol source="x" fun="sum" name="s"/></tabu><sel value="s>0"/><sort col="s" dir="down"/>'],
  [
    'three group steps over the same groups (one phase)',
    '<willbe name="a" value="g_sum(k;;x)"/><willbe name="b" value="g_cnt(k;)"/><willbe name="c" value="g_max(k;;t)"/>',
  ],
  [
    'group steps with one selection, then a selection and a tabulation',
    '<willbe name="a" value="g_sum(k t;y>0;x)"/><willbe name="b" value="g_avg(k t;y>0;d)"/><sel value="x*2>a"/><tabu breaks="t"><tcol source="b" fun="max"/><tcol fun="cnt"/></tabu>',
  ],
  [
    'a group step over the one before it',
    '<willbe name="a" value="g_sum(k;;x)"/><willbe name="b" value="g_sum(k;;a)"/><willbe name="c" value="g_min(k;a>0;y)"/>',
  ],
  [
    'group steps over other groups, one after the other',
    '<willbe name="a" value="g_sum(k;;x)"/><willbe name="b" value="g_sum(t;;x)"/><willbe name="c" value="g_cnt(t;)"/>',
  ],
  ['a running sum by group (on partitions by group)', '<willbe name="c" value="g_cumsum(k;;;x)"/>'],
  ['g_first in another order, then a selection', '<sel value="x>-100"/><willbe name="f" value="g_first(k;;x;y)"/><sel value="f>0"/>'],
  [
    'a rank by two keys and a shift, then a tabulation',
    '<sel value="d>0"/><willbe name="r" value="g_rank(k t;;d;x)"/><willbe name="s" value="g_rshift(t;;d;x;-1)"/><willbe name="diff" value="x-s"/><tabu breaks="k"><tcol source="diff" fun="sum"/><tcol source="r" fun="max"/><tcol fun="cnt"/></tabu>',
  ],
  [
    'a selection, then ordered text and a median by group',
    '<sel value="y>0 &amp; d>0"/><willbe name="l" value="g_last(k;;d;t)"/><willbe name="m" value="g_median(t;;x)"/>',
  ],
  [
    'a decomposable g_ after an ordered one',
    '<sel value="d>0"/><willbe name="c" value="g_cumsum(k;;d;x)"/><willbe name="s" value="g_sum(k;;c)"/><sel value="s>c"/>',
  ],
  [
    'date arithmetic, quoted dates against a computed date, times and date+time parts',
    '<willbe name="m" value="addmonths(d;y)"/><willbe name="m0" value="m+0"/><sel value="m0>=\'2020/06/01\'"/><willbe name="dt" value="datetime(d;j*1000)+x/7"/><willbe name="h" value="hour(dt)"/><willbe name="back" value="numdate(daynum(dtdate(dt))-1)"/><tabu breaks="h"><tcol source="back" fun="max"/><tcol source="m" fun="min"/><tcol fun="cnt"/></tabu>',
  ],
  [
    'time shifts by day and by plain period (on partitions by group)',
    '<willbe name="p" value="g_tshift(k;y>0;d;\'D\';x;-1)"/><willbe name="q" value="g_tshift(t;;j;;y;2)"/><willbe name="w" value="g_tshift(k t;;d;\'D\';t;j-15)"/>',
  ],
  ['a rank by a float with -0 and N/A', '<willbe name="r" value="g_rank(x;;;y)"/><willbe name="u" value="g_ucnt(x;;t)"/>'],
  ['a merge', '<merge table2="t.more"/>'],
  ['a merge of itself', '<merge table2="t.main"/>'],
  ['a merge with its own selection, then a selection', '<merge table2="t.more"><sel value="x>0"/><willbe name="w2" value="y*2"/></merge><sel value="k<5"/>'],
  [
    'a merge, then a tabulation',
    '<merge table2="t.more"/><tabu breaks="t"><tcol source="x" fun="sum"/><tcol fun="cnt"/><tcol source="y" fun="avg"/><tcol source="t" fun="first"/><tcol source="x" fun="last"/><tcol source="y" fun="max"/></tabu>',
  ],
  [
    'sel, merge, willbe, g_sum, link, tabu',
    `<sel value="y>0"/><merge table2="t.more"/><willbe name="z" value="x*2"/><willbe name="gs" value="g_sum(k;;z)"/>${LINK}<tabu breaks="k,name"><tcol source="gs" fun="max"/><tcol source="z" fun="sum"/></tabu>`,
  ],
  [
    'sel, link, g_sum, tabu, sort',
    `<sel value="y>2"/>${LINK}<willbe name="gs" value="g_sum(j;;w)"/><tabu breaks="name"><tcol source="gs" fun="max"/><tcol source="x" fun="sum"/></tabu><sort col="t0" dir="down"/>`,
  ],
]

/** Queries that must run whole: [what, xml after the base]. */
const WHOLE: readonly (readonly [string, string])[] = [
  ['sort', '<sort col="x" dir="up"/>'],
  ['sel then sort', '<sel value="x>0"/><sort col="x" dir="up"/>'],
  ['a running sum of one group', '<willbe name="c" value="g_cumsum(;;;x)"/>'],
  ['an ordered g_ by a column the query makes', '<willbe name="z" value="k*2"/><willbe name="c" value="g_cumsum(z;;;x)"/>'],
  ['an ordered g_ after a link', `${LINK}<willbe name="c" value="g_cumsum(k;;;w)"/>`],
  ['an ordered g_ after a decomposable one', '<willbe name="s" value="g_sum(k;;x)"/><willbe name="c" value="g_cumsum(k;;;s)"/>'],
  ['row numbers', '<willbe name="i" value="i_()"/>'],
  ['a link that expands rows', '<link table2="t.look" col="j" col2="j" cols="name,w" type="expand"/><sel value="x>0"/>'],
  ['g_ inside an expression', '<willbe name="g" value="g_sum(k;;x)+1"/>'],
  ['tabu with ucnt', '<tabu breaks="k"><tcol source="x" fun="ucnt"/></tabu>'],
  ['cross-tabulation', '<tabu breaks="k" cbreaks="t"><tcol fun="cnt"/></tabu>'],
  ['a merge after a group step', '<willbe name="gs" value="g_sum(k;;x)"/><merge table2="t.more"/>'],
  ['two merges', '<merge table2="t.more"/><merge table2="t.more"/>'],
  ['a merge whose own operations sort', '<merge table2="t.more"><sort col="x" dir="up"/></merge>'],
]

const BLOCK = 7
const SIZES = [0, 1, 2, 5, 97, 2000]
/** Rows of the merges' foreign table at each size: none, some, more than the base. */
const FOREIGN_SIZES = [3, 0, 2, 1, 50, 1500]

describe('parallel scans: random tables', function () {
  this.timeout(120_000)

  for (const [what, xml] of SPLIT) {
    it(`${what}: identical in 1, 2, 3 and 7 parts`, () => {
      SIZES.forEach((rows, s) => {
        const ts = tables(1000 + s, rows, FOREIGN_SIZES[s])
        const ops = checkedOps(BASE + xml, ts)
        const plan = planParallel(ops)
        expect(plan, `${what} has a plan`).to.not.equal(null)
        const task = taskOf(ops, ts)
        const alone = single(task, BLOCK)
        expectClose(alone, interpreted(ops, ts), `${what} at ${rows} rows against the interpreter`)
        const foreignRows = plan!.merge === null ? null : ts.find((t) => t.path === plan!.merge!.table)!.rows
        for (const parts of [1, 2, 3, 7]) {
          const got = split(task, parts, BLOCK)!
          const most = (n: number) => Math.max(1, Math.min(parts, n))
          expect(got.ranges).to.be.within(1, most(rows) + (foreignRows === null ? 0 : most(foreignRows)))
          expectIdentical(got.result, alone, `${what} at ${rows} rows in ${parts} parts`)
        }
      })
    })
  }

  for (const [what, xml] of WHOLE) {
    it(`${what}: runs whole`, () => {
      const ts = tables(7, 50)
      expect(planParallel(checkedOps(BASE + xml, ts))).to.equal(null)
    })
  }

  it('keeps MAX_RESULT_ROWS over all parts: cut with truncate, refused without, as a whole run', () => {
    const ts = tables(5, 2000)
    const ops = checkedOps(`${BASE}<sel value="x>-4"/>`, ts)
    const rows = single(taskOf(ops, ts, 1e9), BLOCK).rowCount
    const cut = taskOf(ops, ts, 700, true)
    const alone = single(cut, BLOCK)
    expect(alone.rowCount).to.equal(700)
    expect(alone.totalRows).to.equal(rows)
    for (const parts of [2, 3, 7]) expectIdentical(split(cut, parts, BLOCK)!.result, alone, `truncated in ${parts} parts`)
    const refused = taskOf(ops, ts, 700, false)
    const message = (f: () => unknown): string => {
      try {
        f()
      } catch (e) {
        return `${(e as { code?: string }).code}: ${(e as Error).message}`
      }
      return 'no error'
    }
    const expected = message(() => single(refused, BLOCK))
    expect(expected).to.match(/^RESULT_TOO_LARGE: The result has \d+ rows/)
    expect(message(() => split(refused, 3, BLOCK))).to.equal(expected)
  })

  it('answers text as codes, which read back as the interpreter’s strings', () => {
    const ts = tables(9, 300)
    for (const xml of ['<sel value="x>0"/>', LINK, '<willbe name="gs" value="g_sum(k;;x)"/>', '<sort col="t" dir="up"/>']) {
      const ops = checkedOps(BASE + xml, ts)
      const coded = executeRunTask(taskOf(ops, ts))
      expect(isCoded(coded), xml).to.equal(true)
      expectClose(fromWire(coded), interpreted(ops, ts), xml)
    }
  })

  it('batches adjacent group steps over the same groups and selection that do not read each other', () => {
    const ts = tables(3, 20)
    const batches = (xml: string): number[] => {
      const plan = planParallel(checkedOps(BASE + xml, ts))!
      const ends: number[] = []
      for (let k = 0; k < plan.groupSteps.length; k = ends[ends.length - 1]) ends.push(batchEnd(plan, k))
      return ends
    }
    expect(batches('<willbe name="a" value="g_sum(k;;x)"/><willbe name="b" value="g_cnt(k;)"/><willbe name="c" value="g_max(k;;t)"/>')).to.deep.equal([3])
    expect(batches('<willbe name="a" value="g_sum(k;;x)"/><willbe name="b" value="g_sum(k;;a)"/>')).to.deep.equal([1, 2])
    expect(batches('<willbe name="a" value="g_sum(k;;x)"/><willbe name="b" value="g_cnt(k;y>0)"/>')).to.deep.equal([1, 2])
    expect(batches('<willbe name="a" value="g_sum(k;;x)"/><willbe name="b" value="g_cnt(t;)"/><willbe name="c" value="g_cnt(t;)"/>')).to.deep.equal([1, 3])
    expect(batches('<willbe name="a" value="g_sum(k;;x)"/><sel value="x>0"/><willbe name="b" value="g_cnt(k;)"/>')).to.deep.equal([1, 2])
  })

  it('splits ranges on block edges, never empty, at most one per block', () => {
    expect(splitRanges(10, 3, 1)).to.deep.equal([
      { start: 0, end: 3 },
      { start: 3, end: 7 },
      { start: 7, end: 10 },
    ])
    expect(splitRanges(20, 2, 8)).to.deep.equal([
      { start: 0, end: 8 },
      { start: 8, end: 20 },
    ])
    expect(splitRanges(100, 3, 8)).to.deep.equal([
      { start: 0, end: 32 },
      { start: 32, end: 64 },
      { start: 64, end: 100 },
    ])
    expect(splitRanges(5, 7, 1)).to.have.length(5)
    expect(splitRanges(5, 7, 8)).to.deep.equal([{ start: 0, end: 5 }])
    expect(splitRanges(0, 4, 8)).to.deep.equal([{ start: 0, end: 0 }])
  })
})
