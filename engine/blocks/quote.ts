/**
 * `<quote name="value">…</quote>`: its content is kept as written (no block element inside runs,
 * no `{…}` inside is evaluated) except that `{@name}` for each of the quote's own attributes is
 * replaced by that attribute's value, itself substituted in the enclosing scope. The pasted value
 * is never read again, so text holding braces or block syntax arrives in the operation unchanged.
 */
import type { XmlElement, XmlNode } from '../ast.js'
import { checkVariableName } from './names.js'
import { attrWhere } from './walker.js'
import type { Frame, MacroHandler, Walker } from './walker.js'

export const expandQuote: MacroHandler = (el, scope, frame, out, w) => {
  const bindings = new Map<string, string>()
  for (const [name, value] of Object.entries(el.attrs)) {
    checkVariableName(name, el.loc, '<quote>', frame.trail)
    bindings.set(name, w.subst(value, scope, attrWhere(el, name, frame)))
  }
  const paste = (text: string, what: string, node: XmlNode): string => {
    const result = text.replace(/\{\s*@([a-z][a-z0-9_]*)\s*\}/g, (whole, name: string) => bindings.get(name) ?? whole)
    w.spend(result.length, { loc: node.loc, what, trail: frame.trail })
    return result
  }
  for (const node of el.children) out.push(copyLiterally(node, paste, frame, w))
}

type Paste = (text: string, what: string, node: XmlNode) => string

function copyLiterally(node: XmlNode, paste: Paste, frame: Frame, w: Walker): XmlNode {
  w.step(node.loc, frame)
  if (node.kind === 'Text') return { kind: 'Text', text: paste(node.text, 'text inside <quote>', node), loc: node.loc }
  const attrs: Record<string, string> = {}
  for (const [name, value] of Object.entries(node.attrs)) attrs[name] = paste(value, `<${node.name} ${name}>`, node)
  const children = node.children.map((child) => copyLiterally(child, paste, frame, w))
  return { kind: 'Element', name: node.name, attrs, children, loc: node.loc } satisfies XmlElement
}
