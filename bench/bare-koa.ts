/**
 * The reference of `npm run bench:http`: a bare Koa server answering every request with a small
 * JSON body, started as its own process (as the gateway is) so that the load generator never
 * shares its event loop. Prints `listening <port>` once ready; SIGTERM stops it at once.
 */
import http from 'node:http'
import Koa from 'koa'

const app = new Koa()
app.use((ctx) => {
  ctx.body = { hello: 'world', n: 1 }
})
const server = http.createServer(app.callback())
// The gateway's keep-alive (gateway/server.ts): a load run's idle connections must stay open on
// both, not be closed by Node's 5 s default under the reference alone.
server.keepAliveTimeout = 65_000
server.headersTimeout = 66_000
server.listen(0, '127.0.0.1', () => {
  const addr = server.address()
  process.stdout.write(`listening ${typeof addr === 'object' && addr ? addr.port : 0}\n`)
})
// Nothing to drain: a reference server may stop at once (waiting on the load generator's
// keep-alive sockets to close could hang the benchmark).
process.on('SIGTERM', () => process.exit(0))
