/**
 * Loops of the block layer: `<foreach>` over a comma-separated list and `<for>` over a numeric
 * range. Each iteration expands the loop's content once, in a scope where the loop variable (and
 * the `tally_` variable, counting iterations from 1) hold this iteration's values. Like `<let>`,
 * that scope writes through, so a `<set>` inside the loop can accumulate into an outer variable.
 * Every iteration counts as an expansion step, so an empty body cannot spin unbounded either.
 */
import type { XmlElement, XmlNode } from '../ast.js'
import { blockError } from './errors.js'
import { BLOCK_LIMITS } from './limits.js'
import { checkVariableName } from './names.js'
import { formatScalar, isNumericText, num } from './scalar-value.js'
import { Scope } from './scope.js'
import { attrWhere } from './walker.js'
import type { Frame, MacroHandler, Walker } from './walker.js'

/** The control attributes each loop accepts besides its variable; they end in `_` so any variable name stays free. */
const CONTROLS: Readonly<Record<string, readonly string[]>> = {
  foreach: ['dir_', 'tally_'],
  for: ['to_', 'by_', 'tally_'],
}

/** `<foreach VAR="a,b,c" dir_="forward|reverse" tally_="n">`: one iteration per list item. */
export const expandForeach: MacroHandler = (el, scope, frame, out, w) => {
  const variable = loopVariable(el, frame)
  const list = w.subst(el.attrs[variable], scope, attrWhere(el, variable, frame))
  // Documented: an empty value is an empty list, a value without commas a one-item list.
  const items = list.trim() === '' ? [] : list.split(',').map((item) => item.trim())
  const dir = (control(el, 'dir_', scope, frame, w) ?? 'forward').toLowerCase()
  if (dir !== 'forward' && dir !== 'reverse') throw blockError(el.loc, `<foreach dir_> must be forward or reverse, not '${dir}'`, frame.trail)
  if (dir === 'reverse') items.reverse()
  iterate(el, variable, items, scope, frame, out, w)
}

/**
 * `<for VAR="start" to_="end" by_="step" tally_="n">`: the variable runs from start to end
 * inclusive in steps of by_ (default 1); a range that the step moves away from is empty.
 */
export const expandFor: MacroHandler = (el, scope, frame, out, w) => {
  const variable = loopVariable(el, frame)
  const number = (attr: string, given: string | undefined): number => {
    const text = (given ?? '').trim()
    if (!isNumericText(text)) throw blockError(el.loc, `<for ${attr}> must be a number, not '${text}'`, frame.trail)
    return Number(text)
  }
  const start = number(variable, w.subst(el.attrs[variable], scope, attrWhere(el, variable, frame)))
  const toText = control(el, 'to_', scope, frame, w)
  if (toText === undefined) throw blockError(el.loc, `<for> needs a to_ attribute giving the last value of ${variable}`, frame.trail)
  const end = number('to_', toText)
  const step = number('by_', control(el, 'by_', scope, frame, w) ?? '1')
  if (step === 0) throw blockError(el.loc, '<for by_> must not be 0: the loop would never end', frame.trail)
  const count = Math.max(0, Math.floor((end - start) / step + 1e-9) + 1)
  if (count > BLOCK_LIMITS.maxLoopIterations) {
    throw blockError(el.loc, `<for> would run ${count} times; a loop may run at most ${BLOCK_LIMITS.maxLoopIterations} times`, frame.trail)
  }
  // Each value is computed from the start rather than by repeated addition, so 0.1 steps do not drift.
  const values = Array.from({ length: count }, (_, k) => formatScalar(num(tidyDecimal(start + k * step))))
  iterate(el, variable, values, scope, frame, out, w)
}

/** Expands the loop's content once per value. */
function iterate(el: XmlElement, variable: string, values: readonly string[], scope: Scope, frame: Frame, out: XmlNode[], w: Walker): void {
  if (values.length > BLOCK_LIMITS.maxLoopIterations) {
    throw blockError(el.loc, `<${el.name}> would run ${values.length} times; a loop may run at most ${BLOCK_LIMITS.maxLoopIterations} times`, frame.trail)
  }
  const tally = el.attrs.tally_?.trim()
  if (tally !== undefined) checkVariableName(tally, el.loc, `<${el.name} tally_>`, frame.trail)
  values.forEach((value, k) => {
    w.step(el.loc, frame)
    const inner = new Scope(scope, true)
    inner.define(variable, value)
    if (tally) inner.define(tally, String(k + 1))
    w.nodes(el.children, inner, frame, out)
  })
}

/** The one attribute not ending in `_`: the loop variable's name; unknown `…_` controls are refused. */
function loopVariable(el: XmlElement, frame: Frame): string {
  const controls = CONTROLS[el.name]
  const names = Object.keys(el.attrs)
  const unknown = names.find((n) => n.endsWith('_') && !controls.includes(n))
  if (unknown) throw blockError(el.loc, `<${el.name}> has no attribute ${unknown}; its controls are ${controls.join(', ')}`, frame.trail)
  const variables = names.filter((n) => !n.endsWith('_'))
  if (variables.length !== 1) {
    const got = variables.length === 0 ? 'none' : variables.join(', ')
    throw blockError(el.loc, `<${el.name}> needs exactly one attribute naming its loop variable (found ${got})`, frame.trail)
  }
  checkVariableName(variables[0], el.loc, `<${el.name}>`, frame.trail)
  return variables[0]
}

/** A control attribute's substituted, trimmed value; undefined when absent or empty. */
function control(el: XmlElement, name: string, scope: Scope, frame: Frame, w: Walker): string | undefined {
  const raw = el.attrs[name]
  if (raw === undefined) return undefined
  const value = w.subst(raw, scope, attrWhere(el, name, frame)).trim()
  return value === '' ? undefined : value
}

/** Removes the binary noise of decimal steps (0.1 * 3 = 0.30000000000000004) by rounding to 12 significant digits. */
function tidyDecimal(x: number): number {
  return Number.isInteger(x) ? x : Number(x.toPrecision(12))
}
