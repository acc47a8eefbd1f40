/**
 * Partitions of a table by group keys (engine/columns/key-partitions.ts), on which split runs
 * compute g_ functions that need whole groups: every row falls to exactly one partition, in row
 * order, and rows of one group to the same one, with groups told apart as group-by tells them
 * (-0 as 0, N/A alike), for one and several key columns of every type.
 */
import { expect } from 'chai'
import { groupBy } from '../../engine/columns/index.js'
import { rowsOfPartition } from '../../engine/columns/key-partitions.js'
import { Rng, randomFloatColumn, randomIntColumn, randomTextColumn } from '../../engine/columns/random.js'
import type { Column } from '../../engine/columns/types.js'

const rng = new Rng(31)
const ROWS = 3000
const floats = randomFloatColumn(rng, ROWS, -3, 3, { na: 0.1, decimals: 0 })
for (let i = 0; i < ROWS; i += 7) if (floats.data[i] === 0) floats.data[i] = -0
const KEYS: Record<string, Column[]> = {
  int: [randomIntColumn(rng, ROWS, 0, 500, { na: 0.1 })],
  text: [randomTextColumn(rng, ROWS, ['', 'a', 'b', 'c', 'd', 'e'], { na: 0.1 })],
  'float with -0 and N/A': [floats],
  'date and text': [randomIntColumn(rng, ROWS, 20240101, 20240110, { na: 0.1 }, 'date'), randomTextColumn(rng, ROWS, ['x', 'y'], { na: 0.2 })],
}

describe('rowsOfPartition()', () => {
  for (const [what, cols] of Object.entries(KEYS)) {
    for (const count of [1, 2, 3, 7]) {
      it(`${what} in ${count}: each row once, in order, each group in one partition`, () => {
        const owner = new Int32Array(ROWS).fill(-1)
        for (let p = 0; p < count; p++) {
          const rows = rowsOfPartition(cols, ROWS, p, count)
          for (let i = 1; i < rows.length; i++) expect(rows[i]).to.be.above(rows[i - 1])
          for (const r of rows) {
            expect(owner[r], `row ${r}`).to.equal(-1)
            owner[r] = p
          }
        }
        expect(owner.every((p) => p >= 0)).to.equal(true)
        const groups = groupBy(cols, ROWS)
        const partOfGroup = new Map<number, number>()
        for (let r = 0; r < ROWS; r++) {
          const g = groups.ids[r]
          expect(partOfGroup.get(g) ?? owner[r], `group ${g}`).to.equal(owner[r])
          partOfGroup.set(g, owner[r])
        }
        if (count > 1 && what === 'int') expect(new Set(owner).size).to.equal(count)
      })
    }
  }
})
