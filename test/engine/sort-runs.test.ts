/**
 * The sort after a grouping (issue 39): consecutive `<sort>`s run as one sort, a top-N when a
 * first-N selection reads them (interpret/run.ts, ops/simple.ts runSorts), and a tabulation read
 * by sorts leaves its break order to them (ops/tabu.ts tabulateForSorts; parallel/finish.ts in a
 * split run). Each is checked against the same query with a `<willbe>` between the operations,
 * which runs them one by one as before. Also the top-N kernel on keys where the first ties on
 * nearly every row (every count 1, the order left to a 64-bit id): against a full sort.
 */
import { expect } from 'chai'
import { sortPermutation, type Column, type SortKey } from '../../engine/columns/index.js'
import { Rng } from '../../engine/columns/random.js'
import type { RadixKey } from '../../engine/columns/radix.js'
import { sortWords } from '../../engine/columns/sort-words.js'
import { topCandidates } from '../../engine/columns/top-candidates.js'
import { NA_BIGINT, NA_INT } from '../../engine/columns/types.js'
import type { OpOf } from '../../engine/ast.js'
import { runOps } from '../../engine/interpret/index.js'
import { tabulateForSorts } from '../../engine/interpret/ops/tabu.js'
import { columnsOf, makeTable, runXml, type Cell } from '../helpers/engine.js'
import { checkedOps, expectIdentical, single, split, taskOf } from './parallel-harness.js'

const random64 = (rng: Rng): bigint => BigInt.asIntN(64, (BigInt(rng.int(0, 0xffffffff)) << 32n) | BigInt(rng.int(0, 0xffffffff)))

describe('a top-N over keys whose first ties on nearly every row', () => {
  const rng = new Rng(4040)
  const n = 30_000
  const c: Column = { type: 'int', data: Int32Array.from({ length: n }, () => (rng.chance(0.001) ? 2 : rng.chance(0.001) ? NA_INT : 1)) }
  const id: Column = { type: 'bigint', data: BigInt64Array.from({ length: n }, (_, r) => (r % 5000 === 7 ? NA_BIGINT : random64(rng))) }
  const ip: Column = { type: 'int', data: Int32Array.from({ length: n }, () => rng.int(-3, 3)) }
  // Ties on every key: only the position decides among them.
  const same: Column = { type: 'int', data: new Int32Array(n) }
  const orders: { name: string; keys: SortKey[] }[] = [
    {
      name: 'c down, id, ip',
      keys: [
        { col: c, desc: true },
        { col: id, desc: false },
        { col: ip, desc: false },
      ],
    },
    {
      name: 'c up, id down',
      keys: [
        { col: c, desc: false },
        { col: id, desc: true },
      ],
    },
    {
      name: 'ip, c down, id',
      keys: [
        { col: ip, desc: false },
        { col: c, desc: true },
        { col: id, desc: false },
      ],
    },
    {
      name: 'a key equal on every row, then c',
      keys: [
        { col: same, desc: false },
        { col: c, desc: true },
      ],
    },
  ]
  it('narrows the candidates past the first key: about the limit, not every row', () => {
    const words = (col: Column, desc: boolean): RadixKey[] =>
      sortWords(col, desc, n, null).map((sw) => {
        const values = new Uint32Array(n)
        sw.write(values, 0)
        return { values, bits: sw.bits }
      })
    const keys = [...words(c, true), ...words(id, false)]
    const candidates = topCandidates(keys, n, 10)
    expect(candidates).to.not.equal(null)
    expect(candidates!.length).to.be.below(600)
  })

  for (const { name, keys } of orders) {
    it(`gives the full sort's first rows: ${name}`, () => {
      const full = Array.from(sortPermutation(keys, n))
      for (const limit of [0, 1, 10, 333, 5000])
        expect(Array.from(sortPermutation(keys, n, undefined, limit)), `limit ${limit}`).to.deep.equal(full.slice(0, limit))
    })
  }
})

