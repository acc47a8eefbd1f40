/**
 * The lenient pre-scan run before sax. Real queries put raw `<`, `>` and `&` inside attribute
 * values (`value="a<=8 & b"`) and bare `&` in text, which strict XML refuses; this pass escapes
 * them (raw text from a bare `<` on goes into a CDATA section), lower-cases tag and attribute
 * names (so `<Sel>…</sel>` matches), wraps the fragment in a synthetic root, and refuses
 * DOCTYPE/ENTITY declarations outright so no entity is ever expanded. It also enforces the caps
 * of limits.ts and drops the bodies of comments and processing instructions, so input far beyond
 * any real query costs time in proportion to the caps, not to its size. Every lengthening or
 * shortening is recorded in a PositionMap so errors still point into the original text.
 */
import { AppError } from '../../shared/errors.js'
import { MAX_ATTRIBUTE_LENGTH, MAX_XML_DEPTH, MAX_XML_ELEMENTS } from './limits.js'
import { PositionMap } from './positions.js'

/** The synthetic root's tag; sax sees `<ROOT_TAG>query text</ROOT_TAG>`. */
export const ROOT_TAG = '__tabula_root__'

/** The pre-scan's output: text for sax, and how to map its positions back. */
export interface Prescanned {
  /** The text for sax. */
  readonly text: string
  readonly map: PositionMap
  /** Rewritten offset where the closing synthetic root tag starts. */
  readonly bodyEnd: number
}

