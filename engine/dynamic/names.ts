/** Naming rules of dynamic variables and the one reserved name. */

/** A declared variable: a lower-case letter, then lower-case letters, digits or `_` (reference §7.1). */
export const VARIABLE_NAME = /^[a-z][a-z0-9_]*$/

/**
 * `@count`, the instance-numbering helper (SPEC §2.1, reference §7.6). It has no trailing
 * underscore, so it looks like a user variable; it is reserved so that no declaration, `<set>`
 * or request parameter can shadow the number the gateway gives the instance.
 */
export const COUNT_VAR = 'count'

/** Names ending in `_` are built-in attributes and system parameters, never variables (§1.2). */
export const isSystemName = (name: string): boolean => name.endsWith('_')

/** `@name` anywhere in a text (also inside `{@name}`), for dependency tracking. */
export const MENTION = /@([a-z][a-z0-9_]*)/g

/** The names a text mentions as `@name`, in order of first mention, without repeats. */
export function mentions(text: string): string[] {
  const seen = new Set<string>()
  for (const m of text.matchAll(MENTION)) seen.add(m[1])
  return [...seen]
}
