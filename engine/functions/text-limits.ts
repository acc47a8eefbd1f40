/**
 * How much text one function may build. Functions that make text longer than their input
 * (padleft/padright to a width, g_splice joining a group) take their sizes from the query, so
 * without a bound one request could ask for a string past V8's limit (a RangeError, once a 500)
 * or for many large strings (every distinct value padded to a million characters: the worker,
 * and with it the gateway, runs out of memory). Both bounds are refused before anything is
 * built, with a CHECK_ERROR (400) that names the function, the argument and the limit.
 */
import { AppError } from '../../shared/errors.js'

/** Longest text value a function may build: 1 Mi characters (1010data documents no bound of its own). */
export const MAX_TEXT_LENGTH = 1_048_576

/** Most characters one function call may build over all its values: 64 Mi (128 MB as UTF-16). */
export const MAX_TEXT_BUILT = 64 * 1_048_576

/** Refuses a width or length argument beyond MAX_TEXT_LENGTH. */
export function checkTextWidth(fn: string, arg: string, width: number): void {
  if (!(width <= MAX_TEXT_LENGTH)) {
    throw new AppError('CHECK_ERROR', `${fn}(): ${arg} is ${width}, but a text value holds at most ${MAX_TEXT_LENGTH} characters; use a smaller ${arg}.`, {
      function: fn,
      argument: arg,
      maxLength: MAX_TEXT_LENGTH,
    })
  }
}

/** Refuses building `values` texts of `width` characters each when together they pass MAX_TEXT_BUILT. */
export function checkTextBuilt(fn: string, values: number, width: number): void {
  if (values * width > MAX_TEXT_BUILT) {
    throw new AppError(
      'CHECK_ERROR',
      `${fn}() would build ${values} texts of ${width} characters, more than the ${MAX_TEXT_BUILT} characters one function may build; use a smaller width or fewer distinct values.`,
      { function: fn, maxBuilt: MAX_TEXT_BUILT },
    )
  }
}

/** Counts the characters a function builds value by value, refusing one value or the total past its bound. */
export class TextBudget {
  #built = 0
  constructor(
    readonly fn: string,
    readonly hint: string,
  ) {}

  /** Call before building a value of `length` characters. */
  add(length: number): void {
    if (length > MAX_TEXT_LENGTH) {
      throw new AppError(
        'CHECK_ERROR',
        `${this.fn}() would build a text of more than ${MAX_TEXT_LENGTH} characters, the most a text value holds; ${this.hint}.`,
        { function: this.fn, maxLength: MAX_TEXT_LENGTH },
      )
    }
    this.#built += length
    if (this.#built > MAX_TEXT_BUILT) {
      throw new AppError('CHECK_ERROR', `${this.fn}() would build more than ${MAX_TEXT_BUILT} characters of text in all; ${this.hint}.`, {
        function: this.fn,
        maxBuilt: MAX_TEXT_BUILT,
      })
    }
  }
}
