/**
 * `api/dbm`: one administrative transaction per request, `{"cmd": [name, {params}]}`, answered
 * `{"rc": 0, "value": …}` or `{"rc": 1, "msg": …, "code": …}`. A transaction that fails answers
 * HTTP 200 with rc 1, so macro-language callers (`<do action_="dbm">`) see the message. HTTP
 * errors are what stops the request before a transaction runs (session, origin, method, body,
 * format: docs/errors.md lists them) and failures of the service itself (5xx).
 */
import type { Context } from 'koa'
import type { DbmReply } from '../../shared/api-answers.js'
import { AppError } from '../../shared/errors.js'
import { runTransaction } from '../dbm/index.js'
import type { DbmContext, ParamValues } from '../dbm/registry.js'
import type { Deps } from '../deps.js'
import { STATUS, wireCode } from '../http/errors.js'
import { refuseExchangeFormat, renderValue } from '../format/index.js'
import { requestParams } from '../http/params.js'
import { send } from '../http/respond.js'
import { authState } from '../auth/require-session.js'
import { clientGoneSignal } from './abort.js'
import { isUploadBody, type UploadBody } from './request-body.js'
import { routeOf } from '../http/path.js'

const SHAPE = 'send cmd as a JSON array of two items: the transaction name and an object of parameters, such as {"cmd": ["get_names_in_dir", {"path": "pub"}]}'

/** The transaction name and parameters of a request. */
export function parseCommand(cmd: unknown): { name: string; params: ParamValues } {
  if (cmd === undefined || cmd === null || cmd === '')
    throw new AppError('MISSING_PARAMETER', `The parameter "cmd" is missing; ${SHAPE}.`, { parameter: 'cmd' })
  let value = cmd
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value)
    } catch {
      throw new AppError('INVALID_PARAMETER', `The parameter "cmd" is not valid JSON; ${SHAPE}.`, { parameter: 'cmd' })
    }
  }
  if (!Array.isArray(value) || value.length !== 2)
    throw new AppError('INVALID_PARAMETER', `The parameter "cmd" must be an array of exactly two items; ${SHAPE}.`, { parameter: 'cmd' })
  const [name, params] = value as [unknown, unknown]
  if (typeof name !== 'string' || name.trim() === '')
    throw new AppError('INVALID_PARAMETER', `The first item of "cmd" must be the transaction name (a string); ${SHAPE}.`, { parameter: 'cmd' })
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw new AppError('INVALID_PARAMETER', `The second item of "cmd" must be an object of parameters (use {} for none); ${SHAPE}.`, { parameter: 'cmd' })
  }
  return { name: name.trim(), params: params as ParamValues }
}

/**
 * Runs a command and turns a transaction failure into an rc 1 reply; service failures throw.
 * `upload`: the request's body when it was upload rows (`Content-Type: text/csv`, Parquet or Arrow).
 */
export async function dbmReply(ctx: DbmContext, cmd: unknown, upload?: UploadBody): Promise<DbmReply> {
  try {
    const { name, params } = parseCommand(cmd)
    const value = await runTransaction(ctx, name, upload === undefined ? params : withUploadBody(name, params, upload))
    return { rc: 0, value: value ?? null }
  } catch (err) {
    if (err instanceof AppError && STATUS[err.code] < 500) return { rc: 1, msg: err.message, code: wireCode(err.code) }
    throw err
  }
}

/** The parameters that carry upload rows; a body of rows leaves them all out of cmd. */
const ROW_PARAMS = ['data', 'csv', 'parquet', 'arrow']

/**
 * upload_table's or upload_chunk's parameters with the body as the rows: its bytes as the
 * parameter named after its format (`csv`, `parquet`, `arrow`). Other transactions refuse a body.
 */
function withUploadBody(name: string, params: ParamValues, body: UploadBody): ParamValues {
  if (name !== 'upload_chunk' && name !== 'upload_table') {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Transaction "${name}" takes no ${body.uploadFormat} body; only upload_table and upload_chunk do. Send its parameters as JSON.`,
    )
  }
  const given = ROW_PARAMS.find((p) => params[p] !== undefined)
  if (given !== undefined) {
    throw new AppError('INVALID_PARAMETER', `${name} with a ${body.uploadFormat} body takes its rows from the body: leave "${given}" out of cmd.`, {
      parameter: given,
    })
  }
  return { ...params, [body.uploadFormat]: body.uploadBytes }
}

export function dbmHandler(deps: Deps) {
  return async function dbm(ctx: Context): Promise<void> {
    const route = routeOf(ctx)
    const { session, user, record } = authState(ctx)
    // Before the transaction runs: a format its reply cannot take must leave everything as it was.
    refuseExchangeFormat(route.format, 'a dbm reply')
    const body: unknown = (ctx.request as { body?: unknown }).body
    // A body of upload rows (CSV, Parquet, Arrow): the command comes in the query string.
    const reply = isUploadBody(body)
      ? await dbmReply({ deps, user, record, session, signal: clientGoneSignal(ctx) }, ctx.query.cmd, body)
      : await dbmReply({ deps, user, record, session, signal: clientGoneSignal(ctx) }, requestParams(ctx).cmd)
    send(ctx, renderValue(reply, route.format, { title: 'dbm', links: [] }))
  }
}
