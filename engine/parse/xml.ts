/**
 * The XML layer: query text → XmlElement tree. The lenient pre-scan makes real-world queries
 * well-formed, then strict sax builds the tree with a stack of open elements. Comments and
 * processing instructions are dropped, CDATA becomes text, whitespace-only text is dropped.
 */
import sax from 'sax'
import type { SAXParser, Tag } from 'sax'
import { AppError } from '../../shared/errors.js'
import type { Loc, XmlElement, XmlNode } from '../ast.js'
import { prescan, ROOT_TAG } from './prescan.js'
import type { Prescanned } from './prescan.js'
import { describeSaxError } from './sax-errors.js'
import { MAX_XML_DEPTH } from './limits.js'

export { MAX_XML_DEPTH } from './limits.js'

interface Open {
  readonly element: XmlElement
  readonly children: XmlNode[]
}

/**
 * Parses a query into a synthetic root element named `query` whose children are the query's
 * top-level nodes. Throws AppError PARSE_ERROR with `{ line, col }` for malformed input.
 */
export function parseXml(text: string): XmlElement {
  const scanned = prescan(text)
  const builder = new TreeBuilder(scanned)
  builder.parse()
  return builder.root()
}

class TreeBuilder {
  private readonly parser: SAXParser = sax.parser(true, { position: true })
  private readonly stack: Open[] = []
  private top: XmlElement | null = null
  private pending: { text: string; loc: Loc } | null = null
  /** Rewritten offset just past the last markup; where a following text node starts. */
  private lastMarkupEnd = 0

  constructor(private readonly scanned: Prescanned) {
    const p = this.parser
    p.onerror = (err) => {
      throw this.saxError(err)
    }
    p.onopentag = (tag) => this.openTag(tag as Tag)
    p.onclosetag = () => this.closeTag()
    p.ontext = (t) => this.addText(t)
    p.oncdata = (t) => this.addText(t)
    p.oncomment = () => this.markupEnd()
    p.onprocessinginstruction = () => this.markupEnd()
  }

  parse(): void {
    this.parser.write(this.scanned.text).close()
  }

  root(): XmlElement {
    if (!this.top) throw new AppError('INTERNAL', 'The XML parser produced no root element.')
    return this.top
  }

  private openTag(tag: Tag): void {
    this.flushText()
    const loc = this.locAt(this.parser.startTagPosition - 1)
    if (this.stack.length > MAX_XML_DEPTH) throw this.error(loc, `elements are nested more than ${MAX_XML_DEPTH} deep`)
    const isRoot = this.stack.length === 0
    if (!isRoot && tag.name === ROOT_TAG) throw this.error(loc, `<${ROOT_TAG}> is a reserved element name`)
    const children: XmlNode[] = []
    const element: XmlElement = {
      kind: 'Element',
      name: isRoot ? 'query' : tag.name,
      attrs: { ...tag.attributes },
      children,
      loc: isRoot ? { line: 1, col: 1 } : loc,
    }
    this.stack.at(-1)?.children.push(element)
    this.stack.push({ element, children })
    this.markupEnd()
  }

  private closeTag(): void {
    this.flushText()
    const closed = this.stack.pop()!
    if (this.stack.length === 0) {
      if (!this.inSuffix()) {
        const loc = this.locAt(this.parser.startTagPosition - 1)
        throw this.error(loc, `</${ROOT_TAG}> closes nothing the query opened`)
      }
      this.top = closed.element
    }
    this.markupEnd()
  }

  private addText(t: string): void {
    if (this.pending) this.pending = { text: this.pending.text + t, loc: this.pending.loc }
    else this.pending = { text: t, loc: this.locAt(this.firstNonSpace(this.lastMarkupEnd)) }
    this.markupEnd()
  }

  /** Adjacent text and CDATA (split only by comments) form one text node. */
  private flushText(): void {
    const p = this.pending
    this.pending = null
    if (p && p.text.trim() !== '') this.stack.at(-1)?.children.push({ kind: 'Text', text: p.text, loc: p.loc })
  }

  private markupEnd(): void {
    this.lastMarkupEnd = this.parser.position
  }

  private firstNonSpace(from: number): number {
    const s = this.scanned.text
    let i = from
    while (i < s.length && /\s/.test(s[i])) i++
    return i
  }

  private saxError(err: Error): AppError {
    const raw = err.message.split('\n')[0]
    if (raw === 'Unexpected close tag') return this.closeMismatch()
    const at = Math.min(this.parser.position - 1, this.scanned.bodyEnd)
    return this.error(this.locAt(at), describeSaxError(this.parser, err))
  }

  /** sax reports a close tag that does not match the innermost open element. */
  private closeMismatch(): AppError {
    const open = this.stack.at(-1)!.element
    const closing = (this.parser as unknown as { tagName?: string }).tagName ?? ''
    if (this.inSuffix()) {
      return this.error(open.loc, `<${open.name}> is never closed: expected </${open.name}> before the end of the query`)
    }
    const loc = this.locAt(this.parser.startTagPosition - 1)
    if (this.stack.length === 1) return this.error(loc, `</${closing}> has no matching <${closing}>`)
    return new AppError(
      'PARSE_ERROR',
      `Line ${loc.line}, column ${loc.col}: </${closing}> closes <${open.name}> opened at line ${open.loc.line}, column ${open.loc.col}: expected </${open.name}>`,
      { line: loc.line, col: loc.col },
    )
  }

  /** Whether the tag being read is the closing synthetic root tag that the pre-scan appended. */
  private inSuffix(): boolean {
    return this.parser.startTagPosition - 1 >= this.scanned.bodyEnd
  }

  private locAt(rewritten: number): Loc {
    return this.scanned.map.locOfRewritten(rewritten)
  }

  private error(loc: Loc, message: string): AppError {
    return new AppError('PARSE_ERROR', `Line ${loc.line}, column ${loc.col}: ${message}`, { line: loc.line, col: loc.col })
  }
}