describe('sorts after a tabulation, run as one and as a top-N, against the same sorts one by one', () => {
  const rng = new Rng(4141)
  const n = 6000
  const w: Cell[] = []
  const ip: Cell[] = []
  const p: Cell[] = []
  const v: Cell[] = []
  const ids = Array.from({ length: 900 }, () => random64(rng))
  for (let r = 0; r < n; r++) {
    // Ids past 2^53, some repeated (counts above 1), some N/A; IPs negative and N/A.
    w.push(rng.chance(0.02) ? null : ids[rng.int(0, ids.length - 1)])
    ip.push(rng.chance(0.03) ? null : rng.int(-4, 4))
    p.push(rng.chance(0.3) ? '' : `phrase ${rng.int(0, 40)}`)
    v.push(rng.int(0, 9) === 0 ? null : rng.int(-100, 100) / 4)
  }
  const t = makeTable('t.hits', [
    { name: 'w', type: 'bigint', values: w },
    { name: 'ip', type: 'int', values: ip },
    { name: 'p', type: 'text', values: p },
    { name: 'v', type: 'float', values: v },
  ])
  const tabu = (breaks: string) =>
    `<tabu breaks="${breaks}">${breaks
      .split(',')
      .map((b) => `<break col="${b}"/>`)
      .join('')}<tcol fun="cnt" name="c"/><tcol fun="sum" source="v" name="s"/><tcol fun="avg" source="v" name="a"/></tabu>`
  const spaced = (ops: readonly string[]) => ops.map((o, i) => o + `<willbe name="z${i}" value="1"/>`).join('') + `<colord hide="z*"/>`
  const cases: { name: string; ops: string[] }[] = [
    { name: 'GROUP BY w, ip ORDER BY c DESC LIMIT 10', ops: [tabu('w,ip'), '<sort col="ip"/>', '<sort col="w"/>', '<sort col="c" dir="down"/>'] },
    { name: 'GROUP BY ip, w, p ORDER BY c DESC, p', ops: [tabu('ip,w,p'), '<sort col="p"/>', '<sort col="c" dir="down"/>'] },
    {
      name: 'breaks sorted down with N/A last, then sorted by the sum',
      ops: [tabu('w,p').replace('<break col="w"/>', '<break col="w" sort="down" naorder="last"/>'), '<sort col="s"/>'],
    },
    {
      name: 'breaks left unsorted, then two sorts',
      ops: [tabu('p,ip').replace(/<break col="(\w+)"\/>/g, '<break col="$1" sort="none"/>'), '<sort col="a" dir="down"/>', '<sort col="c"/>'],
    },
  ]
  for (const { name, ops } of cases) {
    for (const keep of ['<sel value="i_()&lt;=10"/>', '<sel value="i_()&lt;=1000"/>', '']) {
      it(`${name}${keep === '' ? ', every row' : `, ${keep.includes('1000') ? 'first 1000' : 'first 10'}`}`, () => {
        const fused = `<base table="t.hits"/>${ops.join('')}${keep}`
        const checked = checkedOps(fused, [t])
        // The tabulation is left in the order its groups come, its order handed to the sorts.
        const deferred = tabulateForSorts(checked[1] as OpOf<'Tabu'>, runOps(checked.slice(0, 1), new Map([[t.path, t]])))
        expect(deferred.tieKeys.length).to.equal(name.includes('unsorted') ? 0 : ops[0].split('<break ').length - 1)
        const oneByOne = `<base table="t.hits"/>${spaced(ops)}${keep}`
        expect(columnsOf(runXml(fused, [t]))).to.deep.equal(columnsOf(runXml(oneByOne, [t])))
        // Split over parts, the merge finishing the tabulation: as a worker running it alone.
        const task = taskOf(checked, [t])
        const whole = single(task, 512)
        for (const parts of [2, 3]) expectIdentical(split(task, parts, 512)!.result, whole, `${parts} parts`)
        expect(columnsOf(whole)).to.deep.equal(columnsOf(runXml(oneByOne, [t])))
      })
    }
  }
})
