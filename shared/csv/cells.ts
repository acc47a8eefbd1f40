/**
 * A column of CSV cells as the reader's one scan leaves it (read.ts): where each cell lies in the
 * text, and the kind (infer.ts) and number of each cell. The scan tells the kind of the common
 * cells (N/A, whole numbers of up to 9 digits, plain decimals, YYYY-MM-DD dates, text that starts
 * with a letter) straight from the character codes, so a column of numbers never becomes one
 * string per cell; anything else is classified from its text by textKind, exactly as before.
 * Strings are made only for the columns that need them (text columns, and messages).
 */
import { NA_INT, type ColumnType } from '../table.js'
import type { ChunkText } from './chunk-text.js'
import { isYmd } from '../ymd.js'
import { bigintOfText } from '../bigint-text.js'
import { BIG, columnTypeOf, dashedDate, DATE, FLOAT, INT, isSpace, KINDS, NA, plainDate, TEXT, textKind, trimmed, type WrongValue } from './infer.js'

/** A typed column: Int32Array for int and date, Float64Array for float, BigInt64Array for bigint, strings for text. */
export type ColumnValues = Int32Array | Float64Array | BigInt64Array | readonly string[]

/** Powers of ten that are exact doubles: dividing by one rounds once, as Number() does. */
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k)
/** Digits of a mantissa that is still an exact double (below 2^53). */
const EXACT_DIGITS = 15
/** Where the month and day digits of YYYY-MM-DD are. */
const DATE_DIGITS = [5, 6, 8, 9]

/** One column of cells. Filled by the reader (`push…`), then read (`kinds`, `nums`, `text`). */
export class CellColumn {
  length = 0
  kinds: Uint8Array
  /** INT and FLOAT: the value; DATE: yyyymmdd; other kinds: 0. */
  nums: Float64Array
  /** Where cell r starts and ends in `source`; a start of -1 - k means `other[k]` holds it. */
  private starts: Int32Array
  private ends: Int32Array
  private readonly other: string[] = []

  /** `capacity`: the cells expected (more are taken, at the cost of copying). */
  constructor(
    private readonly source: string,
    capacity = 16,
  ) {
    this.kinds = new Uint8Array(capacity)
    this.nums = new Float64Array(capacity)
    this.starts = new Int32Array(capacity)
    this.ends = new Int32Array(capacity)
  }

  /** The cell's text as written (untrimmed; a quoted cell without its quotes, `""` as `"`). */
  text(r: number): string {
    const a = this.starts[r]
    return a >= 0 ? this.source.slice(a, this.ends[r]) : this.other[-1 - a]
  }

  /** Every cell's text. */
  strings(): string[] {
    const out = new Array<string>(this.length)
    for (let r = 0; r < this.length; r++) out[r] = this.text(r)
    return out
  }

  /**
   * The cells as distinct values and codes (ChunkText), the cells as written: one string per
   * distinct value rather than per cell. Values are found by a hash of their characters in the
   * source, so a repeated value is never sliced out of it.
   */
  chunkText(): ChunkText {
    const n = this.length
    const codes = new Int32Array(n)
    const values: string[] = []
    const hashes: number[] = []
    let mask = 1023
    let slots: Int32Array = new Int32Array(mask + 1)
    const s = this.source
    for (let r = 0; r < n; r++) {
      const a = this.starts[r]
      const b = this.ends[r]
      const other = a >= 0 ? null : this.other[-1 - a]
      if (other === '' || a === b) continue
      const h = other === null ? hashRange(s, a, b) : hashRange(other, 0, other.length)
      let i = h & mask
      for (;;) {
        const code = slots[i]
        if (code === 0) {
          values.push(other ?? s.slice(a, b))
          hashes.push(h)
          slots[i] = values.length
          codes[r] = values.length
          if (values.length * 2 > mask) {
            mask = mask * 2 + 1
            slots = rehash(hashes, mask)
          }
          break
        }
        const v = values[code - 1]
        if (hashes[code - 1] === h && (other === null ? sameText(v, s, a, b) : v === other)) {
          codes[r] = code
          break
        }
        i = (i + 1) & mask
      }
    }
    return { values, codes }
  }

