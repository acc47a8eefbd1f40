/** The sql.js module, compiled once per thread on first use (the WebAssembly compile is slow). */
import initSqlJs from 'sql.js'
import type { SqlJsStatic } from 'sql.js'

let loading: Promise<SqlJsStatic> | undefined

/** The initialised sql.js module; the first call compiles it, later calls share that. */
export function sqlJs(): Promise<SqlJsStatic> {
  if (loading === undefined) {
    loading = initSqlJs().catch((e: unknown) => {
      // Do not cache a failure: the next caller tries again.
      loading = undefined
      throw e
    })
  }
  return loading
}
