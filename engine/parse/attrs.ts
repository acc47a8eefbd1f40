/**
 * Reading operation attributes. Saved queries carry UI attributes and empty ones (`weight=""`),
 * so unknown attributes are ignored and an empty value counts as not given.
 */
import type { MetaPatch, XmlElement } from '../ast.js'
import { opError } from './op-errors.js'

/** The attribute's value, or undefined when absent or blank. */
export function attr(el: XmlElement, name: string): string | undefined {
  const v = el.attrs[name]
  return v === undefined || v.trim() === '' ? undefined : v
}

/** The attribute's value; CHECK_ERROR naming the element, attribute and line when missing. */
export function requiredAttr(el: XmlElement, name: string): string {
  const v = attr(el, name)
  if (v === undefined) throw opError(el, `<${el.name}> needs a ${name} attribute`, { attribute: name })
  return v
}

/** A column or table name as the engine keys it: trimmed and lower-cased. */
export function normName(s: string): string {
  return s.trim().toLowerCase()
}

/**
 * A list of column names: comma-separated (spaces around commas allowed, and spaces alone also
 * separate, since a column name never contains one), lower-cased; undefined when not given.
 */
export function nameList(el: XmlElement, name: string): string[] | undefined {
  const v = attr(el, name)
  return v === undefined
    ? undefined
    : v
        .split(/[\s,]+/)
        .filter((s) => s !== '')
        .map(normName)
}

const NEW_NAME = /^[a-z][a-z0-9_]*$/

/** A name the query creates (willbe, tcol, rename): lower-cased, and usable in expressions. */
export function newColumnName(el: XmlElement, name: string, value: string): string {
  const n = normName(value)
  if (!NEW_NAME.test(n)) {
    throw opError(el, `<${el.name} ${name}="${value}"> is not a valid column name: use a letter, then letters, digits or '_'`, { attribute: name })
  }
  return n
}

/** `1`/`0` (or `true`/`false`); undefined when not given. */
export function boolAttr(el: XmlElement, name: string): boolean | undefined {
  const v = attr(el, name)?.trim().toLowerCase()
  if (v === undefined) return undefined
  if (v === '1' || v === 'true') return true
  if (v === '0' || v === 'false') return false
  throw opError(el, `<${el.name} ${name}> must be 1 or 0, not '${v}'`, { attribute: name })
}

/** A whole number ≥ 0; undefined when not given. */
export function countAttr(el: XmlElement, name: string): number | undefined {
  const v = attr(el, name)?.trim()
  if (v === undefined) return undefined
  if (!/^\d{1,9}$/.test(v)) throw opError(el, `<${el.name} ${name}> must be a whole number ≥ 0, not '${v}'`, { attribute: name })
  return Number(v)
}

/** One of `allowed`, lower-cased; `fallback` when not given. */
export function choiceAttr<T extends string>(el: XmlElement, name: string, allowed: readonly T[], fallback: T): T {
  const v = attr(el, name)?.trim().toLowerCase()
  if (v === undefined) return fallback
  if (!(allowed as readonly string[]).includes(v)) {
    throw opError(el, `<${el.name} ${name}> must be ${allowed.join(' or ')}, not '${v}'`, { attribute: name })
  }
  return v as T
}

/** label, desc, format, width, fixed: only the ones given (labels are kept exactly as written). */
export function metaPatch(el: XmlElement): MetaPatch {
  const meta: { -readonly [K in keyof MetaPatch]: MetaPatch[K] } = {}
  const label = attr(el, 'label')
  const desc = attr(el, 'desc')
  const format = attr(el, 'format')
  const width = countAttr(el, 'width')
  const fixed = boolAttr(el, 'fixed')
  if (label !== undefined) meta.label = label
  if (desc !== undefined) meta.desc = desc
  if (format !== undefined) meta.format = format
  if (width !== undefined) meta.width = width
  if (fixed !== undefined) meta.fixed = fixed
  return meta
}
