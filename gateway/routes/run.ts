/**
 * `api/run`: one macro-language query (a dynamic one answers its index widget); `savetable`,
 * `replace` and `title` save its result.
 */
import { AppError } from '../../shared/errors.js'
import { checkPathSegments } from '../../shared/name-limits.js'
import type { Params } from '../http/params.js'
import { stringParam } from '../http/params.js'
import type { RunRecipe } from '../query/run.js'
import { prepareRunQuery } from '../query/dynamic-run.js'
import { saveResult } from '../tables/save.js'
import { runFormPage } from './pages.js'
import type { QueryEndpoint } from './query-endpoint.js'

function replaceFlag(params: Params): boolean {
  const raw = (stringParam(params, 'replace') ?? '0').trim().toLowerCase()
  if (['1', 'true', 'yes'].includes(raw)) return true
  if (['0', 'false', 'no', ''].includes(raw)) return false
  throw new AppError('INVALID_PARAMETER', `The parameter "replace" must be 0 or 1 (got "${raw}").`, { parameter: 'replace' })
}

export const RUN_ENDPOINT: QueryEndpoint<RunRecipe> = {
  app: 'run',
  param: 'xml',
  // A dynamic query answers its index widget (query/dynamic-run.ts).
  prepare: prepareRunQuery,
  check(params, opts) {
    // A saved table must hold the whole result: a cut one would look complete to its readers.
    if (opts.truncate && (stringParam(params, 'savetable')?.trim() ?? '') !== '') {
      throw new AppError(
        'INVALID_PARAMETER',
        'The parameters "savetable" and "truncate_" do not go together: a saved table holds the whole result. Drop truncate_, or narrow the query.',
        { parameter: 'truncate_' },
      )
    }
    // Refused before the query runs, rather than after it when the result is saved.
    checkPathSegments(stringParam(params, 'savetable')?.trim() ?? '', 'savetable')
  },
  async after(deps, user, result, params) {
    const path = stringParam(params, 'savetable')?.trim() ?? ''
    if (path === '') return undefined
    const saved = await saveResult(deps, user, result, { path, mode: replaceFlag(params) ? 'replace' : 'noreplace', title: stringParam(params, 'title') })
    return { path: saved.path, rows: saved.rows }
  },
  form: (route) => runFormPage(route),
}
