/**
 * Maps offsets in the text handed to sax back to the query text the user wrote. The pre-scan
 * lengthens the text (a synthetic root in front, `&lt;` for a raw `<`…), and every position we
 * report must still point into the original, so each lengthening is recorded as a shift.
 */
import type { Loc } from '../ast.js'

/** Rewritten offsets → original offsets → 1-based line and column. */
export class PositionMap {
  /** Offsets in the rewritten text from which `shifts[k]` extra characters precede. */
  private readonly from: number[] = [0]
  private readonly shifts: number[] = [0]
  private readonly lineStarts: number[]

  constructor(private readonly original: string) {
    this.lineStarts = [0]
    for (let i = 0; i < original.length; i++) if (original.charCodeAt(i) === 10) this.lineStarts.push(i + 1)
  }

  /** Records that from rewritten offset `at` on, `shift` characters more than the original precede. */
  addShift(at: number, shift: number): void {
    this.from.push(at)
    this.shifts.push(shift)
  }

  /** The original offset of a rewritten offset, clamped to the original text. */
  toOriginal(rewritten: number): number {
    let lo = 0
    let hi = this.from.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (this.from[mid] <= rewritten) lo = mid
      else hi = mid - 1
    }
    return Math.max(0, Math.min(this.original.length, rewritten - this.shifts[lo]))
  }

  /** The 1-based line and column of an original offset. */
  locOf(offset: number): Loc {
    let lo = 0
    let hi = this.lineStarts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (this.lineStarts[mid] <= offset) lo = mid
      else hi = mid - 1
    }
    return { line: lo + 1, col: offset - this.lineStarts[lo] + 1 }
  }

  /** The original line and column of a rewritten offset. */
  locOfRewritten(rewritten: number): Loc {
    return this.locOf(this.toOriginal(rewritten))
  }
}
