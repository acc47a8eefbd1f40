/** One `<widget>` element → DynamicWidget (reference §7.2–7.3). */
import type { XmlElement } from '../ast.js'
import { dynamicError, listed } from './errors.js'
import type { DynamicWidget } from './model.js'
import { COUNT_VAR, mentions } from './names.js'
import { toXml } from './serialize.js'

/** `value_="@var"`: the only form that binds; anything else is an ordinary value. */
const BINDING = /^\s*@([a-z][a-z0-9_]*)\s*$/

/** Block calls whose expansion may read variables that only the libraries mention. */
const BLOCK_CALL = /<(?:insert|call|expand)[\s/>]/

/**
 * Reads a widget.
 * @param name the `name` attribute, or the generated name
 * @param declared the variables declared on `<dynamic>`
 * @param libraryUses the variables the query's libraries mention
 * @throws AppError CHECK_ERROR when `value_` binds to a variable that is not declared
 */
export function readWidget(el: XmlElement, name: string, named: boolean, declared: ReadonlySet<string>, libraryUses: readonly string[]): DynamicWidget {
  const attrs: Record<string, string> = {}
  for (const [key, value] of Object.entries(el.attrs)) if (key !== 'name' && key !== 'class_') attrs[key] = value
  const binding = readBinding(el, declared)
  const query = toXml(el.children)
  const mentioned = [...mentions(query), ...Object.values(attrs).flatMap(mentions), ...(BLOCK_CALL.test(query) ? libraryUses : [])]
  const uses = new Set(mentioned.filter((v) => declared.has(v) || v === COUNT_VAR))
  if (binding) uses.add(binding)
  return {
    name,
    named,
    class: el.attrs.class_?.trim() || 'grid',
    attrs,
    binding,
    query,
    uses: [...uses],
    loc: el.loc,
  }
}

function readBinding(el: XmlElement, declared: ReadonlySet<string>): string | null {
  const value = el.attrs.value_
  if (value === undefined || !value.trim().startsWith('@')) return null
  const m = BINDING.exec(value)
  if (!m)
    throw dynamicError(
      el.loc,
      `value_="${value}" of <widget>: '@' must be followed by a variable name (lower-case letter, then lower-case letters, digits or '_')`,
    )
  const name = m[1]
  if (!declared.has(name)) {
    const why =
      name === COUNT_VAR
        ? "'count' is the reserved instance number and cannot be bound"
        : `'${name}' is not declared on <dynamic> (declared: ${listed([...declared])})`
    throw dynamicError(el.loc, `value_="${value}" binds the widget to a variable, but ${why}`)
  }
  return name
}
