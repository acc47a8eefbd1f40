/**
 * Expressions over one text column evaluated once per dictionary entry (engine/interpret/
 * per-entry.ts): the answer is the one evaluating every row gives. The reference evaluates each
 * distinct value on a table of one row, where a dictionary is never smaller than the rows and
 * the rows themselves are evaluated.
 */
import { expect } from 'chai'
import { parseQuery } from '../../engine/parse/index.js'
import { checkQuery } from '../../engine/check/index.js'
import { runOps } from '../../engine/interpret/index.js'
import { computedPerEntry } from '../../engine/interpret/per-entry.js'
import { Rng } from '../../engine/columns/random.js'
import { columnsOf, makeTable, runXml, type Cell } from '../helpers/engine.js'

const VALUES = [
  null,
  'http://www.example.com/a/b',
  'https://google.com/search?q=x',
  'http://www.Google.de/',
  'ftp://files.example.org',
  'plain text',
  'https://www.ya.ru/x/y/z',
  'http://www./',
  '漢字://www.é.jp/😀',
  'www.www.example.com/',
]

/** `rows` rows drawing from VALUES (few entries, many rows: the per-entry path applies). */
function urlTable(rows: number, seed: number) {
  const rng = new Rng(seed)
  const u: Cell[] = []
  const n: Cell[] = []
  for (let i = 0; i < rows; i++) {
    u.push(VALUES[Math.floor(rng.next() * VALUES.length)]!)
    n.push(i)
  }
  return {
    table: makeTable('t.urls', [
      { name: 'u', type: 'text', values: u },
      { name: 'n', type: 'int', values: n },
    ]),
    u,
  }
}

/** A willbe chain of the shape SQL's planner makes (a column, then expressions over it and its source). */
const CHAIN =
  '<willbe name="e0" value="strlen(u)"/>' +
  '<willbe name="c1" value="if(e0&gt;12;substr(u;8;1000);u)"/>' +
  '<willbe name="k" value="if(beginswith(c1;\'www.\');substr(c1;5;1000);c1)"/>' +
  '<willbe name="len" value="e0*2+strlen(k)"/>' +
  '<willbe name="g" value="contains(k;\'google\') | contains(strdowncase(k);\'google\')"/>'

/** Each row's value of the willbes, from evaluating its value alone on a one-row table. */
function rowByRow(u: readonly Cell[], names: readonly string[]): Record<string, Cell[]> {
  const byValue = new Map<Cell, Record<string, Cell[]>>()
  const out: Record<string, Cell[]> = Object.fromEntries(names.map((n) => [n, []]))
  for (const v of u) {
    let one = byValue.get(v)
    if (one === undefined) {
      const table = makeTable('t.urls', [
        { name: 'u', type: 'text', values: [v] },
        { name: 'n', type: 'int', values: [0] },
      ])
      one = columnsOf(runXml(`<base table="t.urls"/>${CHAIN}`, [table]))
      byValue.set(v, one)
    }
    for (const n of names) out[n]!.push(one[n]![0]!)
  }
  return out
}

describe('expressions of one text column, per dictionary entry', () => {
  it('give every row what evaluating that row alone gives, through a chain of willbes', () => {
    const { table, u } = urlTable(400, 7)
    const got = columnsOf(runXml(`<base table="t.urls"/>${CHAIN}`, [table]))
    const names = ['e0', 'c1', 'k', 'len', 'g']
    const want = rowByRow(u, names)
    for (const n of names) expect(got[n], n).to.deep.equal(want[n])
  })

  it('select the rows evaluating each row selects, before and after other selections', () => {
    const { table, u } = urlTable(500, 11)
    const keep = (v: Cell) => typeof v === 'string' && (v.includes('google') || v.toLowerCase().includes('www.'))
    const got = columnsOf(runXml(`<base table="t.urls"/><sel value="contains(u;'google') | contains(strdowncase(u);'www.')"/>`, [table]))
    expect(got.u).to.deep.equal(u.filter(keep))
    const after = columnsOf(runXml(`<base table="t.urls"/><sel value="n&lt;300"/><sel value="~contains(u;'.com')"/>`, [table]))
    // Text N/A reads back as ''.
    expect(after.u).to.deep.equal(
      u
        .slice(0, 300)
        .filter((v) => typeof v !== 'string' || !v.includes('.com'))
        .map((v) => v ?? ''),
    )
  })

  it('group and summarise by a key computed from the text', () => {
    const { table, u } = urlTable(600, 3)
    const got = columnsOf(
      runXml(`<base table="t.urls"/>${CHAIN}<tabu breaks="k"><tcol fun="cnt" name="c"/><tcol fun="avg" source="len" name="l"/></tabu>`, [table]),
    )
    const want = rowByRow(u, ['k', 'len'])
    const groups = new Map<Cell, { c: number; sum: number; vals: number }>()
    want.k!.forEach((k, i) => {
      const g = groups.get(k) ?? { c: 0, sum: 0, vals: 0 }
      g.c++
      const len = want.len![i]
      if (typeof len === 'number') {
        g.sum += len
        g.vals++
      }
      groups.set(k, g)
    })
    const keys = got.k!
    expect(new Set(keys)).to.deep.equal(new Set(groups.keys()))
    keys.forEach((k, i) => {
      const g = groups.get(k)!
      expect(got.c![i], `count of ${String(k)}`).to.equal(g.c)
      if (g.vals === 0) expect(got.l![i], `avg of ${String(k)}`).to.equal(null)
      else expect(got.l![i], `avg of ${String(k)}`).to.be.closeTo(g.sum / g.vals, 1e-9)
    })
  })

  it('are evaluated per entry where the entries are few, including over a column computed that way', () => {
    const { table } = urlTable(400, 5)
    const ops = checkQuery(
      parseQuery(`<base table="t.urls"/>${CHAIN}<willbe name="both" value="n+e0"/>`, {}),
      new Map([['t.urls', table.columns.map((c) => c.spec)]]),
    ).ops
    const ws = runOps(ops, new Map([['t.urls', table]]))
    for (const name of ['e0', 'c1', 'k', 'len', 'g']) expect(computedPerEntry(ws.column(name)!.data()), name).to.equal(true)
    // n is not the text column: that one is evaluated row by row.
    expect(computedPerEntry(ws.column('both')!.data())).to.equal(false)
  })

  it('are evaluated row by row where the entries are as many as the rows', () => {
    const u = Array.from({ length: 50 }, (_, i) => `http://host${i}.com/`)
    const table = makeTable('t.urls', [
      { name: 'u', type: 'text', values: u },
      { name: 'n', type: 'int', values: u.map((_, i) => i) },
    ])
    const ops = checkQuery(parseQuery(`<base table="t.urls"/>${CHAIN}`, {}), new Map([['t.urls', table.columns.map((c) => c.spec)]])).ops
    const ws = runOps(ops, new Map([['t.urls', table]]))
    expect(computedPerEntry(ws.column('e0')!.data())).to.equal(false)
    expect(columnsOf(runXml(`<base table="t.urls"/>${CHAIN}`, [table])).e0).to.deep.equal(u.map((s) => s.length))
  })
})
