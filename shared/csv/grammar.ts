/**
 * Where CSV fields and records end, by the grammar of the one CSV reader (read.ts): fields are
 * separated by commas; records end with CRLF, LF or a lone CR; a field that starts with a double
 * quote runs to the quote that is not doubled and may hold commas and line breaks; in a field that
 * does not, a quote is a character. The reader parses whole texts with these, and a streaming
 * reader cuts a text into whole records with them (records.ts), so both read the same records.
 */

export const COMMA = 44
export const QUOTE = 34
export const CR = 13
export const LF = 10

/**
 * The quote that closes a quoted field whose content starts at `from`, or -1 when `s` ends first.
 * A quote followed by another is a doubled (escaped) quote, not the end.
 */
export function closingQuote(s: string, from: number): number {
  let j = from
  for (;;) {
    j = s.indexOf('"', j)
    if (j < 0) return -1
    if (s.charCodeAt(j + 1) !== QUOTE) return j
    j += 2
  }
}

/** The end of an unquoted field that starts at `from`: the next comma or line break, or the end of `s`. */
export function unquotedEnd(s: string, from: number): number {
  const n = s.length
  let j = from
  while (j < n) {
    const c = s.charCodeAt(j)
    if (c === COMMA || c === CR || c === LF) break
    j++
  }
  return j
}

/** Line breaks in a text (CRLF, LF or a lone CR each count once). */
export function lineBreaks(t: string): number {
  let count = 0
  for (let k = 0; k < t.length; k++) {
    const c = t.charCodeAt(k)
    if (c === LF || (c === CR && t.charCodeAt(k + 1) !== LF)) count++
  }
  return count
}
