/**
 * A text column as distinct values and one code a row: how a chunk's text crosses from the thread
 * that read it to the gateway's (a typed array and a short list, instead of a string a row), and
 * how the upload's files take it. Code 0 is N/A (the empty value); code k is `values[k - 1]`, and
 * values are in the order of their first row, so codes handed out in that order keep it.
 */
export interface ChunkText {
  readonly values: readonly string[]
  readonly codes: Int32Array
}

export function isChunkText(v: unknown): v is ChunkText {
  return typeof v === 'object' && v !== null && 'codes' in v && (v as ChunkText).codes instanceof Int32Array
}

export function encodeChunkText(cells: readonly string[]): ChunkText {
  const codeOf = new Map<string, number>()
  const values: string[] = []
  const codes = new Int32Array(cells.length)
  for (let r = 0; r < cells.length; r++) {
    const s = cells[r]
    if (s === '') continue
    let code = codeOf.get(s)
    if (code === undefined) {
      values.push(s)
      code = values.length
      codeOf.set(s, code)
    }
    codes[r] = code
  }
  return { values, codes }
}
