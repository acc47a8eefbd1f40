/**
 * shared/csv/cells.ts against the slow reference it replaces on the common path: every cell's
 * kind is textKind of its trimmed text, and its number what Number() (or dashedDate) makes of it,
 * on random cells near every edge of the fast classification.
 */
import { expect } from 'chai'
import { readCsvColumns } from '../../shared/csv/read.js'
import { dashedDate, DATE, FLOAT, INT, textKind, trimmed } from '../../shared/csv/infer.js'
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
      const want = kind === INT || kind === FLOAT ? Number(t) : kind === DATE ? dashedDate(t) : 0
      expect(Object.is(col.nums[r], want), `${JSON.stringify(t)}: ${col.nums[r]} where ${want}`).to.equal(true)
    }
  })
})
