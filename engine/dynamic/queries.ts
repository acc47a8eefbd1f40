/**
 * What the gateway runs or shows for a widget, and the widget status table (reference §4.5).
 * Widget queries are returned unsubstituted: the gateway passes the instance's variables to
 * parseQuery, whose block pre-pass does the `{@var}` substitution with the same rules as
 * everywhere else.
 */
import { AppError } from '../../shared/errors.js'
import { substitute } from '../blocks/substitute.js'
import type { DynamicApp, DynamicWidget } from './model.js'

/** A widget or `<do>` query with the app's libraries in front, so its `<insert>`s find their blocks. */
export function withLibraries(app: DynamicApp, query: string): string {
  return app.libraries === '' || query === '' ? query : `${app.libraries}${query}`
}

/** The widget called `name`, or undefined. */
export function findWidget(app: DynamicApp, name: string): DynamicWidget | undefined {
  return app.widgets.find((w) => w.name === name)
}

/**
 * The query text of widget `name`, to run with parseQuery(text, vars): its body, preceded by the
 * app's libraries. '' when the widget has no body (text, button… widgets); null when there is
 * no such widget.
 */
export function widgetQuery(app: DynamicApp, name: string): string | null {
  const widget = findWidget(app, name)
  return widget ? withLibraries(app, widget.query) : null
}

/**
 * The text a `class_="text"` widget shows: its `text_` (or, without one, the text of its body)
 * with every `{…}` substituted over `vars` by the block machinery.
 * @param vars the instance's variables, `count` included (as stored from initialVars)
 * @throws AppError NOT_FOUND for an unknown widget; CHECK_ERROR / EXPR_ERROR from substitution
 */
export function widgetText(app: DynamicApp, name: string, vars: Readonly<Record<string, string>>): string {
  const widget = findWidget(app, name)
  if (!widget) throw new AppError('NOT_FOUND', `No widget named '${name}' in this instance.`, { widget: name })
  const text = widget.attrs.text_ ?? bodyText(widget.query)
  const lookup = (v: string): string | undefined => (Object.hasOwn(vars, v) ? vars[v] : undefined)
  return substitute(text, lookup, { loc: widget.loc, what: `<widget ${name} text_>`, trail: null })
}

/** Plain text of a serialised body: markup dropped, the five predefined references decoded. */
function bodyText(xml: string): string {
  const decode: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }
  return xml
    .replace(/<[^>]*>/g, '')
    .replace(/&(lt|gt|amp|quot|apos|#[0-9]+);/g, (_, e: string) => (e.startsWith('#') ? String.fromCodePoint(Number(e.slice(1))) : decode[e]))
    .trim()
}

/**
 * The widgets whose output may differ after `changedVars` changed: those whose query, text or
 * other attributes mention one of them (`@x`, `{@x}`), or that are bound to one.
 */
export function changedWidgets(app: DynamicApp, changedVars: Iterable<string>): Set<string> {
  const vars = new Set(changedVars)
  return new Set(app.widgets.filter((w) => w.uses.some((v) => vars.has(v))).map((w) => w.name))
}

/** The widget status table, column-major: one position per widget in document order. */
export interface StatusTable {
  readonly name: string[]
  readonly class: string[]
  /** 1 when the widget changed (see changedWidgets), else 0. */
  readonly changed: number[]
}

/** The widget status table, with `changed` flags from a set of widget names. */
export function statusTable(app: DynamicApp, changed: ReadonlySet<string>): StatusTable {
  return {
    name: app.widgets.map((w) => w.name),
    class: app.widgets.map((w) => w.class),
    changed: app.widgets.map((w) => (changed.has(w.name) ? 1 : 0)),
  }
}
