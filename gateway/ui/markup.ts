/**
 * Markup built with a tagged template that escapes every interpolated value unless it is already
 * Markup. Page code then cannot forget to escape: a value from a table, a query or a URL is text
 * by default, and only markup built here (or by escapeHtml) is inserted as markup.
 */
import { escapeHtml } from '../format/index.js'

export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text
  }
}

/** Values: Markup as is, arrays joined, null/undefined/false as nothing, anything else escaped. */
function render(value: unknown): string {
  if (value instanceof Markup) return value.text
  if (Array.isArray(value)) return value.map(render).join('')
  if (value === null || value === undefined || value === false) return ''
  return escapeHtml(String(value))
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let out = strings[0]
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]
  return new Markup(out)
}

/** `data-*` attributes from a record (names are ours; values are escaped). */
export function dataAttributes(data: Readonly<Record<string, string>>): Markup {
  return new Markup(
    Object.entries(data)
      .map(([k, v]) => ` data-${k}="${escapeHtml(v)}"`)
      .join(''),
  )
}
