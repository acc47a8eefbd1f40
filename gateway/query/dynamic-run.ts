/**
 * `api/run` (and a run instance) given a dynamic query (SPEC 4.2 calls `xml` "a dynamic query";
 * reference §7.1): the query starts as an instance would — initial variables, `on_="init"` sets,
 * recompute dos — and its `index` widget is the query that runs. Nothing is kept between requests
 * but that widget's recipe, so `!cols`, `!data`… read it like any run result. Request parameters
 * do not set variables here: that is what an instance (`api/new`) is for.
 *
 * api/run is a read (the cross-site guard lets GET and foreign pages run it), so it performs no
 * action `<do>`: a query with one that would fire at start is refused, pointing to api/new.
 */
import { AppError } from '../../shared/errors.js'
import { applyRequest, findWidget, initialVars, widgetQuery, type DynamicApp } from '../../engine/index.js'
import type { Principal } from '../catalog/principal.js'
import type { QueryServices } from './deps.js'
import type { RecipeOptions } from './limits.js'
import { prepareRun, type RunRecipe } from './run.js'
import { runRecipe } from './service.js'

/** `@count` of a dynamic query run without an instance: there is no instance number to give. */
const NO_INSTANCE = 0

/** The recipe of a run query: itself, or the index widget of the dynamic query it is. */
export async function prepareRunQuery(deps: QueryServices, user: Principal, xml: string, opts: RecipeOptions = {}): Promise<RunRecipe> {
  const app = await deps.caches.queries.dynamicApp(xml)
  return app ? prepareDynamicRun(deps, user, app, opts) : prepareRun(deps, user, xml, {}, opts)
}

async function prepareDynamicRun(deps: QueryServices, user: Principal, app: DynamicApp, opts: RecipeOptions): Promise<RunRecipe> {
  const index = findWidget(app, 'index')
  const query = widgetQuery(app, 'index') ?? ''
  if (!index || index.class === 'text' || index.query.trim() === '') {
    const why = index ? `its index widget (class ${index.class}) has no query` : 'it has no widget named index'
    throw new AppError(
      'INVALID_PARAMETER',
      `api/run answers the index widget of a dynamic query, and ${why}. Name the widget whose result you want index, or create an instance with api/new to reach every widget.`,
      {
        parameter: 'xml',
      },
    )
  }
  const runQuery = async (xml: string, vars: Readonly<Record<string, string>>) => runRecipe(deps, await prepareRun(deps, user, xml, vars), { user: user.uid })
  const outcome = await applyRequest(
    app,
    initialVars(app, NO_INSTANCE),
    {},
    {
      init: true,
      runQuery,
      runAction: async (d) => {
        throw new AppError(
          'INVALID_PARAMETER',
          `api/run performs no actions, and <do action_="${d.action}"> (${d.name}) would run when the query starts. Create an instance with api/new (POST) to run it.`,
          {
            parameter: 'xml',
          },
        )
      },
    },
  )
  return prepareRun(deps, user, query, outcome.vars, opts)
}
