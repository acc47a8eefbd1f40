/**
 * `<merge>` makes its columns only when read, and gathers just the kept rows of a column read
 * after a selection (interpret/ops/merge.ts). Whatever is read when, the answer must be the one
 * of concatenating every column first: checked on random tables with N/A, an int column that is
 * float on the other side, text with different dictionaries, a column the other side lacks, and
 * selections keeping none, some and all rows.
 */
import { expect } from 'chai'
import { Rng, randomFloatColumn, randomIntColumn, randomTextColumn } from '../../engine/columns/random.js'
import { columnsOf, runXml, tableOfColumns } from '../helpers/engine.js'

describe('<merge> made column by column, as read', () => {
  const rng = new Rng(77)
  const a = tableOfColumns('a', {
    k: randomIntColumn(rng, 3_000, 0, 9, { na: 0.1 }),
    v: randomIntColumn(rng, 3_000, -100, 100, { na: 0.1 }),
    t: randomTextColumn(rng, 3_000, ['north', 'south', 'east'], { na: 0.1 }),
    only_a: randomFloatColumn(rng, 3_000, 0, 1, { na: 0.1 }),
  })
  const b = tableOfColumns('b', {
    k: randomIntColumn(rng, 1_000, 0, 9, { na: 0.1 }),
    v: randomFloatColumn(rng, 1_000, -5, 5, { na: 0.1, decimals: 1 }),
    t: randomTextColumn(rng, 1_000, ['west', 'south', 'up'], { na: 0.1 }),
  })
  // Reading every column in a willbe first makes them all whole before anything else happens.
  const everyColumnFirst = '<willbe name="all_" value="if(k>=0 | v>=0 | t=\'x\' | only_a>=0;1;0)"/>'

  for (const sel of ['k&lt;3', 'k=99', 'k&gt;=0 | k&lt;0 | 1=1', "t='south'"]) {
    it(`answers <merge/><sel value="${sel}"/> as if every column were made first`, () => {
      const lazy = runXml(`<base table="a"/><merge table2="b"/><sel value="${sel}"/><colord cols="t,v,only_a,k"/>`, [a, b])
      const eager = runXml(`<base table="a"/><merge table2="b"/>${everyColumnFirst}<sel value="${sel}"/><colord cols="t,v,only_a,k"/>`, [a, b])
      expect(columnsOf(lazy)).to.deep.equal(columnsOf(eager))
    })
  }

  // A side with no rows is merged without concatenating (as a split run merges on every part):
  // the columns are the other side's, under the merged types, N/A where that side lacks them.
  it('merges a foreign side with no rows: the current rows, v as float', () => {
    const got = runXml('<base table="a"/><merge table2="b"><sel value="k=99"/></merge><colord cols="t,v,only_a,k"/>', [a, b])
    const alone = runXml('<base table="a"/><colord cols="t,v,only_a,k"/>', [a])
    expect(got.cols.map((c) => c.logical)).to.deep.equal(['text', 'float', 'float', 'int'])
    expect(columnsOf(got)).to.deep.equal(columnsOf(alone))
  })

  it('merges onto a worksheet with no rows: the foreign rows, N/A where the foreign side lacks a column', () => {
    const got = runXml('<base table="a"/><sel value="k=99"/><merge table2="b"/><colord cols="t,v,only_a,k"/>', [a, b])
    const foreign = columnsOf(runXml('<base table="b"/><colord cols="t,v,k"/>', [b]))
    expect(got.cols.map((c) => c.logical)).to.deep.equal(['text', 'float', 'float', 'int'])
    expect(columnsOf(got)).to.deep.equal({ t: foreign.t, v: foreign.v, only_a: foreign.k.map(() => null), k: foreign.k })
  })

  it('gives the rows of both sides in order, float where the other side is float, N/A where it lacks the column', () => {
    const r = columnsOf(runXml('<base table="a"/><merge table2="b"/><sel value="i_()=1 | i_()=3001"/>', [a, b]))
    expect(r.v).to.have.length(2)
    expect(r.only_a[1]).to.equal(null)
    expect(runXml('<base table="a"/><merge table2="b"/>', [a, b]).cols.find((c) => c.name === 'v')!.logical).to.equal('float')
  })
})
