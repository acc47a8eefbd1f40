/**
 * XmlNode trees back to query text, for widget and `<do>` bodies that are run later as queries
 * of their own. parseXml(toXml(nodes)) gives the same tree (locations aside): every character
 * that XML would read differently is written as a reference, so nothing depends on how lenient
 * the reader is.
 */
import type { XmlElement, XmlNode } from '../ast.js'

/** Serialises nodes in order, with no whitespace added between them. */
export function toXml(nodes: readonly XmlNode[]): string {
  let out = ''
  for (const node of nodes) out += node.kind === 'Text' ? escapeText(node.text) : element(node)
  return out
}

function element(el: XmlElement): string {
  let open = `<${el.name}`
  for (const [name, value] of Object.entries(el.attrs)) open += ` ${name}="${escapeAttr(value)}"`
  return el.children.length === 0 ? `${open}/>` : `${open}>${toXml(el.children)}</${el.name}>`
}

const ATTR_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  // A reader normalises raw tabs and line breaks in attribute values to spaces (XML 1.0 §3.3.3)
  // and `\r\n` to `\n` (§2.11); references survive both.
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
}

/** An attribute value for double quotes. */
export function escapeAttr(value: string): string {
  return value.replace(/[&<>"\t\n\r]/g, (c) => ATTR_ESCAPES[c])
}

/** Text content; `>` too, so `]]>` can never appear. `\r` survives line-end normalisation only as a reference. */
export function escapeText(text: string): string {
  return text.replace(/[&<>\r]/g, (c) => ATTR_ESCAPES[c])
}
