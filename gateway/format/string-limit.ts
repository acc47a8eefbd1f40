/**
 * V8 holds at most about 512 Mi characters in one string. An answer within MAX_RESULT_BYTES can
 * still need more in one piece (a single huge value, a row of many large cells, or escaping and
 * padding that make the rendering longer than the bytes MAX_RESULT_BYTES counts). Rendering then
 * throws RangeError('Invalid string length'); that is the caller's answer being too large, so it
 * is a 413 that says what to ask for instead, not a 500.
 */
import { AppError } from '../../shared/errors.js'

export function stringLimitError(err: unknown): AppError | null {
  if (!(err instanceof RangeError) || !/invalid string length/i.test(err.message)) return null
  return new AppError(
    'RESULT_TOO_LARGE',
    'The answer is too large to write: one piece of it (a value, a row, or the whole answer) would pass the 512 MiB one text can hold (MAX_RESULT_BYTES counts fewer bytes than the rendering takes); ask for a row range (!data with range_ and to_), fewer or narrower columns, or shorter values (truncate_ cuts only at MAX_RESULT_BYTES).',
    { maxChars: 2 ** 29 - 24 },
    { cause: err },
  )
}
