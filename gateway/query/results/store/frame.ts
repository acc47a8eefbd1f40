/**
 * Several strings as one Store value: a header of their lengths, a newline, then the strings
 * back to back. A chunk of a result is framed this way (one part per column) so a reader gets
 * every column of a row range from one key, without a second layer of JSON escaping around
 * text columns that are already JSON.
 *
 * Lengths count UTF-16 code units, which is what String#slice uses; the parts must be well-formed
 * Unicode (base64 and JSON.stringify output are) so a Redis UTF-8 round trip keeps them intact.
 */

/** Joins the parts into one framed string. */
export function frame(parts: readonly string[]): string {
  return `${parts.map((p) => p.length).join(',')}\n${parts.join('')}`
}

/** Splits a framed string back into its parts; throws when it is not one with `count` parts. */
export function unframe(text: string, count: number): string[] {
  const newline = text.indexOf('\n')
  const header = newline < 0 ? null : text.slice(0, newline)
  // An empty header is a frame of no parts (a result without columns), not one empty part.
  const lengths = header === null ? [NaN] : header === '' ? [] : header.split(',').map(Number)
  if (lengths.length !== count || !lengths.every((n) => Number.isSafeInteger(n) && n >= 0)) {
    throw new Error(`Corrupt result chunk: expected a header of ${count} lengths.`)
  }
  const parts: string[] = []
  let at = newline + 1
  for (const length of lengths) {
    parts.push(text.slice(at, at + length))
    at += length
  }
  if (at !== text.length) throw new Error('Corrupt result chunk: its parts do not add up to its length.')
  return parts
}
