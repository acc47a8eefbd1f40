/**
 * Text stays dictionary codes from the workers to the renderers (engine/parallel/wire.ts,
 * finish.ts): split answers keep base text as views of the table's own codes, parts' codes are
 * joined under one dictionary, and a small answer over a large dictionary carries only the
 * strings it uses.
 */
import { expect } from 'chai'
import type { CodedResultSet, ResultSet, TableInput } from '../../shared/protocol.js'
import { columnMeta } from '../../shared/table.js'
import { textSlice } from '../../shared/result-text.js'
import { tableOfColumns } from '../helpers/engine.js'
import { textColumnFromStrings } from '../../engine/columns/index.js'
import { executeRunTask } from '../../engine/task/execute.js'
import { concatResults } from '../../engine/parallel/finish.js'
import { fromWire } from '../../engine/parallel/wire.js'
import { checkedOps, expectIdentical, single, split, taskOf } from './parallel-harness.js'

const BLOCK = 4

function people(rows: number): TableInput[] {
  const names = Array.from({ length: rows }, (_, i) => `name-${i % 7}`)
  const ids = Int32Array.from({ length: rows }, (_, i) => i % 5)
  const codes = Array.from({ length: 5 }, (_, i) => `code-${i}`)
  return [
    tableOfColumns('t.people', { name: textColumnFromStrings(names), id: { type: 'int', data: ids } }),
    tableOfColumns('t.codes', { id: { type: 'int', data: Int32Array.from([0, 1, 2, 3, 4]) }, label: textColumnFromStrings(codes) }),
  ]
}

describe('parallel runs keep text as codes', () => {
  it('views a base text column in the table itself and links text under the other table’s dictionary', () => {
    const ts = people(40)
    const ops = checkedOps('<base table="t.people"/><link table2="t.codes" col="id" col2="id" cols="label"/>', ts)
    const parted = split(taskOf(ops, ts), 3, BLOCK)!
    expect(parted.ranges).to.equal(3)
    const [name, , label] = parted.result.columns
    expect(name.kind).to.equal('coded')
    expect(label.kind).to.equal('coded')
    if (name.kind !== 'coded') return
    // No copy: the answer's codes are the table's shared memory.
    expect(name.codes.buffer).to.equal(ts[0].columns[0].buffer)
    expectIdentical(parted.result, single(taskOf(ops, ts), BLOCK), 'link split in 3')
  })

  it('renumbers text the parts wrote into shared memory when their dictionaries differ', () => {
    // 50 labels for 40 rows in parts of about 13: each part sends only the labels it uses, so no
    // two parts have the same dictionary, and their codes in the shared buffer must be renumbered.
    const labels = Array.from({ length: 50 }, (_, i) => `label-${i}`)
    const rows = 40
    const ts = [
      tableOfColumns('t.people', { id: { type: 'int', data: Int32Array.from({ length: rows }, (_, i) => (i * 7) % 50) } }),
      tableOfColumns('t.codes', { id: { type: 'int', data: Int32Array.from(labels, (_, i) => i) }, label: textColumnFromStrings(labels) }),
    ]
    const ops = checkedOps('<base table="t.people"/><link table2="t.codes" col="id" col2="id" cols="label"/>', ts)
    const parted = split(taskOf(ops, ts), 3, BLOCK)!
    const label = parted.result.columns[1]
    expect(label.kind).to.equal('coded')
    expectIdentical(parted.result, single(taskOf(ops, ts), BLOCK), 'link with part dictionaries')
  })

  it('joins parts whose dictionaries differ under one dictionary, each row keeping its string', () => {
    const part = (strings: string[], rows: number): CodedResultSet => {
      const dict = [...new Set(strings)]
      return {
        cols: [columnMeta({ name: 's', type: 'text' })],
        columns: [{ kind: 'int', data: Int32Array.from(strings, (s) => dict.indexOf(s)) }],
        rowCount: rows,
        dicts: [dict],
      }
    }
    const a = ['x', 'y', 'x']
    const b = ['z', 'x', 'w', 'z']
    const table = people(1)[0]
    const joined = concatResults([part(a, 3), part(b, 4)], {
      maxRows: 100,
      truncate: false,
      table,
      ranges: [
        { start: 0, end: 3 },
        { start: 3, end: 7 },
      ],
    })
    const s = joined.columns[0]
    expect(s.kind).to.equal('coded')
    if (s.kind !== 'coded') return
    expect(textSlice(s)).to.deep.equal([...a, ...b])
    expect([...s.dict].sort()).to.deep.equal(['w', 'x', 'y', 'z'])
    // Cut by the row limit (truncate_), the codes stop at the limit too.
    const cut = concatResults([part(a, 3), part(b, 4)], {
      maxRows: 5,
      truncate: true,
      table,
      ranges: [
        { start: 0, end: 3 },
        { start: 3, end: 7 },
      ],
    })
    expect(textSlice(cut.columns[0] as typeof s)).to.deep.equal(['x', 'y', 'x', 'z', 'x'])
    expect(cut.totalRows).to.equal(7)
  })

  it('sends only the strings a small answer uses, not the whole dictionary of its column', () => {
    const words = Array.from({ length: 5000 }, (_, i) => `word-${i}`)
    const ts = [tableOfColumns('t.words', { w: textColumnFromStrings(words), n: { type: 'int', data: Int32Array.from(words, (_, i) => i) } })]
    const ops = checkedOps('<base table="t.words"/><sel value="n=17 | n=4000"/>', ts)
    const coded = executeRunTask(taskOf(ops, ts)) as CodedResultSet
    expect(coded.dicts[0]!.length).to.be.at.most(2)
    const answer: ResultSet = fromWire(coded)
    const w = answer.columns[0]
    expect(w.kind).to.equal('coded')
    expect(textSlice(w as Extract<typeof w, { kind: 'coded' }>)).to.deep.equal(['word-17', 'word-4000'])
  })
})
