/**
 * Fitting a shown value to its column: `padwith`/`padto` fill it out, `width` cuts it. Lengths
 * count code points, so an emoji (a surrogate pair) is one character, as in the text table.
 */

/** How padding sits against a number's sign or currency sign. */
export interface PadPlace {
  /** Text that stays in front of a zero fill ("-", "$", "-$"); other fills go before it. */
  readonly prefix: string
}

function length(text: string): number {
  return /[\ud800-\udfff]/.test(text) ? Array.from(text).length : text.length
}

/** `count` characters of fill made by repeating `fill` (a fill may be a sequence). */
function fillOf(fill: string, count: number): string {
  return Array.from(fill.repeat(Math.ceil(count / length(fill))))
    .slice(0, count)
    .join('')
}

/**
 * Pad `text` to `size` characters with `fill`: on the left when size is positive, on the right
 * when negative. A fill of zeros goes after `place.prefix` (-0042, $0001,234.00), as a zero
 * written before a sign would change what the number reads as; any other fill goes in front of
 * everything (*****$1,234.00). Text already as long is left alone.
 */
export function pad(text: string, fill: string, size: number, place: PadPlace = { prefix: '' }): string {
  const missing = Math.abs(size) - length(text)
  if (missing <= 0) return text
  const filler = fillOf(fill, missing)
  if (size < 0) return text + filler
  if (/^0+$/.test(fill) && text.startsWith(place.prefix)) return place.prefix + filler + text.slice(place.prefix.length)
  return filler + text
}

/**
 * Cut `text` to `width` characters as 1010data shows an overlong cell: width−2 characters and
 * " >" (width:5 shows Tabulate as "Tab >"), so a cut value never passes for a whole one.
 */
export function cut(text: string, width: number): string {
  if (length(text) <= width) return text
  return (
    Array.from(text)
      .slice(0, Math.max(0, width - 2))
      .join('') + ' >'
  )
}
