/**
 * Performing the action `<do>` elements of a dynamic instance (reference §7.5): `action_="dbm"`
 * runs the transaction through api/dbm's own code (dbmReply: same registry, authorization and
 * catalog transactions), `action_="savetable"` runs the query and saves it through api/run's
 * savetable code (saveResult). Both act with the rights of the instance's owner, the user of the
 * session that holds it.
 *
 * Every action writes (the reading dbm transactions too, as api/dbm counts them), so the request
 * that fires one must be one the cross-site guard would let write: a POST from no foreign page.
 * The guard decides from the path alone and calls a request that only sets variables a `change`,
 * which GET may send; whether those variables fire an action is known only here, so the rule is
 * applied again here, before anything runs. Refused this way, the whole request fails and
 * nothing it set is kept.
 *
 * An action the service refuses (no permission, table exists, bad parameters, a failing query)
 * does not fail the request: its `value_` becomes '' and the refusal is reported (dynamic.ts keeps
 * it for the widget status table).
 */
import type { Context } from 'koa'
import { AppError } from '../../shared/errors.js'
import { actionRequest, actionValueText, type ActionResult, type DynamicApp, type RunAction, type RunQuery, type SaveAction } from '../../engine/index.js'
import type { Principal } from '../catalog/principal.js'
import { KEYS } from '../catalog/records.js'
import type { Deps } from '../deps.js'
import { STATUS, wireCode } from '../http/errors.js'
import type { InstanceRecord } from '../instances/records.js'
import { saveResult } from '../tables/save.js'
import { refuseUnsafe } from '../security/csrf-guard.js'
import { authState } from '../auth/require-session.js'
import { clientGoneSignal } from './abort.js'
import { dbmReply } from './dbm.js'

/** Failures that are about the request, not the action: they fail the request as they would anywhere. */
const NOT_REFUSALS = new Set(['STOPPED', 'TOO_MANY_REQUESTS', 'LIMIT_REACHED', 'CROSS_SITE', 'METHOD_NOT_ALLOWED'])

/** The action runner for one request to `inst`, whose queries run through `runQuery`. */
export function actionRunner(ctx: Context, deps: Deps, inst: InstanceRecord, app: DynamicApp, runQuery: RunQuery): RunAction {
  const auth = authState(ctx)
  const allowed: ReadonlySet<string> = new Set(deps.config.allowedOrigins)
  return async (d, vars): Promise<ActionResult> => {
    refuseUnsafe(ctx, allowed, 'write', `This request fires <do action_="${d.action}"> (${d.name}) of instance ${inst.tag}, which writes`)
    // The session holds the instance, so its user is the owner; say so if that ever changes.
    if (auth.user.uid !== inst.uid) throw new AppError('INTERNAL', `Instance ${inst.tag} belongs to ${inst.uid}, not to the session's user.`)
    try {
      const req = actionRequest(app, d, vars)
      if (req.kind === 'dbm') {
        const reply = await dbmReply({ ...auth, deps, signal: clientGoneSignal(ctx) }, [req.trans, req.params])
        return reply.rc === 0 ? { ok: true, value: actionValueText(reply.value) } : { ok: false, code: reply.code, message: reply.msg }
      }
      const path = await targetPath(deps, auth.user, req)
      const result = await runQuery(req.query, vars)
      const saved = await saveResult(deps, auth.user, result, {
        path,
        mode: req.mode,
        title: req.title,
        sdesc: req.sdesc,
        ldesc: req.ldesc,
        users: req.users,
        inherit: req.inherit,
        pathParam: req.path !== null ? 'path_' : 'tablename_',
        replaceHint: 'give the <do> replace_="1" (or append_="1")',
      })
      return { ok: true, value: saved.path }
    } catch (err) {
      if (err instanceof AppError && STATUS[err.code] < 500 && !NOT_REFUSALS.has(err.code)) return { ok: false, code: wireCode(err.code), message: err.message }
      throw err
    }
  }
}

/**
 * Where savetable saves: `path_` (a folder there gets a table with a generated name), or
 * `folder_` (default: the owner's uploads folder) and `tablename_` (default: generated).
 */
async function targetPath(deps: Deps, user: Principal, req: SaveAction): Promise<string> {
  if (req.path !== null) {
    const path = req.path.toLowerCase()
    return (await deps.store.get(KEYS.dir(path))) !== null ? `${path}.${generatedName()}` : path
  }
  return `${req.folder ?? `uploads.${user.uid}`}.${req.tablename ?? generatedName()}`
}

/** A fresh table name: a letter, then the time and some randomness in base 36. */
function generatedName(): string {
  return `t${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 4)
    .toString(36)
    .padStart(4, '0')}`
}
