/**
 * The row-list selection path must agree with evaluating the same expression as a column, for
 * every comparison shape it specialises, on random data with N/A mixed in.
 */
import { expect } from 'chai'
import { Rng, randomFloatColumn, randomIntColumn, randomTextColumn } from '../../engine/columns/random.js'
import { parseExpr } from '../../engine/expr/index.js'
import { evalExpr, toMask } from '../../engine/interpret/eval.js'
import { selectRows } from '../../engine/interpret/select.js'
import { newColumn, Worksheet } from '../../engine/interpret/worksheet.js'

const rng = new Rng(7)
const ROWS = 400
const ws = new Worksheet(ROWS, [
  newColumn('i', randomIntColumn(rng, ROWS, -5, 5, { na: 0.15 })),
  newColumn('j', randomIntColumn(rng, ROWS, -5, 5, { na: 0.15 })),
  newColumn('d', randomIntColumn(rng, ROWS, 20240101, 20240110, { na: 0.15 }, 'date')),
  newColumn('f', randomFloatColumn(rng, ROWS, -5, 5, { na: 0.15, decimals: 0 })),
  newColumn('t', randomTextColumn(rng, ROWS, ['ant', 'bee', 'cat', 'dog'], { na: 0.15 })),
])

const ATOMS = [
  'i=3',
  'i<>3',
  'i<0',
  'i<=0',
  'i>2',
  'i>=2',
  '3<i',
  '-2>=i',
  'i=1 2 3',
  'i<>1 2 3',
  'i=j',
  'i<j',
  'i>=j',
  'f=2',
  'f<0',
  'f>=1.5',
  'f<>0',
  'f=1 2',
  'd>=20240105',
  'd=20240103',
  'd<1/5/24',
  "t='bee'",
  "t<>'bee'",
  "t<'bee'",
  "t<='bee'",
  "t>'bee'",
  "t>='bee'",
  "t=''",
  "t<>''",
  "t>'zzz'",
  "t<'a'",
  "t='bee' 'dog'",
  "t<>'ant' ''",
  "t='nope'",
  'i_()<10',
  'mod(i;2)=0',
  'i',
  'f',
  'between(i;-2;3)',
  'between(i;3;-2)',
  'between(d;20240103;20240107)',
  'between(f;-1.5;2)',
  'between(-3;i;j)',
  "between(t;'bee';'cat')",
  'i=-3 0 4',
  'i=1 100000',
  'i<>-3 0 4',
  'd=20240103 20240109',
  'abs(i)>2',
  'if(i>0;f;j)',
  "t='bee' & i>0",
]

function reference(text: string): number[] {
  const mask = toMask(evalExpr(parseExpr(text), ws), ROWS)
  return [...mask.keys()].filter((r) => mask[r] === 1)
}

describe('selectRows()', () => {
  for (const a of ATOMS) {
    it(`agrees with column evaluation for ${a}`, () => {
      expect(Array.from(selectRows(parseExpr(a), ws))).to.deep.equal(reference(a))
    })
  }
  it('agrees on 300 random combinations with &, | and ~', () => {
    for (let k = 0; k < 300; k++) {
      const pick = () => ATOMS[rng.int(0, ATOMS.length - 1)]
      const ops = ['&', '|']
      const text = `(${pick()}) ${ops[rng.int(0, 1)]} (${rng.next() < 0.3 ? '~' : ''}${pick()}) ${ops[rng.int(0, 1)]} (${pick()})`
      expect(Array.from(selectRows(parseExpr(text), ws)), text).to.deep.equal(reference(text))
    }
  })
})
