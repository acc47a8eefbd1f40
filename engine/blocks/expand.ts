/**
 * The macro pre-pass: walks the XML tree with a scope stack, consumes blocks, variables and
 * conditionals, and returns the flat list of data operations with every `{…}` substituted.
 */
import type { Loc, XmlElement, XmlNode } from '../ast.js'
import { blockError } from './errors.js'
import type { Where } from './errors.js'
import { BLOCK_LIMITS } from './limits.js'
import { registerBlock } from './calls.js'
import { MACROS, PASS_THROUGH, REFUSED } from './macros.js'
import { Scope } from './scope.js'
import { substitute } from './substitute.js'
import { attrWhere } from './walker.js'
import type { ExpansionState, Frame, Walker } from './walker.js'

/**
 * Expands blocks, variables and conditionals under `root` (from parseXml).
 * @param vars the dynamic variables of an instance: the outermost scope
 * @returns the data-operation elements in order, their attribute values and text substituted
 * @throws AppError CHECK_ERROR (unknown variable or block, limits, misplaced elements) or EXPR_ERROR
 */
export function expandBlocks(root: XmlElement, vars: Readonly<Record<string, string>> = {}): XmlElement[] {
  // A query is allowed to expand to a few times its own size however large MAX_QUERY_BYTES is.
  const charBudget = Math.max(BLOCK_LIMITS.maxOutputChars, 4 * subtreeSize(root).chars)
  const walker = new Expander({ root: Scope.root(vars), blocks: new Map(), elements: 0, steps: 0, chars: 0, charBudget })
  hoistLibraries(root.children, walker.state.blocks)
  const out: XmlNode[] = []
  walker.nodes(root.children, new Scope(walker.state.root, true), { depth: 0, trail: null }, out)
  return out.map((node) => {
    if (node.kind === 'Element') return node
    const shown = node.text.trim().slice(0, 40)
    throw blockError(node.loc, `unexpected text '${shown}' between operations`)
  })
}

/** Top-level libraries are registered first, so an `<insert>` may come before its `<library>`. */
function hoistLibraries(nodes: readonly XmlNode[], blocks: Map<string, XmlElement>): void {
  for (const node of nodes) {
    if (node.kind !== 'Element') continue
    if (node.name === 'macro' || node.name === 'query') hoistLibraries(node.children, blocks)
    if (node.name !== 'library') continue
    for (const child of node.children) if (child.kind === 'Element' && child.name === 'block' && child.attrs.name?.trim()) registerBlock(child, blocks, null)
  }
}

class Expander implements Walker {
  constructor(readonly state: ExpansionState) {}

  nodes(nodes: readonly XmlNode[], scope: Scope, frame: Frame, out: XmlNode[]): void {
    for (const node of nodes) this.node(node, scope, frame, out)
  }

  subst(text: string, scope: Scope, where: Where): string {
    return substitute(
      text,
      (name) => scope.lookup(name),
      where,
      (chars) => this.spend(chars, where),
    )
  }

  spend(chars: number, where: Where): void {
    this.state.chars += chars
    if (this.state.chars > this.state.charBudget) {
      throw blockError(
        where.loc,
        `block expansion produces more than ${this.state.charBudget} characters of text (at ${where.what}); insert large blocks or values fewer times`,
        where.trail,
      )
    }
  }

  step(loc: Loc, frame: Frame): void {
    if (++this.state.steps > BLOCK_LIMITS.maxSteps) {
      throw blockError(loc, `block expansion takes more than ${BLOCK_LIMITS.maxSteps} steps (blocks inserting blocks too many times?)`, frame.trail)
    }
  }

  private node(node: XmlNode, scope: Scope, frame: Frame, out: XmlNode[]): void {
    this.step(node.loc, frame)
    if (node.kind === 'Text') {
      const where = { loc: node.loc, what: 'text', trail: frame.trail }
      const text = this.subst(node.text, scope, where)
      this.spend(text.length, where)
      out.push({ kind: 'Text', text, loc: node.loc })
      return
    }
    const handler = Object.hasOwn(MACROS, node.name) ? MACROS[node.name] : undefined
    if (handler) return handler(node, scope, frame, out, this)
    if (Object.hasOwn(REFUSED, node.name)) throw blockError(node.loc, `<${node.name}> ${REFUSED[node.name]}`, frame.trail)
    if (PASS_THROUGH.has(node.name)) {
      const size = subtreeSize(node)
      this.count(node, frame, size.elements)
      this.spend(size.chars, { loc: node.loc, what: `<${node.name}>`, trail: frame.trail })
      out.push(node)
      return
    }
    out.push(this.copy(node, scope, frame))
  }

  /** A data element with its attribute values substituted and its content expanded. */
  private copy(el: XmlElement, scope: Scope, frame: Frame): XmlElement {
    this.count(el, frame, 1)
    const attrs: Record<string, string> = {}
    for (const name of Object.keys(el.attrs)) {
      const where = attrWhere(el, name, frame)
      attrs[name] = this.subst(el.attrs[name], scope, where)
      // Each copy is parsed again later (expressions, name lists), so every copy counts.
      this.spend(attrs[name].length, where)
    }
    const children: XmlNode[] = []
    this.nodes(el.children, scope, frame, children)
    return { kind: 'Element', name: el.name, attrs, children, loc: el.loc }
  }

  private count(el: XmlElement, frame: Frame, n: number): void {
    this.state.elements += n
    if (this.state.elements > BLOCK_LIMITS.maxElements) {
      throw blockError(el.loc, `block expansion produces more than ${BLOCK_LIMITS.maxElements} elements`, frame.trail)
    }
  }
}

/** Elements and characters (attribute values and text) of a subtree kept as written. */
function subtreeSize(el: XmlElement): { elements: number; chars: number } {
  const size = { elements: 1, chars: 0 }
  for (const value of Object.values(el.attrs)) size.chars += value.length
  for (const c of el.children) {
    if (c.kind === 'Text') {
      size.chars += c.text.length
      continue
    }
    const inner = subtreeSize(c)
    size.elements += inner.elements
    size.chars += inner.chars
  }
  return size
}
