/**
 * `!methods`: the methods a widget answers, as a JSON array of names (reference §1.1 documents
 * the method list but not its shape; the array of names is its recommendation). Reached as
 * `api/{e}!methods`, `api/{e}/!methods` and `api/{tag}/{widget}!methods` (or `…/{widget}/!methods`).
 * A name is listed only when that method answers at that path.
 */
import type { Context } from 'koa'
import type { DynamicWidget } from '../../engine/index.js'
import { renderValue } from '../format/index.js'
import { send } from '../http/respond.js'
import { READ_METHODS } from './widget.js'
import { routeOf } from '../http/path.js'

/** The methods of any place that runs a query (`!stop`, `!status`) and of every widget (`!methods`). */
const CONTROL_METHODS = ['stop', 'status', 'methods'] as const

/** A result grid: api/sql, api/run, an sql, run or fixed-query instance, a query widget. */
export const RESULT_METHODS: readonly string[] = [...READ_METHODS, ...CONTROL_METHODS]

/** A widget that runs no query (a `text` widget, a button), or a dynamic instance without an index widget. */
export const CONTROL_ONLY_METHODS: readonly string[] = [...CONTROL_METHODS]

/** Whether a widget of a dynamic query has a result to read: a body query, and not a `text` widget. */
export function hasResult(widget: DynamicWidget): boolean {
  return widget.class !== 'text' && widget.query.trim() !== ''
}

/** The methods of one widget of a dynamic instance. */
export function widgetMethods(widget: DynamicWidget): readonly string[] {
  return hasResult(widget) ? RESULT_METHODS : CONTROL_ONLY_METHODS
}

export function answerMethods(ctx: Context, methods: readonly string[], title: string): void {
  send(ctx, renderValue(methods, routeOf(ctx).format, { title }))
}
