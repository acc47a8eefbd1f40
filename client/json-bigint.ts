/**
 * JSON as the service writes it, read with every digit of a big integer. The service answers a
 * `j` value past ±(2^53 − 1) as a plain JSON number with all its digits; JSON.parse would round it
 * to the nearest double. Such a number becomes a bigint here, every other value what JSON.parse
 * gives. Answers without a run of 16 digits (almost all) go straight to JSON.parse.
 */

const LONG_DIGITS = /\d{16}/

/** JSON.parse, but an integer a double cannot hold exactly comes back as a bigint. */
export function parseJsonKeepingBigints(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text)
  // Each such integer is put in quotes behind a marker: U+0000, which a JSON string holds only
  // escaped, and a random tag, so that no string of the answer's own is taken for one.
  const tag = `${Math.random().toString(36).slice(2)}:`
  const marker = `\u0000${tag}`
  let marked = false
  let out = ''
  let from = 0
  let i = 0
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (c === 34) {
      // A string: skip to its closing quote, over escapes.
      i++
      while (i < text.length && text.charCodeAt(i) !== 34) i += text.charCodeAt(i) === 92 ? 2 : 1
      i++
      continue
    }
    if (c === 45 || (c >= 48 && c <= 57)) {
      let j = i + 1
      while (j < text.length && isNumberChar(text.charCodeAt(j))) j++
      const token = text.slice(i, j)
      if (/^-?\d+$/.test(token) && !Number.isSafeInteger(Number(token))) {
        // Written as the JSON escape \u0000, which parses to the marker's first character.
        out += `${text.slice(from, i)}"\\u0000${tag}${token}"`
        from = j
        marked = true
      }
      i = j
      continue
    }
    i++
  }
  if (!marked) return JSON.parse(text)
  out += text.slice(from)
  return JSON.parse(out, (_key, value: unknown) => (typeof value === 'string' && value.startsWith(marker) ? BigInt(value.slice(marker.length)) : value))
}

/** Digits, sign, point and exponent: what a JSON number token holds. */
const isNumberChar = (c: number): boolean => (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45
