/**
 * The answer of a query whose result was saved (`savetable`) but cannot be sent back: rendering a
 * result of hundreds of megabytes can fail (a JavaScript string has a maximum length). The table
 * is committed by then, so the answer must not say the request failed: it says what was saved
 * and where to read the rows. The cause goes to the log.
 */
import type { Context } from 'koa'
import type { Deps } from '../deps.js'
import type { Rendered } from '../format/index.js'

/** What a save committed. */
export interface SavedTable {
  readonly path: string
  readonly rows: number
}

/**
 * The answer that says what was saved, for a rendering that failed (`err`, logged): whether it
 * failed at once or, streamed, before its first chunk (respond.ts send's `instead`).
 */
export function savedOnlyAnswer(ctx: Context, deps: Deps, saved: SavedTable, err: unknown): Rendered & { readonly body: string } {
  deps.log({
    level: 'warn',
    requestId: ctx.state.requestId,
    msg: 'savetable: the table was saved, but its result could not be rendered',
    table: saved.path,
    err: String((err as Error)?.message ?? err),
  })
  return {
    type: 'application/json; charset=utf-8',
    body: JSON.stringify({
      saved: { path: saved.path, rows: saved.rows },
      message: `The result was saved as the table "${saved.path}" (${saved.rows} rows), but it is too large to send back in this answer; read it from that table, or in ranges with !data.`,
    }),
  }
}
