/** Writes a rendered body to the response, streaming it when the renderer produced a stream. */
import type { Context } from 'koa'
import { Readable } from 'node:stream'
import type { Rendered } from './format/index.js'

export function send(ctx: Context, rendered: Rendered, status = 200): void {
  ctx.status = status
  ctx.type = rendered.type
  ctx.body = typeof rendered.body === 'string' ? rendered.body : Readable.from(rendered.body, { objectMode: false })
}

/**
 * Links to the same resource in the other formats, for HTML pages. The default is the path as
 * the client sent it: ctx.path has been rewritten to the router's canonical form by then.
 */
export function formatLinks(ctx: Context, path: string = ctx.originalUrl.split('?')[0]): { label: string; href: string }[] {
  const base = path.replace(/:[^/]*$/, '')
  const qs = ctx.querystring ? `?${ctx.querystring}` : ''
  return [
    { label: 'text', href: `${base}:text${qs}` },
    { label: 'json', href: `${base}:json${qs}` },
    { label: 'json.rows', href: `${base}:json.rows${qs}` },
    { label: 'json.keyed', href: `${base}:json.keyed${qs}` },
  ]
}