const ENTITY = /&(?:lt|gt|amp|quot|apos|#[0-9]{1,8}|#x[0-9a-fA-F]{1,8});/y
const NAME_START = /[A-Za-z_:\u0080-\uffff]/
const NAME_CHAR = /[A-Za-z0-9_:.\-\u0080-\uffff]/

/** Runs that need no attention in text and in double- or single-quoted attribute values. */
const PLAIN_TEXT = /[^<&]+/y
const PLAIN_DQ_VALUE = /[^"<>&]+/y
const PLAIN_SQ_VALUE = /[^'<>&]+/y

type State = 'text' | 'tag' | 'attr' | 'comment' | 'cdata' | 'pi'

/** Where each kind of section ends, and what to call it when it never does. */
const SECTION_END: Partial<Record<State, { end: string; what: string }>> = {
  comment: { end: '-->', what: 'comment' },
  cdata: { end: ']]>', what: 'CDATA section' },
  pi: { end: '?>', what: 'processing instruction' },
}

/** Rewrites `original` into well-formed input for strict sax; throws PARSE_ERROR for what it cannot fix. */
export function prescan(original: string): Prescanned {
  return new Prescanner(original).run()
}

class Prescanner {
  private readonly map: PositionMap
  private out = `<${ROOT_TAG}>`
  private shift = this.out.length
  private state: State = 'text'
  /** Original offset where the current tag, attribute value or section opened. */
  private openedAt = 0
  private quote = ''
  private tagStart = 0
  private attrNames = new Set<string>()
  private word = ''
  private wordEnded = false
  /** Elements opened so far, and how deep the current one is (counted as the tags go by). */
  private elements = 0
  private depth = 0
  /** Whether the current tag is a closing one (`</x>`), and the last character of the tag read. */
  private closing = false
  private lastTagChar = ''

  constructor(private readonly src: string) {
    this.map = new PositionMap(src)
    this.map.addShift(0, this.shift)
  }

  run(): Prescanned {
    let i = this.src.charCodeAt(0) === 0xfeff ? this.skip(0) : 0
    while (i < this.src.length) i = this.step(i)
    this.atEnd()
    const bodyEnd = this.out.length
    return { text: `${this.out}</${ROOT_TAG}>`, map: this.map, bodyEnd }
  }

  /** Handles the character(s) at `i` and returns the next offset. */
  private step(i: number): number {
    const c = this.src[i]
    switch (this.state) {
      case 'text':
        return this.inText(i, c)
      case 'tag':
        return this.inTag(i, c)
      case 'attr':
        return this.inAttr(i, c)
      default: {
        const section = this.state
        const end = SECTION_END[section]!.end
        const at = this.src.indexOf(end, i)
        if (at < 0) return this.copy(i, this.src.slice(i))
        this.state = 'text'
        if (section === 'cdata') return this.copy(i, this.src.slice(i, at + end.length))
        return this.dropBody(i, at, section)
      }
    }
  }

  /** Copies the run of characters from `i` that `plain` (a sticky pattern) matches; returns the next offset. */
  private copyRun(i: number, plain: RegExp): number {
    plain.lastIndex = i
    const m = plain.exec(this.src)
    return m ? this.copy(i, m[0]) : i
  }

  private inText(i: number, c: string): number {
    if (c === '&') return this.ampersand(i)
    if (c !== '<') return this.copyRun(i, PLAIN_TEXT)
    const next = this.src[i + 1] ?? ''
    if (this.src.startsWith('<!--', i)) return this.open(i, 'comment', '<!--')
    if (this.src.startsWith('<![CDATA[', i)) return this.open(i, 'cdata', '<![CDATA[')
    if (next === '!') this.refuseDeclaration(i)
    if (next === '?') return this.open(i, 'pi', '<?')
    if (next === '/' || NAME_START.test(next)) {
      this.state = 'tag'
      this.tagStart = i
      this.attrNames = new Set()
      this.word = ''
      this.wordEnded = false
      this.closing = next === '/'
      this.lastTagChar = ''
      if (!this.closing) this.countElement(i)
      return this.copy(i, c)
    }
    return this.rawText(i)
  }

  /** Whether the '<' at `i` opens markup (a tag, comment, CDATA, instruction or declaration). */
  private opensMarkup(i: number): boolean {
    const next = this.src[i + 1] ?? ''
    return next === '!' || next === '?' || next === '/' || NAME_START.test(next)
  }

  /**
   * Text from a '<' that opens no markup up to the next '&', markup or ']]>', written as one
   * CDATA section. One '&lt;' per '<' would be correct too, but sax decodes each reference on
   * its own and takes seconds for a megabyte of them; a CDATA section it reads in milliseconds.
   */
  private rawText(i: number): number {
    let j = i + 1
    while (j < this.src.length) {
      const ch = this.src[j]
      if (ch === '&' || (ch === '<' && this.opensMarkup(j)) || (ch === ']' && this.src.startsWith(']]>', j))) break
      j++
    }
    this.insert('<![CDATA[')
    this.copy(i, this.src.slice(i, j))
    this.insert(']]>')
    return j
  }

  /** Writes `s`, which stands for nothing in the original, recording the lengthening. */
  private insert(s: string): void {
    this.out += s
    this.shift += s.length
    this.map.addShift(this.out.length, this.shift)
  }

  private inTag(i: number, c: string): number {
    if (c === '"' || c === "'") {
      this.state = 'attr'
      this.quote = c
      this.openedAt = i
      this.word = ''
      return this.copy(i, c)
    }
    if (c === '>') {
      this.state = 'text'
      if (this.closing || this.lastTagChar === '/') this.depth--
      return this.copy(i, c)
    }
    this.lastTagChar = c
    if (c === '<') throw this.error(i, `expected '>' to close ${this.tagText()} …`)
    if (c === '=') this.attributeName(i)
    else if (NAME_CHAR.test(c)) {
      if (this.wordEnded) this.word = ''
      this.wordEnded = false
      this.word += c.toLowerCase()
    } else this.wordEnded = true
    // Only ASCII is lower-cased: a longer lower-case form would move every later position.
    return this.copy(i, c >= 'A' && c <= 'Z' ? c.toLowerCase() : c)
  }

  private inAttr(i: number, c: string): number {
    // Checked before the closing quote too: a long run of plain text is copied in one step.
    if (i - this.openedAt - 1 > MAX_ATTRIBUTE_LENGTH) {
      throw this.error(this.openedAt, `an attribute value in ${this.tagText()} …> is longer than ${MAX_ATTRIBUTE_LENGTH} characters: shorten it`)
    }
    if (c === this.quote) {
      this.state = 'tag'
      return this.copy(i, c)
    }
    if (c === '<') return this.replace(i, '&lt;')
    if (c === '>') return this.replace(i, '&gt;')
    if (c === '&') return this.ampersand(i)
    return this.copyRun(i, this.quote === '"' ? PLAIN_DQ_VALUE : PLAIN_SQ_VALUE)
  }

  /**
   * Counts an opening tag at `i`. Exact for well-formed input; on malformed input sax reports
   * the real fault unless one of these caps is hit first.
   */
  private countElement(i: number): void {
    if (++this.elements > MAX_XML_ELEMENTS) throw this.error(i, `the query has more than ${MAX_XML_ELEMENTS} elements`)
    if (++this.depth > MAX_XML_DEPTH) throw this.error(i, `elements are nested more than ${MAX_XML_DEPTH} deep`)
  }

  /** Strict XML ignores a repeated attribute silently; a query that says two things is refused. */
  private attributeName(i: number): void {
    const name = this.word
    this.word = ''
    if (name === '') return
    if (this.attrNames.has(name)) throw this.error(i, `attribute '${name}' appears twice in ${this.tagText()} …>`)
    this.attrNames.add(name)
  }

  private ampersand(i: number): number {
    ENTITY.lastIndex = i
    const m = ENTITY.exec(this.src)
    return m ? this.copy(i, m[0]) : this.replace(i, '&amp;')
  }

  /**
   * Writes a comment or processing instruction without its body: the tree drops both, and sax
   * reads a body one character at a time, which takes seconds for megabytes. The one fault sax
   * finds in a comment, a '--' inside it, is reported here at the place sax would report it.
   */
  private dropBody(i: number, at: number, section: State): number {
    const end = SECTION_END[section]!.end
    if (section === 'comment') {
      const dashes = this.src.indexOf('--', i)
      if (dashes >= 0 && dashes < at) throw this.error(dashes + 2, "'--' is not allowed inside a comment")
    }
    // A processing instruction keeps a one-letter target, which sax expects after '<?'.
    const stand = section === 'pi' ? '_' : ''
    this.out += stand
    this.shift += stand.length - (at - i)
    this.map.addShift(this.out.length, this.shift)
    return this.copy(at, end)
  }

  private open(i: number, state: State, opener: string): number {
    this.state = state
    this.openedAt = i
    return this.copy(i, opener)
  }

  private refuseDeclaration(i: number): never {
    const word = /^<!\s*([A-Za-z]*)/.exec(this.src.slice(i, i + 20))?.[1].toUpperCase() ?? ''
    if (word === 'DOCTYPE' || word === 'ENTITY') throw this.error(i, `${word} declarations are not allowed: a query never defines or expands entities`)
    throw this.error(i, `unexpected '<!${word}': only comments (<!-- -->) and CDATA sections may start with '<!'`)
  }

  private atEnd(): never | void {
    const end = this.src.length
    if (this.state === 'text') return
    if (this.state === 'tag') throw this.error(end, `expected '>' to close ${this.tagText()} …${this.openedNote(this.tagStart)}`)
    if (this.state === 'attr')
      throw this.error(
        end,
        `expected ${this.quote} to close the attribute value${this.openedNote(this.openedAt)} (in ${this.tagText()} …>${this.openedNote(this.tagStart)})`,
      )
    const section = SECTION_END[this.state]!
    throw this.error(end, `expected '${section.end}' to close the ${section.what}${this.openedNote(this.openedAt)}`)
  }

  private openedNote(offset: number): string {
    const loc = this.map.locOf(offset)
    return ` opened at line ${loc.line}, column ${loc.col}`
  }

  /** `<sel` or `</tabu`: the start of the current tag as written. */
  private tagText(): string {
    const m = /^<\/?[^\s/>"'=<]*/.exec(this.src.slice(this.tagStart, this.tagStart + 80))
    return (m?.[0] ?? '<').toLowerCase()
  }

  private copy(i: number, s: string): number {
    this.out += s
    return i + s.length
  }

  /** Writes `s` for the one character at `i`, recording the lengthening. */
  private replace(i: number, s: string): number {
    this.out += s
    this.shift += s.length - 1
    this.map.addShift(this.out.length, this.shift)
    return i + 1
  }

  private skip(i: number): number {
    this.shift -= 1
    this.map.addShift(this.out.length, this.shift)
    return i + 1
  }

  private error(offset: number, message: string): AppError {
    const loc = this.map.locOf(offset)
    return new AppError('PARSE_ERROR', `Line ${loc.line}, column ${loc.col}: ${message}`, { line: loc.line, col: loc.col })
  }
}
