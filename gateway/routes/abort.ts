/** An AbortSignal that fires when the client goes away before its response is finished. */
import type { Context } from 'koa'
import { AppError } from '../../shared/errors.js'

export function clientGoneSignal(ctx: Context): AbortSignal {
  const ac = new AbortController()
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) ac.abort(new AppError('STOPPED', 'The client closed the connection; the query was stopped.'))
  })
  return ac.signal
}
