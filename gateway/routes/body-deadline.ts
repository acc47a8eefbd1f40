/**
 * BODY_TIMEOUT_MS: how long a request may take to send its body. Without it a client that sends
 * headers and then its body a byte at a time (or never) holds a connection and a reader until
 * Node's own requestTimeout (300 s, checked every 30 s). Past the deadline the request is
 * answered 408 with `Connection: close`, so the connection goes with the answer. The deadline
 * covers only the body: once it is read, the request's query may run for as long as its own
 * time limit allows.
 */
import type { Context, Next } from 'koa'
import { AppError } from '../../shared/errors.js'

/**
 * What a late body is told. With a Content-Length, a client may have sent its whole body and be
 * waiting for an answer because it declared more bytes than it sent (counting characters, say,
 * where UTF-8 has fewer bytes): nothing but this deadline can tell it so.
 */
function lateBodyMessage(ctx: Context, timeoutMs: number): string {
  const declared = ctx.req.headers['content-length']
  const late = `The request body did not arrive within ${timeoutMs} ms (BODY_TIMEOUT_MS)`
  if (declared === undefined) return `${late}; send the whole body at once, right after the headers.`
  return (
    `${late}: fewer bytes came than the ${declared} its Content-Length declares. Send the whole body at once, right after the headers, ` +
    'with a Content-Length that counts the bytes of the body as sent (UTF-8), not its characters.'
  )
}

/**
 * Runs `read` (a body reader that calls its `proceed` argument once the body is in) under the
 * deadline. A reader that finishes in time goes on to `next` as usual; one that does not is
 * abandoned: the request fails with 408 and whatever the reader does later is ignored.
 */
export function withinBodyDeadline(ctx: Context, timeoutMs: number, read: (proceed: Next) => Promise<void>, next: Next): Promise<void> {
  // Nothing left to wait for (no body, or already received): no timer at all.
  if (ctx.req.complete) return read(next)
  return new Promise<void>((resolve, reject) => {
    let state: 'reading' | 'late' | 'read' = 'reading'
    const timer = setTimeout(() => {
      if (state !== 'reading') return
      state = 'late'
      // The rest of the body may still be on its way: the connection cannot serve another request.
      ctx.set('Connection', 'close')
      reject(new AppError('BODY_TIMEOUT', lateBodyMessage(ctx, timeoutMs), { timeoutMs }))
    }, timeoutMs)
    const proceed: Next = () => {
      if (state === 'late') return Promise.resolve()
      state = 'read'
      clearTimeout(timer)
      return next()
    }
    read(proceed).then(resolve, (err: unknown) => {
      clearTimeout(timer)
      // After the 408 the reader fails too (the connection closes under it): nobody is waiting.
      if (state !== 'late') reject(err)
    })
  })
}
