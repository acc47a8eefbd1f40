/**
 * A read cursor over expression text that knows its line and column. Columns count UTF-16 code
 * units from 1, a tab is one column, and `\n`, `\r\n` and a lone `\r` each end a line: attribute
 * values may be written over several lines and positions must match what an editor shows.
 */
import type { Loc } from '../ast.js'

/** The lexer's cursor: position, line and column over one expression text. */
export class Source {
  /** Offset of the next unread character. */
  pos = 0
  private line = 1
  private lineStart = 0

  constructor(readonly text: string) {}

  /** Position of the next unread character (or of the end). */
  get loc(): Loc {
    return { line: this.line, col: this.pos - this.lineStart + 1 }
  }

  get atEnd(): boolean {
    return this.pos >= this.text.length
  }

  /** The character `k` places ahead, or '' past the end. */
  char(k = 0): string {
    return this.text.charAt(this.pos + k)
  }

  /** Text from `start` up to the cursor. */
  since(start: number): string {
    return this.text.slice(start, this.pos)
  }

  /** Moves past `n` characters, counting the line breaks among them. */
  advance(n = 1): void {
    for (let end = Math.min(this.pos + n, this.text.length); this.pos < end;) {
      const c = this.text.charAt(this.pos++)
      // "\r\n" is one break: the "\r" defers to the "\n" that follows it.
      if (c === '\n' || (c === '\r' && this.text.charAt(this.pos) !== '\n')) {
        this.line++
        this.lineStart = this.pos
      }
    }
  }

  /** Moves past characters while `test` holds; returns how many. */
  skipWhile(test: (c: string) => boolean): number {
    const start = this.pos
    while (!this.atEnd && test(this.char())) this.advance()
    return this.pos - start
  }
}

/** ASCII digit. */
export const isDigit = (c: string): boolean => c >= '0' && c <= '9'
/** ASCII letter: names start with one. */
export const isLetter = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
/** Letters, digits and `_`: the characters of a name after its first letter. */
export const isNameChar = (c: string): boolean => isLetter(c) || isDigit(c) || c === '_'
/** Any Unicode white space; a non-breaking space pasted from a web page is still a separator. */
export const isSpace = (c: string): boolean => c !== '' && /\s/.test(c)
