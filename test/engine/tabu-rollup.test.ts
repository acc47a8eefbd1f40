/**
 * `<tabu>` with `<rollup>` (interpret/ops/tabu-rollup.ts): the levels 1010data documents for
 * type="hier", type="cube", cols and sets, `<break placeholder>`, the `ind` column, the order of
 * subtotal rows, and every level's summaries against a slow reference (a plain `<tabu>` over that
 * level's breaks alone). Expected outputs of the documented cases are written from the
 * <rollup>, <break> and rolledup() pages of docs.1010data.com.
 */
import { expect } from 'chai'
import { AppError } from '../../shared/errors.js'
import type { TableInput } from '../../shared/protocol.js'
import { columnsOf, makeTable, runXml, type Cell } from '../helpers/engine.js'
import { checkedOps, expectIdentical, interpreted, single, taskOf } from './parallel-harness.js'
import { planOf } from '../../engine/parallel/plan.js'
import { Rng } from '../../engine/columns/random.js'

// east/west by dept: (east,1) 10+50, (east,2) 30, (west,2) 20+40.
const SALES = makeTable('sales', [
  { name: 'store', type: 'text', values: ['east', 'west', 'east', 'west', 'east'] },
  { name: 'dept', type: 'int', values: [1, 2, 2, 2, 1] },
  { name: 'amount', type: 'int', values: [10, 20, 30, 40, 50] },
])

const tabu = (breaks: string, inner: string, tcols = '<tcol source="amount" fun="sum" name="s"/>') =>
  `<base table="sales"/><tabu breaks="${breaks}">${inner}${tcols}</tabu>`

const run = (xml: string, tables: readonly TableInput[] = [SALES]) => columnsOf(runXml(xml, tables))

function refused(xml: string, message: RegExp, tables: readonly TableInput[] = [SALES]): void {
  let caught: unknown
  try {
    runXml(xml, tables)
  } catch (err) {
    caught = err
  }
  expect(caught, xml).to.be.instanceOf(AppError)
  expect((caught as AppError).code).to.equal('CHECK_ERROR')
  expect((caught as AppError).message).to.match(message)
}

const SORTED = '<break col="store" sort="up"/><break col="dept" sort="up"/>'

