/**
 * Clients that half-close: a client may send its request and then shut its side of the
 * connection for writing (a TCP FIN) while it waits for the answer. Node's HTTP server, by
 * default, answers such a FIN by closing its own side at once, so the answer is never sent and
 * the query is stopped as if the client had gone. `serveHalfClosed` keeps the write side open.
 *
 * A client that really went away sends the same FIN, so the FIN alone cannot tell the two
 * apart. `probeHalfClosed` asks the connection: while a half-closed request waits for its
 * answer, it sends `102 Processing` (an interim response every HTTP/1.1 client must accept and
 * may ignore) every PROBE_MS. A peer that is still there takes it; a peer that closed answers
 * with a reset, the next write fails, the socket closes, and the request's close handling stops
 * its query as before. HTTP/1.0 knows no interim responses: such a client is served, unprobed.
 */
import type { Server as HttpServer } from 'node:http'
import type { Server as HttpsServer } from 'node:https'
import type { Context } from 'koa'

const PROBE_MS = 250

/** Responses already probed: a request may ask for its client-gone signal more than once. */
const probed = new WeakSet<object>()

/** Lets the server answer requests whose client half-closed the connection. */
export function serveHalfClosed(server: HttpServer | HttpsServer): void {
  // Missing from Node's typings, but a plain field of http.Server that its socket 'end' handler
  // reads: false (the default, set in the constructor) makes it end our side at the client's FIN.
  ;(server as HttpServer & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true
}

/** From the client's FIN until the answer starts, checks every PROBE_MS that the client is still there. */
export function probeHalfClosed(ctx: Context): void {
  const { req, res } = ctx
  const socket = req.socket
  if ((req.httpVersionMajor === 1 && req.httpVersionMinor === 0) || probed.has(res)) return
  probed.add(res)
  let timer: NodeJS.Timeout | null = null
  const stop = (): void => {
    if (timer !== null) clearInterval(timer)
    timer = null
    socket.off('end', start)
  }
  function start(): void {
    if (timer !== null) return
    timer = setInterval(() => {
      if (res.headersSent || res.writableEnded || socket.destroyed) stop()
      else res.writeProcessing()
    }, PROBE_MS)
    timer.unref()
  }
  res.once('close', stop)
  if (socket.readableEnded) start()
  else socket.once('end', start)
}
