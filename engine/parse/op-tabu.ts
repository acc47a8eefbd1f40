/** `<tabu>` with its `<tcol>` and `<break>` children. */
import type { BreakSpec, Op, RollupSpec, Tcol, XmlElement } from '../ast.js'
import { attr, choiceAttr, metaPatch, nameList, newColumnName, normName, requiredAttr } from './attrs.js'
import { optionalExpr } from './expr-attr.js'
import { opError } from './op-errors.js'
import { buildRollup } from './op-rollup.js'

/** `<tabu>`: breaks, cbreaks, label and its `<tcol>`/`<break>`/`<rollup>` children. */
export function buildTabu(el: XmlElement): Op {
  const breaks = nameList(el, 'breaks') ?? []
  const cbreaks = nameList(el, 'cbreaks') ?? []
  const tcols: Tcol[] = []
  const breakSpecs: BreakSpec[] = []
  // Sets, not list searches: a tabulation of 20,000 breaks must not cost 400 million comparisons.
  const breakNames = new Set([...breaks, ...cbreaks])
  const specified = new Set<string>()
  let rollup: RollupSpec | undefined
  // A placeholder means something only to a rollup: without one it stays unread, as before.
  const rolls = el.children.some((c) => c.kind !== 'Text' && c.name === 'rollup')
  for (const child of el.children) {
    if (child.kind === 'Text') throw opError(el, 'unexpected text inside <tabu>: expected <tcol> or <break> elements')
    if (child.name === 'tcol') tcols.push(buildTcol(child))
    else if (child.name === 'break') breakSpecs.push(buildBreak(child, breakNames, specified, rolls))
    else if (child.name === 'rollup') {
      if (rollup !== undefined) throw opError(child, '<tabu> takes one <rollup>, not two')
      rollup = buildRollup(child, breaks)
    } else if (child.name !== 'note') throw opError(child, `<${child.name}> cannot appear inside <tabu>: expected <tcol> or <break>`)
  }
  return { kind: 'Tabu', breaks, cbreaks, breakSpecs, tcols, label: attr(el, 'label') ?? '', ...(rollup === undefined ? {} : { rollup }), loc: el.loc }
}

/** A summary column. Whether `fun` exists and needs a source or weight is the checker's call. */
function buildTcol(el: XmlElement): Tcol {
  const name = attr(el, 'name')
  return {
    fun: normName(requiredAttr(el, 'fun')),
    source: optionalExpr(el, 'source'),
    weight: optionalExpr(el, 'weight'),
    name: name === undefined ? null : newColumnName(el, 'name', name),
    meta: metaPatch(el),
    loc: el.loc,
  }
}

/** How one break column is sorted and renamed; it must be one of the tabulation's breaks. */
function buildBreak(el: XmlElement, breakNames: ReadonlySet<string>, specified: Set<string>, rolls: boolean): BreakSpec {
  const col = normName(requiredAttr(el, 'col'))
  if (!breakNames.has(col)) throw opError(el, `<break col="${col}"> is not one of the tabulation's breaks or cbreaks`)
  if (specified.has(col)) throw opError(el, `<break col="${col}"> is given twice`)
  specified.add(col)
  const rename = attr(el, 'rename')
  const relabel = attr(el, 'relabel')
  const placeholder = rolls ? optionalExpr(el, 'placeholder') : null
  return {
    col,
    sort: choiceAttr(el, 'sort', ['up', 'down', 'none'] as const, 'up'),
    naorder: choiceAttr(el, 'naorder', ['first', 'last'] as const, 'first'),
    ...(rename === undefined ? {} : { rename: newColumnName(el, 'rename', rename) }),
    ...(relabel === undefined ? {} : { relabel }),
    ...(placeholder === null ? {} : { placeholder }),
    loc: el.loc,
  }
}
