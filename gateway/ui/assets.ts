/**
 * `/ui/<file>`: the workbench's compiled scripts, its stylesheet and its icon, read from the
 * folder the build writes them to and nothing else (a plain name, .js, .css or .svg, that exists
 * there). Answers carry an ETag and `Cache-Control: no-cache`: browsers revalidate, so a page
 * never runs with the scripts of an older release, and an unchanged file costs only a 304.
 */
import type { Context } from 'koa'
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { AppError } from '../../shared/errors.js'

/**
 * Where the build puts the assets: `<outDir>/ui`, beside `<outDir>/gateway` (this file runs as
 * `<outDir>/gateway/ui/assets.js`), so dist/ and a private --outDir both work.
 */
export const ASSET_DIR = new URL('../../ui/', import.meta.url)

const TYPES: Readonly<Record<string, string>> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
}

/** A file name the build makes: no folders, no dots but the extension's, nothing to escape. */
const ASSET_NAME = /^[a-z][a-z0-9-]*\.(js|css|svg)$/

interface Asset {
  readonly body: Buffer
  readonly type: string
  readonly etag: string
}

async function loadAsset(dir: URL, name: string): Promise<Asset | null> {
  const ext = name.slice(name.lastIndexOf('.') + 1)
  try {
    const body = await readFile(new URL(name, dir))
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
    return { body, type: TYPES[ext], etag }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw err
  }
}

/** Paths under this prefix are workbench assets; app.ts sends only those to `uiAssets`' answer. */
export const ASSET_PREFIX = '/ui/'

/** Answers a request for a path under ASSET_PREFIX. */
export function uiAssets(dir: URL = ASSET_DIR) {
  // Built files do not change under a running service; found ones are read once.
  const cache = new Map<string, Asset>()
  return async function answerAsset(ctx: Context): Promise<void> {
    const name = ctx.path.slice(ASSET_PREFIX.length)
    const asset = ASSET_NAME.test(name) ? (cache.get(name) ?? (await loadAsset(dir, name))) : null
    if (asset === null) throw new AppError('NOT_FOUND', `No such workbench asset "${ctx.path}".`)
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      throw new AppError('METHOD_NOT_ALLOWED', `Workbench assets take GET or HEAD, not ${ctx.method}.`, { allow: ['GET', 'HEAD'] })
    }
    cache.set(name, asset)
    ctx.status = 200
    ctx.type = asset.type
    ctx.set('Cache-Control', 'no-cache')
    ctx.set('ETag', asset.etag)
    if (ctx.fresh) {
      ctx.status = 304
      return
    }
    ctx.body = asset.body
  }
}
