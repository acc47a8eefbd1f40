/**
 * The request mix of a load run and its timing. Each connection sends requests at random times
 * (exponential gaps, so the connections together form a Poisson stream at the run's rate: an open
 * loop, as many independent users make), each for the next of the sessions it holds in turn. A
 * seeded generator makes two runs with the same options send the same requests in the same order
 * on each connection.
 */
import type { Request } from './connection.js'

/** Distinct small queries: each gateway's result memo holds them all after the warm-up. */
export const DISTINCT_QUERIES = 50

export const smallSql = (k: number): string => `select trans, store, sku, qty, sales from pub.demo.retail.item where trans = ${k + 1}`

/** A session's first request: a small query, so that its `!data` has a kept result to read. */
export function primeRequest(apiPath: string, cookie: string, k: number): Request {
  return { kind: 'api/sql', method: 'POST', path: `${apiPath}/sql:json`, cookie, body: JSON.stringify({ sql: smallSql(k % DISTINCT_QUERIES) }) }
}

/** Is the session still there: `!status` answers 200 only to a valid session (401 otherwise). */
export function checkRequest(apiPath: string, cookie: string): Request {
  return { kind: '!status', method: 'GET', path: `${apiPath}/sql/!status:json`, cookie }
}

/**
 * The steady mix: small api/sql queries 40 %, `!data` rows 0-9 of the session's kept result 35 %,
 * `!status` 25 %. Every kind authenticates its session and reads or writes Store state; none
 * waits on the engine once the memo is warm, so the run measures the path many clients load.
 */
export function mixedRequest(apiPath: string, cookie: string, random: () => number): Request {
  const x = random()
  if (x < 0.4) return primeRequest(apiPath, cookie, Math.floor(random() * DISTINCT_QUERIES))
  if (x < 0.75) return { kind: '!data', method: 'GET', path: `${apiPath}/sql/!data:json?range=0&to=10`, cookie }
  return checkRequest(apiPath, cookie)
}

/** The next gap, in ms, of a Poisson stream with `perSecond` events per second. */
export function nextGapMs(random: () => number, perSecond: number): number {
  return (-Math.log(1 - random()) / perSecond) * 1000
}
