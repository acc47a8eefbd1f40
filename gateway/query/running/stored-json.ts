/**
 * Reading what another process left in the Store (stop messages, running records, slot counts).
 * Anyone with access to the Store can write there, so a value that is not what it should be is
 * treated as absent instead of crashing whoever reads it.
 */

/** The JSON object `text` holds, or null for anything else (not JSON, an array, a scalar, null). */
export function storedObject(text: string): Record<string, unknown> | null {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null
}
