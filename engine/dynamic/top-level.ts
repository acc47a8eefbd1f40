/**
 * The top level of a query as a dynamic query sees it: the elements of the query itself and of
 * any `<macro>` (or `<query>`) wrapper around them — the quickapp-devbox client always wraps its
 * `<dynamic>` in `<macro>` (reference §4.4).
 */
import type { XmlElement } from '../ast.js'

const WRAPPERS: ReadonlySet<string> = new Set(['macro', 'query'])

/** Top-level elements in document order, wrappers replaced by their content. */
export function topLevel(root: XmlElement): XmlElement[] {
  const out: XmlElement[] = []
  for (const child of root.children) {
    if (child.kind !== 'Element') continue
    if (WRAPPERS.has(child.name)) out.push(...topLevel(child))
    else out.push(child)
  }
  return out
}

/**
 * The element the query ends with, looking into a wrapper when the query ends with one.
 * `<note>` elements are comments and never count as the end.
 */
export function lastTopLevel(root: XmlElement): XmlElement | null {
  const last = root.children.filter((c): c is XmlElement => c.kind === 'Element' && c.name !== 'note').at(-1)
  if (!last) return null
  return WRAPPERS.has(last.name) ? lastTopLevel(last) : last
}
