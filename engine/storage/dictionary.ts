/** Dictionary encoding of text columns: Int32 codes plus a string table. */

/**
 * A text column as stored: `dict[codes[r]]` is row r's value; code 0 is '' (N/A). Not to be
 * confused with an upload chunk's text (ChunkText, shared/csv/chunk-text.ts), coded by first sight.
 */
export interface StoredText {
  readonly codes: Int32Array
  readonly dict: string[]
}

/**
 * Encode strings as codes into a sorted dictionary. Index 0 is always '' (N/A); the other entries
 * are the distinct non-empty values in ascending UTF-16 code-unit order (JavaScript's default
 * string order), so comparing two codes compares their strings and the same values always give
 * byte-identical files whatever order the rows arrive in.
 */
export function encodeStoredText(values: readonly string[]): StoredText {
  const n = values.length
  const codes = new Int32Array(n)
  // First pass: codes in order of first appearance (one Map lookup per row).
  const firstSeen = new Map<string, number>([['', 0]])
  const distinct: string[] = ['']
  for (let r = 0; r < n; r++) {
    const v = values[r]
    let code = firstSeen.get(v)
    if (code === undefined) {
      code = distinct.length
      firstSeen.set(v, code)
      distinct.push(v)
    }
    codes[r] = code
  }
  // Second pass: renumber into sorted order. '' sorts first, so it keeps code 0.
  const order = distinct.map((_, i) => i).sort((a, b) => (distinct[a] < distinct[b] ? -1 : distinct[a] > distinct[b] ? 1 : 0))
  const remap = new Int32Array(order.length)
  order.forEach((oldCode, newCode) => {
    remap[oldCode] = newCode
  })
  for (let r = 0; r < n; r++) codes[r] = remap[codes[r]]
  return { codes, dict: order.map((i) => distinct[i]) }
}
