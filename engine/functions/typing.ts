/**
 * Result-type rules shared by the registry rows, with messages that say what was expected and
 * what was found ("contains needs text, got a number for X").
 */
import type { ColumnType } from '../columns/types.js'

/** What a registry row's `result` returns: a type, or an error message. */
export type TypeResult = ColumnType | { readonly error: string }

/** How a type reads in a message. */
export const describeType = (t: ColumnType): string => (t === 'text' ? 'text' : t === 'date' ? 'a date' : 'a number')

/** An error result unless `t` is numeric (int, float or date); null/omitted passes. */
export function needNumber(fn: string, name: string, t: ColumnType | null): { error: string } | null {
  return t === 'text' ? { error: `${fn} needs a number, got text for ${name}` } : null
}

/** An error result unless `t` is text; null/omitted passes. */
export function needText(fn: string, name: string, t: ColumnType | null): { error: string } | null {
  return t !== null && t !== 'text' ? { error: `${fn} needs text, got ${describeType(t)} for ${name}` } : null
}

/** The first error among checks, or null. */
export function firstError(...checks: ({ error: string } | null)[]): { error: string } | null {
  for (const c of checks) if (c !== null) return c
  return null
}

/**
 * The common type of numeric values: float if any is float, date if all are dates, int
 * otherwise (a date mixed with plain numbers is just a number).
 */
export function numericCommon(types: readonly ColumnType[]): ColumnType {
  if (types.includes('float')) return 'float'
  if (types.includes('bigint')) return 'bigint'
  return types.length > 0 && types.every((t) => t === 'date') ? 'date' : 'int'
}

/**
 * The common type of alternative results (if/case branches): all text → text, all numeric →
 * numericCommon, a mix → error.
 */
export function commonType(fn: string, types: readonly ColumnType[]): TypeResult {
  const text = types.filter((t) => t === 'text').length
  if (text === types.length) return 'text'
  if (text > 0) return { error: `${fn} cannot mix text and numbers in its results` }
  return numericCommon(types)
}
