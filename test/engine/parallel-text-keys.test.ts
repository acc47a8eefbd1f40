/**
 * Text group keys cross a split run as dictionary codes (engine/parallel/codec.ts, merge.ts): each
 * part's partials carry its own dictionary, and the merge and the next phase's parts put them on
 * one dictionary before telling groups apart by code. Here every part has a different dictionary
 * (a text key computed per part keeps only the values its rows use), with values found in one part
 * only and N/A in one part only; a wrong remap would put rows in the wrong group.
 */
import type { TableInput } from '../../shared/protocol.js'
import type { TextColumn } from '../../engine/columns/types.js'
import { tableOfColumns } from '../helpers/engine.js'
import { checkedOps, expectIdentical, interpreted, single, split, taskOf } from './parallel-harness.js'

const BLOCK = 4
const ROWS = 42

/** Part by part (about 14 rows each in 3 parts): which label each row has ('' is N/A). */
function labelOf(i: number): string {
  if (i < 14) return i % 3 === 0 ? 'both' : `first-${i % 4}`
  if (i < 28) return i % 4 === 0 ? '' : `middle-${i % 3}`
  return i % 2 === 0 ? 'both' : `last-${i % 5}`
}

/**
 * A text column over a dictionary far larger than any part's rows (unused entries included, as a
 * selection leaves them), so that a text function run per part keeps only the values it meets.
 */
function names(): TextColumn {
  const used = Array.from({ length: ROWS }, (_, i) => labelOf(i))
  const spare = Array.from({ length: 80 }, (_, i) => `spare-${String(i).padStart(2, '0')}`)
  const dict = [...new Set(['', ...used, ...spare])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const codes = Int32Array.from(used, (s) => dict.indexOf(s))
  return { type: 'text', codes, dict }
}

function tables(): TableInput[] {
  return [
    tableOfColumns('t.sales', {
      name: names(),
      x: { type: 'float', data: Float64Array.from({ length: ROWS }, (_, i) => (i % 7) - 2) },
      y: { type: 'int', data: Int32Array.from({ length: ROWS }, (_, i) => i % 3) },
    }),
  ]
}

const KEY = '<base table="t.sales"/><willbe name="k" value="strupcase(name)"/>'

const QUERIES: readonly (readonly [string, string])[] = [
  ['g_sum and g_cnt by a text key', `${KEY}<willbe name="s" value="g_sum(k;;x)"/><willbe name="n" value="g_cnt(k;)"/>`],
  ['g_sum by a text key with a selection', `${KEY}<willbe name="s" value="g_sum(k;y>0;x)"/>`],
  ['g_sum by a text and an int key', `${KEY}<willbe name="s" value="g_sum(k y;;x)"/>`],
  [
    'tabu by a text key, text first and last',
    `${KEY}<tabu breaks="k"><tcol source="x" fun="sum"/><tcol fun="cnt"/><tcol source="k" fun="first"/><tcol source="name" fun="last"/></tabu>`,
  ],
  ['tabu by a text and an int key', `${KEY}<tabu breaks="k,y"><tcol source="x" fun="sum"/><tcol fun="cnt"/></tabu>`],
  [
    'tabu by a g_cnt over a text key',
    `${KEY}<willbe name="n" value="g_cnt(k;)"/><willbe name="s" value="g_sum(k;;x)"/><tabu breaks="n"><tcol source="s" fun="sum"/><tcol fun="cnt"/></tabu>`,
  ],
]

describe('parallel runs: text group keys as codes over parts with different dictionaries', () => {
  for (const [what, xml] of QUERIES) {
    it(`${what}: split in 2 and 3 parts answers as the interpreter does`, () => {
      const ts = tables()
      const ops = checkedOps(xml, ts)
      const whole = interpreted(ops, ts)
      const task = taskOf(ops, ts)
      expectIdentical(single(task, BLOCK), whole, `${what} on one worker`)
      for (const parts of [2, 3]) {
        const got = split(task, parts, BLOCK)!
        expectIdentical(got.result, whole, `${what} in ${parts} parts`)
      }
    })
  }
})
