/**
 * Big integers (`j`, issue 21 item 1; 64-bit since issue 38) in the engine: a bigint column
 * (BigInt64Array, exact over ±(2^63 − 1)) through arithmetic, comparisons, sorting, selection, tabulation, links and
 * merges with int columns, and g_ functions, checked against plain JavaScript numbers and split
 * over parts; an int operator that overflows names itself, and once marked wide
 * (expr/widening.ts) computes exactly in big integers and is typed so.
 */
import { expect } from 'chai'
import { markWide } from '../../engine/expr/widening.js'
import { fallbackOf, FallbackError } from '../../engine/task/outcome.js'
import { executeRunTask } from '../../engine/task/execute.js'
import { checkMacro, parseMacro } from '../../engine/index.js'
import { Rng } from '../../engine/columns/random.js'
import { columnsOf, makeTable, runXml, type Cell } from '../helpers/engine.js'
import { checkedOps, expectIdentical, interpreted, split, taskOf } from './parallel-harness.js'

const BIG = 2 ** 40

function bigTable(rows: number, seed: number) {
  const rng = new Rng(seed)
  const k: Cell[] = []
  const x: Cell[] = []
  const i: Cell[] = []
  for (let r = 0; r < rows; r++) {
    k.push(rng.int(0, 4) === 0 ? null : BIG + rng.int(0, 19))
    x.push(rng.int(0, 6) === 0 ? null : (rng.int(0, 1) === 0 ? -1 : 1) * (BIG * 3 + rng.int(0, 999)))
    i.push(rng.int(0, 999))
  }
  return makeTable('t.big', [
    { name: 'k', type: 'bigint', values: k },
    { name: 'x', type: 'bigint', values: x },
    { name: 'i', type: 'int', values: i },
  ])
}

const typesOf = (r: { cols: readonly { name: string; type: string }[] }) => Object.fromEntries(r.cols.map((c) => [c.name, c.type]))