  /** Adds the cell source[a, b): an unquoted field. */
  pushRange(a: number, b: number): void {
    const r = this.grow()
    this.starts[r] = a
    this.ends[r] = b
    if (!this.classify(r, a, b)) this.classifyText(r, this.source.slice(a, b))
  }

  /** Adds a cell given as a string (a quoted field, or a value of JSON data). */
  pushString(v: string): void {
    const r = this.grow()
    this.starts[r] = -1 - this.other.length
    this.other.push(v)
    this.classifyText(r, v)
  }

  private grow(): number {
    const r = this.length++
    if (r === this.kinds.length) {
      const size = Math.max(16, r * 2)
      this.kinds = copyInto(new Uint8Array(size), this.kinds)
      this.nums = copyInto(new Float64Array(size), this.nums)
      this.starts = copyInto(new Int32Array(size), this.starts)
      this.ends = copyInto(new Int32Array(size), this.ends)
    }
    return r
  }

  /** The kind of a cell from its text, as textKind says, and its number. */
  private classifyText(r: number, v: string): void {
    const t = trimmed(v)
    const k = textKind(t)
    this.kinds[r] = k
    this.nums[r] = k === INT || k === FLOAT || k === BIG ? Number(t) : k === DATE ? dashedDate(t) : 0
  }

  /**
   * The kind and number of source[a, b) when the characters settle them without a string, agreeing
   * with textKind and Number() on every such cell; false to leave the cell to classifyText.
   */
  private classify(r: number, a: number, b: number): boolean {
    const s = this.source
    if (a === b) {
      this.kinds[r] = NA
      return true
    }
    const first = s.charCodeAt(a)
    if (isSpace(first) || isSpace(s.charCodeAt(b - 1))) return false
    // Text: a number or a date starts with a digit, a sign or a point; e alone is no exponent.
    if (!(first >= 48 && first <= 57) && first !== 43 && first !== 45 && first !== 46) {
      this.kinds[r] = TEXT
      this.nums[r] = 0
      return true
    }
    let k = a
    const negative = first === 45
    if (first === 43 || first === 45) k++
    let m = 0
    const intStart = k
    for (; k < b; k++) {
      const d = s.charCodeAt(k) - 48
      if (d < 0 || d > 9) break
      m = m * 10 + d
    }
    const digits = k - intStart
    if (digits === 0) return false
    if (k === b) {
      if (digits > 9) return false
      this.kinds[r] = INT
      this.nums[r] = negative ? -m : m
      return true
    }
    const c = s.charCodeAt(k)
    if (c === 46) {
      const fracStart = ++k
      for (; k < b; k++) {
        const d = s.charCodeAt(k) - 48
        if (d < 0 || d > 9) break
        m = m * 10 + d
      }
      const frac = k - fracStart
      if (k !== b || frac === 0 || digits + frac > EXACT_DIGITS) return false
      const v = m / POW10[frac]
      this.kinds[r] = FLOAT
      this.nums[r] = negative ? -v : v
      return true
    }
    // YYYY-MM-DD (dashedDate's rule): a date when the digits make one, else text.
    if (c === 45 && digits === 4 && first !== 43 && first !== 45 && b - a === 10 && s.charCodeAt(a + 7) === 45) {
      let ymd = m
      for (const p of DATE_DIGITS) {
        const d = s.charCodeAt(a + p) - 48
        if (d < 0 || d > 9) return false
        ymd = ymd * 10 + d
      }
      const date = isYmd(ymd)
      this.kinds[r] = date ? DATE : TEXT
      this.nums[r] = date ? ymd : 0
      return true
    }
    return false
  }
}

/** FNV-1a over UTF-16 units, to 31 bits. */
function hashRange(s: string, a: number, b: number): number {
  let h = 0x811c9dc5
  for (let k = a; k < b; k++) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193)
  return h & 0x7fffffff
}

function sameText(v: string, s: string, a: number, b: number): boolean {
  if (v.length !== b - a) return false
  for (let k = 0; k < v.length; k++) if (v.charCodeAt(k) !== s.charCodeAt(a + k)) return false
  return true
}

