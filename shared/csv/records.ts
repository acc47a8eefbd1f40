/**
 * Cutting CSV text that arrives in pieces into whole records (the CLI's chunked uploads), by the
 * reader's own grammar (grammar.ts), so that every record a chunk holds is one the reader
 * (read.ts) reads the same way: a line break inside a quoted field stays inside its record, and a
 * quote inside an unquoted field (`5" pipe`) opens nothing.
 */
import { closingQuote, COMMA, LF, QUOTE, unquotedEnd } from './grammar.js'

/**
 * The end of the record that starts at `from`: the index after its line break.
 * @param final true when `s` is the whole rest of the text (a last record may lack its line break)
 * @returns the end; `s.length` for a last record without a line break when `final`; -1 when `s`
 *   ends before the record does (without `final`: more text may complete it; with it: a quoted
 *   field is never closed)
 */
export function recordEnd(s: string, from: number, final: boolean): number {
  const n = s.length
  let i = from
  for (;;) {
    if (i < n && s.charCodeAt(i) === QUOTE) {
      const close = closingQuote(s, i + 1)
      // A quote that ends the text may be the first of a doubled one.
      if (close < 0 || (close === n - 1 && !final)) return -1
      i = close + 1
    }
    // The field's rest (after a closing quote the reader refuses anything but a delimiter, and says where).
    i = unquotedEnd(s, i)
    if (i >= n) return final ? n : -1
    const c = s.charCodeAt(i)
    if (c === COMMA) {
      i++
      continue
    }
    if (c === LF) return i + 1
    // A CR: CRLF, or a lone CR, which only the next character tells apart.
    if (i + 1 < n) return s.charCodeAt(i + 1) === LF ? i + 2 : i + 1
    return final ? n : -1
  }
}

/** The text of the record from … end, without its line break ('' for an empty line). */
export function recordText(s: string, from: number, end: number): string {
  let to = end
  if (to > from && s.charCodeAt(to - 1) === LF) to--
  if (to > from && s.charCodeAt(to - 1) === 13) to--
  return s.slice(from, to)
}