describe('big integers in the engine', () => {
  const t = bigTable(4000, 2101)
  const cols = columnsOf(runXml('<base table="t.big"/>', [t]))

  it('computes + - * with ints exactly and keeps the type j', () => {
    const r = runXml(
      '<base table="t.big"/><willbe name="s" value="x+i"/><willbe name="d" value="i-x"/><willbe name="p" value="k*3"/><willbe name="n" value="-x"/>',
      [t],
    )
    const got = columnsOf(r)
    expect(got.s).to.deep.equal(cols.x.map((v, r) => (v === null ? null : (v as number) + (cols.i[r] as number))))
    expect(got.d).to.deep.equal(cols.x.map((v, r) => (v === null ? null : (cols.i[r] as number) - (v as number))))
    expect(got.p).to.deep.equal(cols.k.map((v) => (v === null ? null : (v as number) * 3)))
    expect(got.n).to.deep.equal(cols.x.map((v) => (v === null ? null : -(v as number))))
    expect(typesOf(r)).to.include({ s: 'j', d: 'j', p: 'j', n: 'j' })
  })

  it('selects, sorts, tabulates by a big-integer key and summarises it like JavaScript numbers', () => {
    const sel = columnsOf(runXml(`<base table="t.big"/><sel value="k>${BIG + 9}"/><sort col="x" dir="down"/>`, [t]))
    const kept = cols.k.map((v, r) => r).filter((r) => cols.k[r] !== null && (cols.k[r] as number) > BIG + 9)
    expect(sel.x).to.deep.equal(kept.map((r) => cols.x[r]).sort((a, b) => (a === null ? 1 : b === null ? -1 : (b as number) - (a as number))))
    const tab = runXml(
      '<base table="t.big"/><tabu breaks="k"><break col="k" sort="up"/><tcol source="x" fun="max" name="m"/><tcol fun="cnt" name="n"/><tcol source="x" fun="first" name="f"/></tabu>',
      [t],
    )
    expect(typesOf(tab)).to.include({ k: 'j', m: 'j', n: 'i', f: 'j' })
    const byKey = new Map<Cell, Cell[]>()
    cols.k.forEach((k, r) => byKey.set(k, [...(byKey.get(k) ?? []), cols.x[r]]))
    const keys = [...byKey.keys()].sort((a, b) => (a === null ? -1 : b === null ? 1 : (a as number) - (b as number)))
    const got = columnsOf(tab)
    expect(got.k).to.deep.equal(keys)
    expect(got.n).to.deep.equal(keys.map((k) => byKey.get(k)!.length))
    expect(got.m).to.deep.equal(
      keys.map((k) => byKey.get(k)!.reduce<Cell>((m, v) => (v === null ? m : m === null || (v as number) > (m as number) ? v : m), null)),
    )
    expect(got.f).to.deep.equal(keys.map((k) => byKey.get(k)![0]))
  })

  it('links an int key to a big-integer key and merges int with big integers into j', () => {
    const dim = makeTable('t.dim', [
      { name: 'k', type: 'int', values: [1, 2, 3] },
      { name: 'name', type: 'text', values: ['one', 'two', 'three'] },
    ])
    const facts = makeTable('t.facts', [{ name: 'k', type: 'bigint', values: [3, 3000000000, null, 1] }])
    const linked = columnsOf(runXml('<base table="t.facts"/><link table2="t.dim" col="k" col2="k" cols="name"/>', [facts, dim]))
    expect(linked.name).to.deep.equal(['three', null, null, 'one'].map((v) => v ?? ''))
    const merged = runXml('<base table="t.dim"/><merge table2="t.facts"/>', [facts, dim])
    expect(columnsOf(merged).k).to.deep.equal([1, 2, 3, 3, 3000000000, null, 1])
    expect(typesOf(merged).k).to.equal('j')
  })

  it('runs g_ functions over big integers', () => {
    const r = runXml(
      '<base table="t.big"/><willbe name="mx" value="g_max(k;;x)"/><willbe name="sh" value="g_rshift(;;;x;1)"/><willbe name="cm" value="g_cummax(k;;;x)"/>',
      [t],
    )
    expect(typesOf(r)).to.include({ mx: 'j', sh: 'j', cm: 'j' })
    const got = columnsOf(r)
    expect(got.sh).to.deep.equal([...cols.x.slice(1), null])
  })

  it('gives the same answer split in parts as in one piece', () => {
    const xml =
      '<base table="t.big"/><willbe name="s" value="x+i*1000"/><sel value="s>0"/><tabu breaks="k"><tcol source="s" fun="sum" name="sum"/><tcol source="s" fun="min" name="lo"/></tabu>'
    const ops = checkedOps(xml, [t])
    const whole = interpreted(ops, [t])
    for (const parts of [2, 3]) {
      const got = split(taskOf(ops, [t]), parts, 512)
      expect(got, `${parts} parts`).to.not.equal(null)
      expectIdentical(got!.result, whole, `${parts} parts`)
    }
  })

  it('names the int operator that overflows, and computes it exactly once it is marked wide', () => {
    const ints = makeTable('t.ints', [
      { name: 'd', type: 'int', values: [20240131, 20231231, null] },
      { name: 'h', type: 'int', values: [93000, 235959, 1] },
    ])
    const xml = '<base table="t.ints"/><willbe name="key" value="d*1000000+h"/><willbe name="small" value="h+1"/>'
    const { ops } = parseMacro(xml, {})
    const schemas = new Map([['t.ints', ints.columns.map((c) => c.spec)]])
    let first: unknown
    try {
      executeRunTask(taskOf(checkMacro(ops, schemas), [ints]))
    } catch (e) {
      first = e
    }
    // A fallback, not an error: the overflow it stands for goes with it, for when widening cannot help.
    expect(first).to.be.instanceOf(FallbackError)
    const fallback = fallbackOf(first)
    if (fallback?.kind !== 'widen') throw new Error(`expected a widen fallback, got ${JSON.stringify(fallback)}`)
    expect(fallback.overflow.code).to.equal('CHECK_ERROR')
    expect(fallback.overflow.message).to.match(/^Integer overflow: 20240131 \* 1000000/)
    const key = fallback.operator
    // The multiplication overflows first; once it is wide, the addition sees a big integer.
    const wide = checkMacro(markWide(ops, new Set([key!])), schemas)
    const r = executeRunTask(taskOf(wide, [ints]))
    expect(columnsOf(r).key).to.deep.equal([20240131093000, 20231231235959, null])
    expect(typesOf(r)).to.include({ key: 'j', small: 'i' })
  })

  it('gives the same answer for a widened operator split in parts as in one piece', () => {
    const xml = '<base table="t.big"/><willbe name="w" value="i*3000000"/><willbe name="y" value="w+i"/><sel value="y>1000000000"/>'
    const { ops } = parseMacro(xml, {})
    const schemas = new Map([['t.big', t.columns.map((c) => c.spec)]])
    let key: string | null = null
    try {
      executeRunTask(taskOf(checkMacro(ops, schemas), [t]))
    } catch (e) {
      const fallback = fallbackOf(e)
      key = fallback?.kind === 'widen' ? fallback.operator : null
    }
    expect(key).to.be.a('string')
    const wide = checkMacro(markWide(ops, new Set([key!])), schemas)
    const whole = interpreted(wide, [t])
    expect(typesOf(whole)).to.include({ w: 'j', y: 'j' })
    for (const parts of [2, 3]) {
      const got = split(taskOf(wide, [t]), parts, 512)
      expect(got, `${parts} parts`).to.not.equal(null)
      expectIdentical(got!.result, whole, `${parts} parts`)
    }
  })

  it('computes exactly past 2^53, and refuses rather than wraps a result past 2^63 − 1', () => {
    expect(columnsOf(runXml('<table cols="a">1</table><willbe name="x" value="9007199254740991+a"/>')).x).to.deep.equal([9007199254740992n])
    expect(columnsOf(runXml('<table cols="a">4611686018427387904</table><willbe name="x" value="a-1+a"/>')).x).to.deep.equal([9223372036854775807n])
    expect(columnsOf(runXml('<table cols="a">-4611686018427387904</table><willbe name="x" value="a+1-a"/>')).x).to.deep.equal([1])
    expect(() => runXml('<table cols="a">4611686018427387904</table><willbe name="x" value="a*2"/>')).to.throw(/Big integer overflow: 4611686018427387904 \* 2/)
    expect(() => runXml('<table cols="a">-9223372036854775807</table><willbe name="x" value="a-1"/>')).to.throw(/Big integer overflow/)
    expect(() => runXml('<table cols="a">9223372036854775807</table><willbe name="x" value="a+1"/>')).to.throw(/2\^63/)
  })

  describe('values past 2^53, where a float64 would round', () => {
    // Neighbours a float64 cannot tell apart: 2^60 + 1 and 2^60 + 2 both round to 2^60 as doubles.
    const P = 2n ** 60n
    const ids = [P + 1n, P + 2n, null, -(P + 1n), P + 2n, 9223372036854775807n, -9223372036854775807n]
    const t = makeTable('t.ids', [
      { name: 'id', type: 'bigint', values: ids },
      { name: 'n', type: 'int', values: ids.map((_, i) => i) },
    ])
    const run = (xml: string, tables = [t]) => columnsOf(runXml(xml, tables))

    it('answers every digit and compares exactly with literals of any size', () => {
      expect(run('<base table="t.ids"/>').id).to.deep.equal(ids)
      expect(run(`<base table="t.ids"/><sel value="id=${P + 2n}"/>`).n).to.deep.equal([1, 4])
      expect(run(`<base table="t.ids"/><sel value="id>${P + 1n}"/>`).n).to.deep.equal([1, 4, 5])
      expect(run(`<base table="t.ids"/><sel value="id=${-(P + 1n)} ${P + 1n}"/>`).n).to.deep.equal([0, 3])
      expect(run('<base table="t.ids"/><sel value="id<>-9223372036854775807"/>').n).to.deep.equal([0, 1, 2, 3, 4, 5])
      // Against a decimal: 2^60 as a double is below 2^60 + 1, though 2^60 + 1 rounds to it.
      expect(run('<base table="t.ids"/><sel value="id>1152921504606846976.0"/>').n).to.deep.equal([0, 1, 4, 5])
    })

    it('sorts, groups, links and takes extremes by the exact values', () => {
      expect(run('<base table="t.ids"/><sort col="id"/>').n).to.deep.equal([2, 6, 3, 0, 1, 4, 5])
      expect(run('<base table="t.ids"/><sort col="id" dir="down"/>').n).to.deep.equal([5, 1, 4, 0, 3, 6, 2])
      const tab = run('<base table="t.ids"/><tabu breaks="id"><break col="id" sort="up"/><tcol fun="cnt" name="c"/></tabu>')
      expect(tab.id).to.deep.equal([null, -9223372036854775807n, -(P + 1n), P + 1n, P + 2n, 9223372036854775807n])
      expect(tab.c).to.deep.equal([1, 1, 1, 1, 2, 1])
      const dim = makeTable('t.dim', [
        { name: 'id', type: 'bigint', values: [P + 2n, P + 1n] },
        { name: 'name', type: 'text', values: ['two', 'one'] },
      ])
      expect(run('<base table="t.ids"/><link table2="t.dim" col="id" col2="id"/>', [t, dim]).name).to.deep.equal(['one', 'two', '', '', 'two', '', ''])
      const g = run('<base table="t.ids"/><willbe name="m" value="g_max(;;id)"/><willbe name="l" value="g_min(;;id)"/>')
      expect(g.m[0]).to.equal(9223372036854775807n)
      expect(g.l[0]).to.equal(-9223372036854775807n)
    })

    it('refuses a tabulated extreme it would have to round, and sums in decimals', () => {
      expect(() => runXml('<base table="t.ids"/><tabu><tcol source="id" fun="max" name="m"/></tabu>', [t])).to.throw(/within ±9007199254740991/)
      const sum = run('<base table="t.ids"/><sel value="id>0"/><tabu><tcol source="id" fun="sum" name="s"/></tabu>').s
      expect(sum[0]).to.be.closeTo(Number(3n * P + 5n) + 2 ** 63, 2 ** 12)
    })
  })
})