describe('<tabu> with <rollup>', () => {
  describe('levels (docs.1010data.com <rollup>)', () => {
    it('one break: a row per value plus one grand-total row', () => {
      expect(run(tabu('store', '<break col="store" sort="up"/><rollup/>'))).to.deep.equal({ store: ['', 'east', 'west'], s: [150, 90, 60] })
    })

    it('two breaks, hier (the default): a row per (store, dept), per store with dept rolled up, and the grand total', () => {
      expect(run(tabu('store,dept', `${SORTED}<rollup/>`))).to.deep.equal({
        store: ['', 'east', 'east', 'east', 'west', 'west'],
        dept: [null, null, 1, 2, null, 2],
        s: [150, 90, 60, 30, 60, 60],
      })
      expect(run(tabu('store,dept', `${SORTED}<rollup type="hier"/>`))).to.deep.equal(run(tabu('store,dept', `${SORTED}<rollup/>`)))
    })

    it('type="cube" adds a row per dept with store rolled up', () => {
      expect(run(tabu('store,dept', `${SORTED}<rollup type="cube"/>`))).to.deep.equal({
        store: ['', '', '', 'east', 'east', 'east', 'west', 'west'],
        dept: [null, 1, 2, null, 1, 2, null, 2],
        s: [150, 60, 90, 90, 60, 30, 60, 60],
      })
    })

    it('hier over three breaks rolls them up from the last one: four levels', () => {
      const r = run(
        `<base table="sales"/><willbe name="big" value="amount>25"/><tabu breaks="store,dept,big">${SORTED}<break col="big" sort="up"/><rollup ind="lvl"/><tcol fun="cnt" name="n"/></tabu>`,
      )
      expect([...new Set(r.lvl)].sort()).to.deep.equal([0, 1, 3, 7])
      expect(r.n[0]).to.equal(5)
    })

    it('cols: breaks not named there are never rolled up', () => {
      expect(run(tabu('store,dept', `${SORTED}<rollup cols="dept"/>`))).to.deep.equal({
        store: ['east', 'east', 'east', 'west', 'west'],
        dept: [null, 1, 2, null, 2],
        s: [90, 60, 30, 60, 60],
      })
      expect(run(tabu('store,dept', `${SORTED}<rollup type="cube" cols="store"/>`))).to.deep.equal({
        store: ['', '', 'east', 'east', 'west'],
        dept: [1, 2, 1, 2, 2],
        s: [60, 90, 60, 30, 60],
      })
    })

    it('sets: exactly the levels listed, each naming the breaks it keeps; an empty one is the grand total', () => {
      expect(run(tabu('store,dept', `${SORTED}<rollup sets="dept;;store"/>`))).to.deep.equal({
        store: ['', '', '', 'east', 'west'],
        dept: [null, 1, 2, null, null],
        s: [150, 60, 90, 90, 60],
      })
      expect(run(tabu('store,dept', `${SORTED}<rollup sets="store dept"/>`))).to.deep.equal(run(tabu('store,dept', SORTED)))
      // Breaks outside cols are kept on every level of sets too.
      expect(run(tabu('store,dept', `${SORTED}<rollup cols="dept" sets="dept;"/>`))).to.deep.equal(run(tabu('store,dept', `${SORTED}<rollup cols="dept"/>`)))
    })
  })

  describe('<break placeholder> (docs.1010data.com <break>)', () => {
    it("shows 'ALL' instead of N/A where a text break is rolled up, and a number for a number break", () => {
      expect(run(tabu('store,dept', `<break col="store" sort="up" placeholder="'ALL'"/><break col="dept" sort="up" placeholder="0"/><rollup/>`))).to.deep.equal(
        {
          store: ['ALL', 'east', 'east', 'east', 'west', 'west'],
          dept: [0, 0, 1, 2, 0, 2],
          s: [150, 90, 60, 30, 60, 60],
        },
      )
    })

    it('leaves a genuine N/A break value N/A, told apart from rolled-up rows by ind', () => {
      const t = makeTable('t', [
        { name: 'k', type: 'text', values: ['a', null, 'a'] },
        { name: 'x', type: 'float', values: [1.5, 2, 4] },
      ])
      const r = run(
        `<base table="t"/><tabu breaks="k"><break col="k" sort="up" placeholder="'ALL'"/><rollup ind="lvl"/><tcol source="x" fun="sum" name="s"/></tabu>`,
        [t],
      )
      expect(r).to.deep.equal({ k: ['ALL', '', 'a'], s: [7.5, 2, 5.5], lvl: [1, 0, 0] })
    })

    it('is left unread without a rollup, as before rollups existed', () => {
      expect(run(tabu('store', `<break col="store" sort="up" placeholder="ALL("/>`))).to.deep.equal({ store: ['east', 'west'], s: [90, 60] })
    })

    it('keeps a float and a date break their type', () => {
      const t = makeTable('t', [
        { name: 'f', type: 'float', values: [0.5, 0.5, 1.5] },
        { name: 'd', type: 'date', values: [20240101, 20240102, 20240101] },
      ])
      const xml = `<base table="t"/><tabu breaks="f,d"><break col="f" sort="up" placeholder="-1.5"/><break col="d" sort="up" placeholder="1/1/1900"/><rollup/><tcol fun="cnt" name="n"/></tabu>`
      const r = runXml(xml, [t])
      expect(r.cols.map((c) => c.logical)).to.deep.equal(['float', 'date', 'int'])
      expect(columnsOf(r)).to.deep.equal({
        f: [-1.5, 0.5, 0.5, 0.5, 1.5, 1.5],
        d: [19000101, 19000101, 20240101, 20240102, 19000101, 20240101],
        n: [3, 2, 1, 1, 1, 1],
      })
    })
  })

  describe('ind (docs.1010data.com rolledup())', () => {
    it('the documented example: ind="level" over lg, team, lastname, sorted by level down', () => {
      const batting = makeTable('batting', [
        { name: 'lg', type: 'text', values: ['AL', 'AL', 'NL', 'AL'] },
        { name: 'team', type: 'text', values: ['NYA', 'NYA', 'NYN', 'BOS'] },
        { name: 'lastname', type: 'text', values: ['Ruth', 'Gehrig', 'Seaver', 'Ruth'] },
      ])
      const xml = `<base table="batting"/><tabu label="Tabulation on Batting" breaks="lg,team,lastname"><rollup ind="level"/><tcol source="lg" fun="cnt" label="Count"/></tabu><sort col="level" dir="down"/><willbe name="is_rolledup" value="rolledup(level;1)"/>`
      const r = run(xml, [batting])
      // bit 1: lastname rolled up; bit 2: team; bit 4: lg. hier: 7 (grand total), 3 (per lg), 1 (per team), 0.
      expect(r.level).to.deep.equal([7, 3, 3, 1, 1, 1, 0, 0, 0, 0])
      expect(r.t0.slice(0, 3)).to.deep.equal([4, 3, 1])
      expect(r.lastname.slice(0, 6)).to.deep.equal(['', '', '', '', '', ''])
      // rolledup(level;1): 1 where lastname, the innermost break, is rolled up.
      expect(r.is_rolledup).to.deep.equal([1, 1, 1, 1, 1, 1, 0, 0, 0, 0])
    })

    it('rolledup(X;I) reads bit I-1 of the ind column: I=2 is team, I=3 is lg', () => {
      const r = run(
        tabu('store,dept', `${SORTED}<rollup type="cube" ind="lvl"/>`) +
          '<willbe name="dept_up" value="rolledup(lvl;1)"/><willbe name="store_up" value="rolledup(lvl;2)"/>',
      )
      expect(r.lvl).to.deep.equal([3, 2, 2, 1, 0, 0, 1, 0])
      expect(r.dept_up).to.deep.equal([1, 0, 0, 1, 0, 0, 1, 0])
      expect(r.store_up).to.deep.equal([1, 1, 1, 0, 0, 0, 0, 0])
    })

    it('refuses rolledup() with I outside 1 to 30 or X not an int column', () => {
      refused(tabu('store', '<rollup ind="lvl"/>') + '<willbe name="u" value="rolledup(lvl;0)"/>', /I counts breaks from the last one, 1 to 30; got 0/)
      refused(tabu('store', '<rollup ind="lvl"/>') + '<willbe name="u" value="rolledup(store;1)"/>', /rolledup\(\): the argument X must be int, got text/)
    })
  })

  describe('order of the rows', () => {
    it('puts each subtotal before its rows, or after them under a sorting naorder="last"', () => {
      expect(run(tabu('store,dept', '<break col="store" sort="down" naorder="last"/><break col="dept" sort="down" naorder="last"/><rollup/>'))).to.deep.equal({
        store: ['west', 'west', 'east', 'east', 'east', ''],
        dept: [2, null, 2, 1, null, null],
        s: [60, 60, 30, 60, 90, 150],
      })
    })

    it('orders unsorted breaks by first appearance of each value', () => {
      expect(run(tabu('store,dept', '<rollup/>'))).to.deep.equal({
        store: ['', 'east', 'east', 'east', 'west', 'west'],
        dept: [null, null, 1, 2, null, 2],
        s: [150, 90, 60, 30, 60, 60],
      })
    })

    it('gives one grand-total row over no rows', () => {
      expect(run(`<base table="sales"/><sel value="amount>1000"/><tabu breaks="store"><rollup/><tcol fun="cnt" name="n"/></tabu>`)).to.deep.equal({
        store: [''],
        n: [0],
      })
    })
  })

  describe('summaries on every level, against a plain <tabu> of that level', () => {
    const rng = new Rng(2111)
    const rows = 400
    const pick = <T>(xs: readonly T[]): T => xs[rng.int(0, xs.length - 1)]
    const table = makeTable('r', [
      { name: 'a', type: 'text', values: Array.from({ length: rows }, () => pick(['p', 'q', 'r', null])) },
      { name: 'b', type: 'int', values: Array.from({ length: rows }, () => pick([1, 2, 3, null])) },
      { name: 'c', type: 'text', values: Array.from({ length: rows }, () => pick(['x', 'y'])) },
      { name: 'v', type: 'float', values: Array.from({ length: rows }, () => (rng.chance(0.1) ? null : rng.int(-500, 500) / 8)) },
      { name: 'w', type: 'int', values: Array.from({ length: rows }, () => (rng.chance(0.1) ? null : rng.int(0, 20))) },
    ])
    const TCOLS = [
      ['sum', 'v'],
      ['avg', 'v'],
      ['cnt', ''],
      ['ucnt', 'w'],
      ['median', 'v'],
      ['first', 'v'],
      ['last', 'w'],
      ['min', 'v'],
      ['max', 'w'],
      ['stdev', 'v'],
      ['first', 'c'],
      ['var', 'v'],
      ['cntnna', 'v'],
      ['last', 'c'],
    ]
    const tcols = TCOLS.map(([fun, src], i) => `<tcol fun="${fun}"${src ? ` source="${src}"` : ''} name="m${i}"/>`).join('')
    const BREAKS = ['a', 'b', 'c']

    /** The rows of one level of the rollup, keyed by the kept breaks' values. */
    function reference(kept: readonly string[]): Map<string, Record<string, Cell>> {
      const r = run(`<base table="r"/><tabu breaks="${kept.join(',')}">${tcols}</tabu>`, [table])
      const out = new Map<string, Record<string, Cell>>()
      const n = r.m2.length
      for (let i = 0; i < n; i++) out.set(JSON.stringify(kept.map((k) => r[k][i])), Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v[i]])))
      return out
    }

    for (const rollup of ['<rollup/>', '<rollup type="cube"/>', '<rollup cols="a,c" type="cube"/>', '<rollup sets="a;b,c;;c"/>']) {
      it(`${rollup}: every row equals the plain tabulation of its level`, () => {
        const r = run(`<base table="r"/><tabu breaks="a,b,c"><break col="b" sort="down"/>${rollup.replace('/>', ' ind="lvl"/>')}${tcols}</tabu>`, [table])
        const levels = new Map<number, Map<string, Record<string, Cell>>>()
        const seen = new Map<number, number>()
        r.lvl.forEach((bits, i) => {
          const kept = BREAKS.filter((_, k) => ((bits as number) & (1 << (BREAKS.length - 1 - k))) === 0)
          if (!levels.has(bits as number)) levels.set(bits as number, reference(kept))
          const expected = levels.get(bits as number)!.get(JSON.stringify(kept.map((k) => r[k][i])))
          expect(expected, `row ${i}`).to.not.equal(undefined)
          for (const k of BREAKS.filter((b) => !kept.includes(b))) expect(r[k][i], `rolled-up ${k} on row ${i}`).to.equal(k === 'b' ? null : '')
          TCOLS.forEach((_, m) => {
            const got = r[`m${m}`][i]
            const want = expected![`m${m}`]
            if (typeof want === 'number' && typeof got === 'number') expect(got, `m${m} row ${i}`).to.be.closeTo(want, 1e-9 * Math.max(1, Math.abs(want)))
            else expect(got, `m${m} row ${i}`).to.equal(want)
          })
          seen.set(bits as number, (seen.get(bits as number) ?? 0) + 1)
        })
        // No group of a level is missing either.
        for (const [bits, groups] of levels) expect(seen.get(bits), `level ${bits}`).to.equal(groups.size)
      })
    }

    it('gives the same answer on a worker as in the interpreter (a rollup runs whole, not split)', () => {
      const xml = `<base table="r"/><tabu breaks="a,b"><rollup type="cube" ind="lvl"/>${tcols}</tabu>`
      const ops = checkedOps(xml, [table])
      const task = taskOf(ops, [table])
      expect(planOf(task)).to.equal(null)
      expectIdentical(single(task, 64), interpreted(ops, [table]), xml)
    })
  })

  describe('refusals', () => {
    const cases: [string, string, RegExp][] = [
      ['a cube of six breaks', tabu('store,dept,amount,s2,s3,s4', '<rollup type="cube"/>'), /at most 5 breaks, not 6/],
      [
        'cols naming a column that is not a break',
        tabu('store', '<rollup cols="dept"/>'),
        /<rollup cols> names "dept", which is not one of the tabulation's breaks/,
      ],
      ['sets naming a column that is not a break', tabu('store', '<rollup sets="store;dept"/>'), /<rollup sets> names "dept"/],
      ['both type and sets', tabu('store,dept', '<rollup type="cube" sets="store"/>'), /either type or sets, not both/],
      ['a level listed twice', tabu('store,dept', '<rollup sets="store;store"/>'), /lists the level \(store\) twice/],
      ['a rollup without breaks', tabu('', '<rollup/>'), /needs a break column to roll up/],
      ['an unknown type', tabu('store', '<rollup type="tree"/>'), /<rollup type> must be hier or cube, not 'tree'/],
      ['two rollups', tabu('store', '<rollup/><rollup/>'), /takes one <rollup>, not two/],
      [
        'a rollup in a cross-tabulation',
        tabu('store', '<rollup/>').replace('breaks="store"', 'breaks="store" cbreaks="dept"'),
        /cross-tabulation \(cbreaks\) is not supported/,
      ],
      [
        'a text placeholder without quotes',
        tabu('store', '<break col="store" placeholder="ALL"/><rollup/>'),
        /placeholder> must be a text constant.*placeholder="'ALL'"/,
      ],
      [
        'a text placeholder on an int break',
        tabu('dept', `<break col="dept" placeholder="'ALL'"/><rollup/>`),
        /<break col="dept" placeholder> must be a int constant/,
      ],
      ['a decimal placeholder on an int break', tabu('dept', '<break col="dept" placeholder="1.5"/><rollup/>'), /must be a int constant/],
      ['a placeholder outside the int range', tabu('dept', '<break col="dept" placeholder="-2147483648"/><rollup/>'), /outside the int range/],
      ['an ind named like a tcol', tabu('store', '<rollup ind="s"/>'), /Two columns of the tabulation would be named "s"/],
      ['an ind that is not a column name', tabu('store', '<rollup ind="1x"/>'), /<rollup ind="1x"> is not a valid column name/],
    ]
    for (const [what, xml, message] of cases) {
      it(`refuses ${what}`, () => {
        const wide = makeTable('sales', [
          ...['store', 'dept', 'amount', 's2', 's3', 's4'].map((name) => ({
            name,
            type: name === 'store' ? ('text' as const) : ('int' as const),
            values: [name === 'store' ? 'e' : 1],
          })),
        ])
        refused(xml, message, [wide])
      })
    }
  })
})
