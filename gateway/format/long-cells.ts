/**
 * Long cells, written a slice at a time. A text value may hold up to 64 Mi characters, and
 * escaping or quoting it in one call holds the event loop for as long as that takes (JSON.stringify
 * of 64 MB took 0.46 s, escaping 1 MB of `<` for HTML 0.38 s). A cell longer than SLICE_CHARS is
 * therefore never encoded whole: the renderers hand it out slice by slice, each slice encoded on
 * its own and each a chunk of its own, so the event loop gets a turn between slices (chunks.ts).
 */

/**
 * Characters encoded at once. Dense escaping (every character an entity or a doubled quote) costs
 * about 0.2 µs a match, so a slice is a few milliseconds at worst.
 */
export const SLICE_CHARS = 32 * 1024

const isHigh = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff

/**
 * Where the slice of `text` starting at `from` ends: SLICE_CHARS on, or one less so that a
 * surrogate pair is never cut (JSON.stringify escapes a lone half, and widths count pairs).
 */
export function sliceEnd(text: string, from: number, to: number = text.length): number {
  const end = Math.min(to, from + SLICE_CHARS)
  return end < to && end > from + 1 && isHigh(text.charCodeAt(end - 1)) ? end - 1 : end
}

/** The slices of text[0, to). */
export function* slices(text: string, to: number = text.length): Generator<string> {
  for (let from = 0; from < to;) {
    const end = sliceEnd(text, from, to)
    yield text.slice(from, end)
    from = end
  }
}

/** A value too long to encode in one call: its text, how a slice of it is encoded, and what opens and closes it. */
export interface LongCell {
  readonly text: string
  readonly open: string
  readonly close: string
  readonly encode: (slice: string) => string
}

/** A cell as a renderer writes it: the encoded text of a short value, or a long one to write in slices. */
export type Cell = string | LongCell

/** Whether a value is long enough to be written in slices. */
export const isLong = (text: string): boolean => text.length > SLICE_CHARS

/**
 * The chunks of a long cell: its opening with the first encoded slice, then one chunk per slice.
 * The caller appends `close` to what it writes next.
 */
export function* longCellChunks(cell: LongCell): Generator<string> {
  let open = cell.open
  for (const slice of slices(cell.text)) {
    yield open + cell.encode(slice)
    open = ''
  }
  if (open !== '') yield open
}

/** A value as a renderer writes it: `encode` of a short one, `long` of a long one. */
export function cellOf(encode: (text: string) => string, long: (text: string) => LongCell): (text: string) => Cell {
  return (text) => (isLong(text) ? long(text) : encode(text))
}
