/**
 * The index widget's read methods over one result: `!cols`, `!rows`, `!data`, `!head`.
 * Shared by every endpoint whose result they read: api/sql, api/run, instances, tables, listings.
 */
import type { Context } from 'koa'
import { AppError } from '../../shared/errors.js'
import { answerKey, type RenderedAnswers } from '../query/results/rendered-answers.js'
import { colsTable, HEAD_ROWS, renderHead, renderResult, renderValue, resultForValues, STREAM_THRESHOLD, VALUES_PARAM, valuesMode } from '../format/index.js'
import type { ReadableResult } from '../query/results/readable-result.js'
import type { ParsedPath } from '../http/path.js'
import { requestParams, rowParam } from '../http/params.js'
import { formatLinks, send, sendRows } from '../http/respond.js'

export type AppKind = 'run' | 'sql'

/** sql numbers rows with `range`/`to`, run and instances with `range_`/`to_`. */
const RANGE_NAMES: Record<AppKind, readonly [string, string]> = { sql: ['range', 'to'], run: ['range_', 'to_'] }

export const READ_METHODS = ['cols', 'rows', 'data', 'head'] as const

/** Half-open row range from the request, clipped to the result (never an error for bounds). */
export function requestedRange(ctx: Context, app: AppKind, rowCount: number): { from: number; to: number } {
  const params = requestParams(ctx)
  const [fromName, toName] = RANGE_NAMES[app]
  const from = Math.min(rowParam(params, fromName) ?? 0, rowCount)
  const to = Math.max(from, Math.min(rowParam(params, toName) ?? rowCount, rowCount))
  return { from, to }
}

/** Rendered answers and the recipe key of the result, when the caller knows the key. */
export interface AnswerMemo {
  readonly answers: RenderedAnswers
  readonly resultKey: string
}

/**
 * Answers a read method. With `memo`, small `!data` answers other than HTML are rendered once
 * per row range and format (query/results/rendered-answers.ts).
 */
export async function serveReadMethod(ctx: Context, route: ParsedPath, method: string, source: ReadableResult, app: AppKind, memo?: AnswerMemo): Promise<void> {
  // Only a page has links; JSON and text answers skip building them.
  const page = route.format === 'html' ? { title: `${app} ${method}`, links: formatLinks(ctx) } : undefined
  switch (method) {
    case 'cols':
      return send(ctx, renderResult(colsTable(source.cols, app), route.format, { page }))
    case 'rows':
      return send(ctx, renderValue(source.rowCount, route.format, page))
    case 'data': {
      const range = requestedRange(ctx, app, source.rowCount)
      const values = valuesMode(requestParams(ctx)[VALUES_PARAM])
      const read = async (from: number, to: number) => resultForValues(await source.rows(from, to), route.format, values)
      if (memo !== undefined && route.format !== 'html' && range.to - range.from <= STREAM_THRESHOLD) {
        const key = answerKey(memo.resultKey, 'data', route.format, range.from, range.to, values)
        const hit = memo.answers.get(key)
        return send(ctx, hit ?? memo.answers.remember(key, renderResult(await read(range.from, range.to), route.format)))
      }
      // Large ranges stream in pieces: a result copied to the Store is read a chunk at a time.
      return sendRows(ctx, { cols: source.cols, read }, range, route.format, page)
    }
    case 'head': {
      const values = valuesMode(requestParams(ctx)[VALUES_PARAM])
      const first = resultForValues(await source.rows(0, HEAD_ROWS), route.format, values)
      // renderHead shows the total row count and the rows it is given (all of `first`).
      return send(ctx, renderHead({ ...first, rowCount: source.rowCount }, app, route.format, first.rowCount))
    }
    default:
      throw new AppError('NOT_FOUND', `Unknown index-widget method "!${method}"; use !${READ_METHODS.join(', !')}.`, { method })
  }
}
