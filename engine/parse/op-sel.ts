/**
 * `<sel>`: a `value`, or the structured form whose `<and>`/`<or>` children combine into `&`/`|`.
 * An element with a value is a leaf; one with children combines them with the one connective its
 * children name (mixing `<and>` and `<or>` at one level is an error).
 */
import type { Expr, Op, XmlElement } from '../ast.js'
import { attr } from './attrs.js'
import { requiredExpr } from './expr-attr.js'
import { opError } from './op-errors.js'

/**
 * 1010data's glossary says `expand` and `sample` make a selection something other than a 0/1
 * filter, but no page we could read says what they do instead: refused rather than guessed.
 */
const UNDOCUMENTED = (a: string): string =>
  `<sel ${a}> is not supported: 1010data's documentation says ${a} changes what a selection does but not how, so this service refuses it rather than guess; ` +
  (a === 'expand' ? 'to repeat each row once per matching row of another table, use <link type="expand">' : 'to take every n-th row, select with mod(i_();n)=1')

/** `<sel>`; `expand` and `sample` are refused (UNDOCUMENTED). */
export function buildSel(el: XmlElement): Op {
  for (const a of ['expand', 'sample']) if (attr(el, a) !== undefined) throw opError(el, UNDOCUMENTED(a), { attribute: a })
  return { kind: 'Sel', cond: condition(el), loc: el.loc }
}

function condition(el: XmlElement): Expr {
  const parts: XmlElement[] = []
  for (const child of el.children) {
    if (child.kind === 'Text') throw opError(el, `unexpected text inside <${el.name}>: conditions go in value attributes`)
    if (child.name !== 'and' && child.name !== 'or') throw opError(child, `<${child.name}> cannot appear inside <${el.name}>: expected <and> or <or>`)
    parts.push(child)
  }
  const hasValue = attr(el, 'value') !== undefined
  if (hasValue && parts.length > 0) throw opError(el, `<${el.name}> has both a value and <${parts[0].name}> children: use one or the other`)
  if (parts.length === 0) return requiredExpr(el, 'value')
  const op = parts[0].name === 'and' ? '&' : '|'
  const mixed = parts.find((p) => p.name !== parts[0].name)
  if (mixed) throw opError(mixed, `<${el.name}> mixes <and> and <or> children at one level: nest them instead`)
  return parts.map(condition).reduce((left, right) => ({ kind: 'Bin', op, left, right, loc: left.loc }))
}
