/**
 * The router. Routes are declared on canonical paths (see path.ts): `/api/index/login` is
 * `!login`, `/api/sql/index/cols` is `api/sql/!cols`, `api/sql!cols` or `api/sql/@index/cols`,
 * and `/api/index` is `api/index` or `api/@index` (the endpoint list, as `api`). Methods:
 * every endpoint takes POST; read endpoints take GET too; `!login` and `!logout` only POST.
 */
import Router from '@koa/router'
import type { Context, Next } from 'koa'
import { AppError } from '../../shared/errors.js'
import type { Deps } from '../deps.js'
import { requireSession } from '../auth/require-session.js'
import { dbmHandler } from './dbm.js'
import { endpointsHandler, endpointsMethodHandler } from './endpoints.js'
import { loginHandler, logoutHandler } from './login.js'
import { lsHandler } from './ls.js'
import { answerMethods, RESULT_METHODS } from './methods.js'
import { objectHandler } from './objects.js'
import { queryHandler, queryMethodHandler, type QueryEndpoint } from './query-endpoint.js'
import type { Recipe } from '../query/service.js'
import { RUN_ENDPOINT } from './run.js'
import { instanceHandler, instanceMethodHandler, newAppHandler, newQueryHandler, widgetHandler } from './instances.js'
import { SQL_ENDPOINT } from './sql.js'

type Handler = (ctx: Context, next: Next) => unknown

/** Answers 405 with an Allow header for any method the route does not take. */
function only(methods: readonly string[], handler: Handler): Handler {
  return (ctx, next) => {
    if (!methods.includes(ctx.method)) {
      throw new AppError('METHOD_NOT_ALLOWED', `This endpoint takes ${methods.join(' or ')}, not ${ctx.method}.`, { allow: methods })
    }
    return handler(ctx, next)
  }
}

/** `!methods` of an index widget whose other methods `handler` answers. */
function withMethodList(title: string, handler: Handler): Handler {
  return (ctx, next) => (ctx.params.method === 'methods' ? answerMethods(ctx, RESULT_METHODS, title) : handler(ctx, next))
}

/** Digit-only segments are instance tags; anything else names a folder or table. */
function byTag(instance: Handler, object: Handler): Handler {
  return (ctx, next) => (/^\d+$/.test(String(ctx.params.tag)) ? instance(ctx, next) : object(ctx, next))
}

const READ = ['GET', 'HEAD', 'POST'] as const
const WRITE = ['POST'] as const

export function createRouter(deps: Deps): Router {
  const router = new Router()
  const auth = requireSession(deps)
  const authed = (methods: readonly string[], handler: Handler): Handler =>
    only(methods, (ctx, next) => auth(ctx, () => Promise.resolve(handler(ctx, next)).then(() => undefined)))

  router.all('/api', authed(READ, endpointsHandler()))
  router.all('/api/index/login', only(WRITE, loginHandler(deps)))
  router.all('/api/index/logout', only(WRITE, logoutHandler(deps)))
  // 1010data's index endpoint by its name: api/index (and api/@index) is api itself.
  router.all('/api/index', authed(READ, endpointsHandler()))
  router.all('/api/index/:method', authed(READ, endpointsMethodHandler()))
  router.all('/api/index/index/:method', authed(READ, endpointsMethodHandler()))
  const mount = <R extends Recipe>(base: string, ep: QueryEndpoint<R>): void => {
    router.all(base, authed(READ, queryHandler(deps, ep)))
    router.all(`${base}/index/:method`, authed(READ, withMethodList(`${ep.app} methods`, queryMethodHandler(deps, ep))))
  }
  mount('/api/sql', SQL_ENDPOINT)
  mount('/api/sql/new', SQL_ENDPOINT)
  mount('/api/run', RUN_ENDPOINT)
  router.all('/api/dbm', authed(WRITE, dbmHandler(deps)))
  router.all('/api/new', authed(READ, newQueryHandler(deps)))
  router.all('/api/new/:app', authed(WRITE, newAppHandler(deps)))
  const ls = lsHandler(deps)
  router.all('/api/ls', authed(READ, ls))
  router.all('/api/ls/index/:method', authed(READ, ls))
  router.all('/api/ls/:path', authed(READ, ls))
  router.all('/api/ls/:path/index/:method', authed(READ, ls))
  // Declared last: any other single segment is an instance tag (digits) or a catalog path.
  const objects = objectHandler(deps)
  router.all('/api/:tag', authed(READ, byTag(instanceHandler(deps), objects)))
  router.all('/api/:tag/index/:method', authed(READ, byTag(instanceMethodHandler(deps), objects)))
  router.all('/api/:tag/:widget', authed(READ, widgetHandler(deps)))
  router.all('/api/:tag/:widget/index/:method', authed(READ, widgetHandler(deps)))
  return router
}
