/**
 * A column's `format` string (`type:num;width:12;dec:2`) read into the few settings the display
 * rules use. The string comes from user metadata, so reading it never throws: a setting that
 * cannot be read is left out, as if it had not been written.
 */

/** The settings of a format string that change how a value is shown. */
export interface DisplaySpec {
  /** The display type, lower-cased (`num`, `date4y`, …); '' when the format names none. */
  readonly type: string
  /** Decimal places, 0…15; null when not given. */
  readonly dec: number | null
  /** The column width the format states (what padding fills up to); null when not given. */
  readonly width: number | null
  /** Fill text for padwith; null when not given. */
  readonly padwith: string | null
  /** Pad to this many characters instead of the width; negative pads on the right. */
  readonly padto: number | null
}

/** 1010data accepts dec from 0 to 15; more is clamped (a float has ~17 significant digits). */
const MAX_DEC = 15

/** 1010data accepts widths from 1 to 100. */
const MAX_WIDTH = 100

/**
 * Parse `key:value;key:value`. Keys are trimmed and lower-cased, values trimmed; parts without a
 * colon or with an empty key are skipped. A repeated key is dropped and the first one counts, as
 * 1010data documents (`type:pct;type:num;dec:1` is a percentage).
 */
export function parseFormat(format: string): ReadonlyMap<string, string> {
  const out = new Map<string, string>()
  for (const part of format.split(';')) {
    const colon = part.indexOf(':')
    if (colon < 0) continue
    const key = part.slice(0, colon).trim().toLowerCase()
    if (key !== '' && !out.has(key)) out.set(key, part.slice(colon + 1).trim())
  }
  return out
}

function wholeNumber(text: string | undefined, signed = false): number | null {
  if (text === undefined || !(signed ? /^-?\d+$/ : /^\d+$/).test(text)) return null
  return Number(text)
}

/** The width a format states, when it is one 1010data accepts (1…100). */
export function widthOf(format: ReadonlyMap<string, string>): number | null {
  const width = wholeNumber(format.get('width'))
  return width !== null && width >= 1 && width <= MAX_WIDTH ? width : null
}

/** Read a format string into its display settings. */
export function displaySpec(format: string): DisplaySpec {
  const parsed = parseFormat(format)
  const dec = wholeNumber(parsed.get('dec'))
  // Values are trimmed, so `padwith: ` is '' and pads nothing: padding with spaces is what the
  // views' alignment does anyway.
  const padwith = parsed.get('padwith')
  const padto = wholeNumber(parsed.get('padto'), true)
  return {
    type: (parsed.get('type') ?? '').toLowerCase(),
    dec: dec === null ? null : Math.min(dec, MAX_DEC),
    width: widthOf(parsed),
    padwith: padwith === undefined || padwith === '' ? null : padwith,
    padto: padto === null || padto === 0 ? null : Math.max(-MAX_WIDTH, Math.min(MAX_WIDTH, padto)),
  }
}
