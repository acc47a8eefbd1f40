/**
 * `<rollup>` inside `<tabu>`: which subtotal levels the tabulation gets, resolved here to a list of
 * grouping sets (the break columns each level keeps) so that the interpreter has one shape to run.
 */
import type { RollupSpec, XmlElement } from '../ast.js'
import { attr, choiceAttr, nameList, newColumnName, normName } from './attrs.js'
import { opError } from './op-errors.js'

/** 1010data's own limit on a cube: 5 breaks already make 32 levels. */
const MAX_CUBE_COLS = 5

/**
 * The rollup's grouping sets over `breaks`. `cols` picks the breaks that may be rolled up (the
 * others are kept on every row); `type="hier"` rolls them up from the last one inwards,
 * `type="cube"` in every combination, and `sets` lists the levels explicitly.
 */
export function buildRollup(el: XmlElement, breaks: readonly string[]): RollupSpec {
  const position = new Map(breaks.map((b, i) => [b, i]))
  const positionsOf = (names: readonly string[], what: string): number[] =>
    names.map((n) => {
      const at = position.get(n)
      if (at === undefined) throw opError(el, `<rollup ${what}> names "${n}", which is not one of the tabulation's breaks (${breaks.join(', ') || 'none'})`)
      return at
    })
  const cols = nameList(el, 'cols')
  // Breaks order, whatever order cols is written in: the hierarchy is the one breaks gives.
  const rolling = cols === undefined ? breaks.map((_, i) => i) : [...new Set(positionsOf(cols, 'cols'))].sort((a, b) => a - b)
  if (rolling.length === 0) throw opError(el, '<rollup> needs a break column to roll up: give <tabu breaks="…">')
  const fixed = breaks.map((_, i) => i).filter((i) => !rolling.includes(i))
  const ind = attr(el, 'ind')
  // One bit per break in an int.
  if (ind !== undefined && breaks.length > 30) throw opError(el, `<rollup ind> gives one bit per break: at most 30 breaks, not ${breaks.length}`)
  const setsText = attr(el, 'sets')
  if (setsText !== undefined && attr(el, 'type') !== undefined) throw opError(el, '<rollup> takes either type or sets, not both')
  const type = choiceAttr(el, 'type', ['hier', 'cube'] as const, 'hier')
  let kept: number[][]
  if (setsText !== undefined) kept = explicitSets(el, setsText, positionsOf)
  else if (type === 'hier') kept = rolling.map((_, k) => rolling.slice(0, rolling.length - k)).concat([[]])
  else {
    if (rolling.length > MAX_CUBE_COLS)
      throw opError(el, `<rollup type="cube"> rolls up at most ${MAX_CUBE_COLS} breaks, not ${rolling.length}: name at most ${MAX_CUBE_COLS} in cols="…"`)
    kept = cubeSets(rolling)
  }
  const sets = kept.map((k) => [...new Set([...fixed, ...k])].sort((a, b) => a - b))
  const seen = new Set<string>()
  for (const s of sets) {
    const key = s.join(',')
    if (seen.has(key)) throw opError(el, `<rollup sets> lists the level (${s.map((i) => breaks[i]).join(',')}) twice`)
    seen.add(key)
  }
  return { sets, ind: ind === undefined ? null : newColumnName(el, 'ind', ind), loc: el.loc }
}

/** Every subset of the rolling breaks, all of them kept first and none last. */
function cubeSets(rolling: readonly number[]): number[][] {
  const out: number[][] = []
  for (let mask = (1 << rolling.length) - 1; mask >= 0; mask--) out.push(rolling.filter((_, k) => (mask & (1 << (rolling.length - 1 - k))) !== 0))
  return out
}

/**
 * `sets="a,b;a;"`: levels separated by semicolons, each naming the breaks it keeps (commas or
 * spaces between names); an empty level is the grand total.
 */
function explicitSets(el: XmlElement, text: string, positionsOf: (names: readonly string[], what: string) => number[]): number[][] {
  return text.split(';').map((level) =>
    positionsOf(
      level
        .split(/[\s,]+/)
        .filter((s) => s !== '')
        .map(normName),
      'sets',
    ),
  )
}