/** Slots (codes, 0 empty) of a table of `mask + 1` entries holding the codes whose hashes are given. */
function rehash(hashes: readonly number[], mask: number): Int32Array {
  const slots = new Int32Array(mask + 1)
  for (let c = 0; c < hashes.length; c++) {
    let i = hashes[c] & mask
    while (slots[i] !== 0) i = (i + 1) & mask
    slots[i] = c + 1
  }
  return slots
}

function copyInto<T extends Uint8Array | Int32Array | Float64Array>(to: T, from: T): T {
  to.set(from)
  return to
}

/**
 * A column of cells as values of `declared`, or of the type they suggest when it is undefined
 * (columnTypeOf): N/A as the type's N/A, a value that does not fit the type refused by `wrong`;
 * a text column as `asText` gives it (by default distinct values and codes).
 */
export function typeCells<T = ChunkText>(
  col: CellColumn,
  declared: ColumnType | undefined,
  wrong: WrongValue,
  asText: (col: CellColumn) => T = (c) => c.chunkText() as T,
): { type: ColumnType; values: Int32Array | Float64Array | BigInt64Array | T } {
  if (declared === 'text') return { type: 'text', values: asText(col) }
  const { kinds, nums, length: n } = col
  const seen = new Array<boolean>(KINDS).fill(false)
  for (let r = 0; r < n; r++) seen[kinds[r]] = true
  const plain = (r: number): boolean => plainDate(trimmed(col.text(r)))
  const everyIntIsDate = (): boolean => {
    for (let r = 0; r < n; r++) if (kinds[r] === INT && !plain(r)) return false
    return true
  }
  const type = declared ?? columnTypeOf(seen, everyIntIsDate)
  if (type === 'text') return { type, values: asText(col) }
  if (type === 'bigint') return { type, values: bigintCells(col, wrong) }
  if (type === 'float') {
    const out = new Float64Array(n)
    for (let r = 0; r < n; r++) {
      const k = kinds[r]
      if (k === NA) out[r] = NaN
      else if (k === INT || k === BIG || k === FLOAT) out[r] = nums[r]
      else throw wrong(r, type)
    }
    return { type, values: out }
  }
  const out = new Int32Array(n)
  for (let r = 0; r < n; r++) {
    const k = kinds[r]
    if (k === NA) out[r] = NA_INT
    else if (type === 'int' && k === INT) out[r] = nums[r]
    else if (type === 'date' && k === DATE) out[r] = nums[r]
    else if (type === 'date' && k === INT && plain(r)) out[r] = nums[r]
    else throw wrong(r, type)
  }
  return { type, values: out }
}

/**
 * Whole-number cells as big integers, exact: a cell's number is used while a float64 holds it
 * exactly, else its digits are read again (a cell past ±2^53 is rare: ids, hashes, nanoseconds).
 */
function bigintCells(col: CellColumn, wrong: WrongValue): BigInt64Array {
  const { kinds, nums, length: n } = col
  const out = new BigInt64Array(n)
  const words = new Int32Array(out.buffer)
  for (let r = 0; r < n; r++) {
    const k = kinds[r]
    if (k === NA) {
      words[2 * r + 1] = -2147483648 // NA_BIGINT: high word −2^31, low word 0
    } else if (k === INT || k === BIG) {
      const v = nums[r]
      if (Number.isSafeInteger(v)) {
        const hi = Math.floor(v / 4294967296)
        words[2 * r] = v - hi * 4294967296
        words[2 * r + 1] = hi
      } else out[r] = bigintOfText(trimmed(col.text(r)))!
    } else throw wrong(r, 'bigint')
  }
  return out
}

/**
 * A column of text cells (JSON data's strings) as typeCells types it. Text stays the very array
 * given.
 */
export function typeTextColumn(cells: readonly string[], declared: ColumnType | undefined, wrong: WrongValue): { type: ColumnType; values: ColumnValues } {
  if (declared === 'text') return { type: 'text', values: cells }
  const col = new CellColumn('')
  for (const v of cells) col.pushString(v)
  return typeCells(col, declared, wrong, () => cells)
}
