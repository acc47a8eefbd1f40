/**
 * Request parameters → variable text. Variables always hold text (as block variables do); a JSON
 * body can carry numbers, booleans and arrays, and repeated query-string parameters arrive as
 * arrays, so each is given the text a user would have typed for it.
 */
import { AppError } from '../../shared/errors.js'
import { BLOCK_LIMITS } from '../blocks/index.js'

/**
 * The text a request value gives variable `name`: strings as they are, numbers as their shortest
 * text, booleans as 1/0, null as '' (empty), arrays as their items' texts joined by single spaces
 * (the block-language form of a list).
 * @throws AppError INVALID_PARAMETER naming the variable for an object, a nested array, a
 *   number that is not finite, or a text longer than a block variable may hold
 */
export function variableText(name: string, value: unknown): string {
  const text = Array.isArray(value) ? value.map((item) => atomText(name, item, true)).join(' ') : atomText(name, value, false)
  // The same cap as block variables: the value is substituted into every query that mentions it.
  if (text.length > BLOCK_LIMITS.maxValueLength) throw refuse(name, `the value is longer than ${BLOCK_LIMITS.maxValueLength} characters`)
  return text
}

function atomText(name: string, value: unknown, inArray: boolean): string {
  switch (typeof value) {
    case 'string':
      return value
    case 'number':
      if (!Number.isFinite(value)) throw refuse(name, `the number ${value} cannot be stored`)
      return Object.is(value, -0) ? '0' : String(value)
    case 'bigint':
      return String(value)
    case 'boolean':
      return value ? '1' : '0'
    case 'undefined':
      return ''
    default:
      if (value === null) return ''
      throw refuse(
        name,
        inArray ? 'a list may only hold texts, numbers and booleans' : 'an object cannot be stored in a variable; send a text, a number, a boolean or a list',
      )
  }
}

function refuse(name: string, why: string): AppError {
  return new AppError('INVALID_PARAMETER', `Variable '${name}': ${why}.`, { parameter: name })
}
