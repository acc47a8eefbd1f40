/**
 * Requests whose body does not have the length their Content-Length declares. Node's HTTP parser
 * reads exactly Content-Length bytes as the body, so a client that declares too few (the public
 * node client counts characters, not UTF-8 bytes, so `Zürich` comes out one byte short) leaves
 * the rest to be read as the start of another request; the parser refuses those bytes, and Node's
 * default answer is a bare `400 Bad Request` with no body, which tells the client nothing. A
 * client that declares too many and then ends its side of the connection meets the same answer.
 *
 * `answerClientErrors` answers both with the service's JSON error body (`body_length_mismatch`,
 * 400) saying what was wrong, and marks the request that was being read so that its handler,
 * which has by then received a truncated body, never acts on it (`bodyLengthMismatch`). A client
 * that declares too many bytes and then waits gets the BODY_TIMEOUT_MS answer (body-deadline.ts):
 * only the end of the connection tells a short body from a slow one.
 *
 * Every other parser error is answered as Node answers it.
 */
import { randomUUID } from 'node:crypto'
import { STATUS_CODES, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http'
import type { Server as HttpsServer } from 'node:https'
import type { Duplex } from 'node:stream'
import { AppError } from '../../shared/errors.js'
import { errorBody, STATUS } from './errors.js'
import type { Logger } from '../logger.js'

/** Requests whose body was cut short or overrun: their handlers must not use what they read. */
const mismatched = new WeakSet<IncomingMessage>()

/** True when the request's body turned out not to be as long as its Content-Length (see above). */
export function bodyLengthMismatch(req: IncomingMessage): boolean {
  return mismatched.has(req)
}

/** Node's own answers to the parser errors this file does not handle (its socketOnError). */
const NODE_ANSWERS: Readonly<Record<string, string>> = {
  HPE_HEADER_OVERFLOW: 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n',
  ERR_HTTP_REQUEST_TIMEOUT: 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n',
}
const NODE_DEFAULT = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'

/** The advice every mismatch message ends with. */
const COUNT_BYTES = 'Content-Length must count the bytes of the body as sent (UTF-8), not its characters: text such as "Zürich" is longer in bytes'

/** The mismatch the parser error shows, given the request being read on the connection; null when it is another error. */
function mismatchOf(err: NodeJS.ErrnoException, req: IncomingMessage | undefined): AppError | null {
  if (!req || !/^HPE_/.test(err.code ?? '')) return null
  const declared = req.headers['content-length']
  if (declared === undefined) return null
  if (req.complete) {
    // The declared bytes were all read, and what followed them is no request: the body was longer.
    return new AppError(
      'BODY_LENGTH_MISMATCH',
      `The request body is longer than its Content-Length (${declared} bytes): the bytes after them are not a request. ${COUNT_BYTES}.`,
      { contentLength: Number(declared) },
    )
  }
  if (err.code === 'HPE_INVALID_EOF_STATE') {
    return new AppError(
      'BODY_LENGTH_MISMATCH',
      `The connection ended before the ${declared} bytes its Content-Length declares had arrived: the body is shorter. ${COUNT_BYTES}.`,
      { contentLength: Number(declared) },
    )
  }
  return null
}

/** The error as a whole HTTP response, written straight to the connection (Koa is not involved). */
function jsonAnswer(e: AppError, requestId: string): string {
  const body = JSON.stringify(errorBody(e, requestId))
  const status = STATUS[e.code]
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    `X-Request-Id: ${requestId}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ]
  return `${head.join('\r\n')}\r\n\r\n${body}`
}

/** Answers Content-Length mismatches with a JSON error; everything else as Node does. */
export function answerClientErrors(server: HttpServer | HttpsServer, log?: Logger): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // The response of the request being read on this connection (Node's own field, which its
    // default handler reads too).
    const pending = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined
    const started = pending?.headersSent === true
    const mismatch = started ? null : mismatchOf(err, pending?.req)
    const requestId = randomUUID()
    if (mismatch && pending) {
      mismatched.add(pending.req)
      log?.({
        level: 'info',
        msg: 'request body length mismatch',
        requestId,
        parserError: err.code,
        contentLength: pending.req.headers['content-length'],
        path: pending.req.url,
      })
    }
    if (socket.writable && !started) socket.write(mismatch ? jsonAnswer(mismatch, requestId) : (NODE_ANSWERS[err.code ?? ''] ?? NODE_DEFAULT))
    socket.destroy(err)
  })
}
