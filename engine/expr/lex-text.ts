/**
 * Text literals: single quotes, with a quote inside written either doubled (`'it''s'`) or
 * backslashed (`'it\'s'`); the reference leaves escaping open and both forms appear in the wild.
 * No other backslash sequence is special, so `'a\b'` keeps its backslash. A text may span lines.
 */
import { exprSyntaxError } from './errors.js'
import type { PositionText } from './errors.js'
import type { Source } from './source.js'
import type { Token } from './token.js'

/** Reads the text literal whose opening quote is at the cursor. */
export function lexText(src: Source, at: PositionText): Token {
  const loc = src.loc
  const start = src.pos
  src.advance()
  // Runs between escapes are sliced whole: one concatenation per character is slow on long texts.
  let value = ''
  let runStart = src.pos
  for (;;) {
    if (src.atEnd) {
      const found = src.since(start)
      throw exprSyntaxError(`Unterminated text starting at ${at(loc)}: expected a closing ' before the end of the expression`, loc, found)
    }
    const c = src.char()
    if (c === "'" && src.char(1) !== "'") break
    if ((c === "'" || c === '\\') && src.char(1) === "'") {
      value += src.text.slice(runStart, src.pos) + "'"
      src.advance(2)
      runStart = src.pos
    } else {
      src.advance()
    }
  }
  value += src.text.slice(runStart, src.pos)
  src.advance()
  return { type: 'str', value, text: src.since(start), loc }
}
