/**
 * `<if>` (with `<then>`/`<else>` or with its content directly inside) and `<set>` (attribute form
 * and element-content form). Neither opens a scope: a chosen branch expands where the `<if>` is,
 * and `<set>` assigns in the current scope.
 */
import type { XmlElement, XmlNode } from '../ast.js'
import { blockError, ScalarError } from './errors.js'
import type { Where } from './errors.js'
import { BLOCK_LIMITS } from './limits.js'
import { checkVariableName } from './names.js'
import { isNumericText, isTrue } from './scalar-value.js'
import type { Scope } from './scope.js'
import { evaluateBlockExpr, relocate } from './substitute.js'
import { expandFor, expandForeach } from './loops.js'
import { attrWhere } from './walker.js'
import type { Frame, MacroHandler, Walker } from './walker.js'

/** `<if test>`: the chosen branch expands in place, in the current scope. */
export const expandIf: MacroHandler = (el, scope, frame, out, w) => {
  w.nodes(chooseBranch(el, scope, frame, w), scope, frame, out)
}

/**
 * The nodes an `<if>` keeps: its `<then>` or `<else>` content when it has either, otherwise its
 * whole content when the test is true.
 */
function chooseBranch(el: XmlElement, scope: Scope, frame: Frame, w: Walker): readonly XmlNode[] {
  const where = attrWhere(el, 'test', frame)
  const test = el.attrs.test
  if (test === undefined || test.trim() === '') throw blockError(el.loc, '<if> needs a test attribute', frame.trail)
  const truth = isTestTrue(w.subst(test, scope, where).trim(), scope, where, w)
  const branches = el.children.filter((c): c is XmlElement => c.kind === 'Element' && (c.name === 'then' || c.name === 'else'))
  if (branches.length === 0) return truth ? el.children : []
  const stray = el.children.find((c) => !branches.includes(c as XmlElement) && !(c.kind === 'Element' && c.name === 'note'))
  if (stray) throw blockError(stray.loc, '<if> has <then> or <else>, so all its content must be inside them', frame.trail)
  const pick = (name: string): XmlElement[] => branches.filter((b) => b.name === name)
  const [thens, elses] = [pick('then'), pick('else')]
  if (thens.length > 1 || elses.length > 1) throw blockError(el.loc, '<if> may have one <then> and one <else>', frame.trail)
  return (truth ? thens[0] : elses[0])?.children ?? []
}

/** A substituted test: empty is false, a number is true when non-zero, anything else is evaluated. */
function isTestTrue(test: string, scope: Scope, where: Where, w: Walker): boolean {
  if (test === '') return false
  if (isNumericText(test)) return Number(test) !== 0
  // The test is parsed each time its <if> is expanded, which blocks can make many times.
  w.spend(test.length, where)
  const show = (s: string): string => `'${s}'`
  const value = evaluateBlockExpr(test, (name) => scope.lookup(name), where, show)
  try {
    return isTrue(value, 'the test')
  } catch (err) {
    throw err instanceof ScalarError ? relocate(err, show(test), where) : err
  }
}

/** `<set a="…"/>` and `<set><a>text</a></set>`: assign variables in the current scope. */
export const expandSet: MacroHandler = (el, scope, frame, _out, w) => {
  for (const [attr, value] of Object.entries(el.attrs)) {
    checkVariableName(attr, el.loc, '<set>', frame.trail)
    scope.assign(attr, w.subst(value, scope, attrWhere(el, attr, frame)))
  }
  for (const child of el.children) {
    if (child.kind === 'Text') {
      throw blockError(child.loc, 'text directly inside <set>: put it in an element named after the variable, as in <set><foo>…</foo></set>', frame.trail)
    }
    if (child.name === 'note') continue
    checkVariableName(child.name, child.loc, '<set>', frame.trail)
    scope.assign(child.name, textContent(child.children, child.name, scope, frame, w).trim())
  }
}

/** The expanded text of `<set><foo>…</foo></set>`: text, with `<if>` choosing what to include. */
function textContent(nodes: readonly XmlNode[], variable: string, scope: Scope, frame: Frame, w: Walker): string {
  let text = ''
  for (const node of nodes) {
    w.step(node.loc, frame)
    if (node.kind === 'Text') {
      const where = { loc: node.loc, what: `the text of <set><${variable}>`, trail: frame.trail }
      const piece = w.subst(node.text, scope, where)
      w.spend(piece.length, where)
      text += piece
    } else if (node.name === 'if') text += textContent(chooseBranch(node, scope, frame, w), variable, scope, frame, w)
    else if (Object.hasOwn(TEXT_LOOPS, node.name)) text += loopText(node, variable, scope, frame, w)
    else if (node.name !== 'note') {
      throw blockError(node.loc, `<${node.name}> cannot appear inside <set><${variable}>: only text, <if>, <foreach> and <for> can`, frame.trail)
    }
    if (text.length > BLOCK_LIMITS.maxValueLength)
      throw blockError(node.loc, `variable ${variable} would hold more than ${BLOCK_LIMITS.maxValueLength} characters`, frame.trail)
  }
  return text
}

/** Loops that may build a variable's text, as in `<set><v><foreach x="a,b">{@x};</foreach></v></set>`. */
const TEXT_LOOPS: Readonly<Record<string, MacroHandler>> = { foreach: expandForeach, for: expandFor }

/** The text a loop inside `<set><variable>` produces; the loop may hold only text and <if>s. */
function loopText(loop: XmlElement, variable: string, scope: Scope, frame: Frame, w: Walker): string {
  const produced: XmlNode[] = []
  TEXT_LOOPS[loop.name](loop, scope, frame, produced, w)
  let text = ''
  for (const node of produced) {
    if (node.kind !== 'Text')
      throw blockError(node.loc, `<${node.name}> cannot appear inside <set><${variable}>: only text, <if>, <foreach> and <for> can`, frame.trail)
    text += node.text
  }
  return text
}
