/**
 * A dictionary file (the JSON array of a text column's distinct strings) parsed a segment at a
 * time, with a turn of the event loop between segments. JSON.parse of the whole file is one call:
 * the gateway reads dictionaries on its own thread when it loads a table, and the dictionary of a
 * table of long distinct cells is as large as the table's text (reading back a 960 MB table held
 * the event loop about 3 s). The file's format is unchanged.
 */

/** Bytes parsed at once: about a millisecond or two of JSON.parse. */
export const SEGMENT_BYTES = 1024 * 1024

const BACKSLASH = 0x5c

/**
 * Where the segment that starts at `start` ends: the first boundary between two strings (`","`
 * whose first quote closes a string, i.e. follows an even run of backslashes) at least
 * SEGMENT_BYTES on, as the index just past that closing quote; `end` when there is none.
 */
function segmentEnd(text: Buffer, start: number, end: number): number {
  let from = start + SEGMENT_BYTES
  while (from < end) {
    const at = text.indexOf('","', from)
    if (at < 0 || at >= end) return end
    let slashes = 0
    for (let k = at - 1; k >= start && text[k] === BACKSLASH; k--) slashes++
    if (slashes % 2 === 0) return at + 1
    from = at + 1
  }
  return end
}

/**
 * The strings of a dictionary file's bytes. Throws (a SyntaxError or an Error saying what) when
 * the bytes are not a JSON array of strings.
 */
export async function parseDictionaryFile(text: Buffer, breathe: () => Promise<void>): Promise<string[]> {
  if (text.length < 2 || text[0] !== 0x5b || text[text.length - 1] !== 0x5d) throw new Error('not a JSON array')
  const out: string[] = []
  const end = text.length - 1
  for (let start = 1; start < end;) {
    const cut = segmentEnd(text, start, end)
    // Boundaries are ASCII, so a segment never splits a UTF-8 sequence.
    const part: unknown = JSON.parse(`[${text.toString('utf8', start, cut)}]`)
    if (!Array.isArray(part)) throw new Error('not a JSON array')
    for (const s of part) {
      if (typeof s !== 'string') throw new Error('an entry is not a string')
      out.push(s)
    }
    start = cut + 1
    if (start < end) await breathe()
  }
  return out
}
