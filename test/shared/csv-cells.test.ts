/**
 * shared/csv/cells.ts against the slow reference it replaces on the common path: every cell's
 * kind is textKind of its trimmed text, and its number what Number() (or dashedDate) makes of it,
 * on random cells near every edge of the fast classification.
 */
import { expect } from 'chai'
import { readCsvColumns } from '../../shared/csv/read.js'
import { BIG, dashedDate, DATE, FLOAT, INT, textKind, trimmed } from '../../shared/csv/infer.js'
import { Rng } from '../../engine/columns/random.js'

const PIECES = ['', '0', '7', '12', '999999999', '1000000000', '2147483647', '2147483648', '00012', '-', '+', '.', 'e', 'E', '5', '-0', '3.', '.5']
const SHAPES: ((rng: Rng) => string)[] = [
  (rng) => rng.pick(PIECES) + rng.pick(PIECES),
  (rng) => `${rng.pick(['', '-', '+'])}${rng.int(0, 99999)}.${String(rng.int(0, 999999)).padStart(rng.int(1, 8), '0')}`,
  (rng) => `${rng.pick(['', '-'])}${rng.int(0, 9999999)}.${rng.int(0, 99999999)}${rng.pick(['', 'e3', 'E-2'])}`,
  (rng) => `${rng.int(1000, 2999)}-${String(rng.int(0, 13)).padStart(2, '0')}-${String(rng.int(0, 32)).padStart(2, '0')}`,
  (rng) => `${rng.pick(['', ' ', '\t'])}${rng.int(-999, 999)}${rng.pick(['', ' '])}`,
  (rng) => rng.pick(['sku12', 'a', 'x1.5', 'N/A', '1,5', '12345678', '20240229', '2024-02-30', '2024-1-05', '1e5', '0x1F', 'Infinity', '١٢']),
  (rng) => `${rng.pick(['', '-'])}${'9'.repeat(rng.int(8, 17))}${rng.pick(['', '.5', '.25'])}`,
]

describe('CellColumn (readCsvColumns)', () => {
  it('gives every cell the kind and number textKind and Number() give its text, on 20,000 random cells', () => {
    const rng = new Rng(11)
    const cells = Array.from({ length: 20_000 }, () => rng.pick(SHAPES)(rng)).map((c) => (c.includes(',') ? `"${c}"` : c))
    const { columns } = readCsvColumns(`v\n${cells.join('\n')}\n`)
    const col = columns[0]
    // Empty lines are no records: compare with the non-empty cells only.
    const written = cells.filter((c) => c !== '')
    expect(col.length).to.equal(written.length)
    for (let r = 0; r < col.length; r++) {
      const t = trimmed(col.text(r))
      const kind = textKind(t)
      expect(col.kinds[r], JSON.stringify(t)).to.equal(kind)
      const want = kind === INT || kind === FLOAT || kind === BIG ? Number(t) : kind === DATE ? dashedDate(t) : 0
      expect(Object.is(col.nums[r], want), `${JSON.stringify(t)}: ${col.nums[r]} where ${want}`).to.equal(true)
    }
  })
})

describe('CellColumn.chunkText', () => {
  it('gives the cells back exactly, one value a distinct text in order of first row, on 30,000 random cells quoted or not', () => {
    const rng = new Rng(23)
    // Many distinct values (the table grows several times), repeats, the same text quoted and
    // unquoted, empty cells (N/A), and texts that differ in one character only.
    const words = Array.from({ length: 6000 }, (_, k) => `${rng.pick(['w', 'x', 'é', ' '])}${k % 3000}${rng.pick(['', 'a', ' '])}`)
    const cells = Array.from({ length: 30_000 }, () => (rng.chance(0.1) ? '' : rng.pick(words)))
    const written = cells.map((c) => (rng.chance(0.2) ? `"${c}"` : c))
    const { columns } = readCsvColumns(`a,v\n${written.map((c) => `1,${c}`).join('\n')}\n`)
    const col = columns[1]
    const { values, codes } = col.chunkText()
    expect(codes.length).to.equal(cells.length)
    const back = Array.from(codes, (c) => (c === 0 ? '' : values[c - 1]))
    expect(back).to.deep.equal(col.strings())
    expect(back).to.deep.equal(cells)
    // Distinct, in order of first appearance.
    expect(values).to.deep.equal([...new Set(cells.filter((c) => c !== ''))])
  })
})
