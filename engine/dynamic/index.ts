/**
 * Dynamic queries (reference §7): a pure model of `<dynamic>` apps — parsing, the `instid_`
 * edit, the trigger rounds of one request, and what each widget runs or shows. No I/O: the
 * gateway stores the state and runs the queries.
 *
 * How the gateway uses it:
 * - `new`: `app = parseDynamic(xml)`; store `withInstanceId(xml, tag)` and the app; then
 *   `applyRequest(app, initialVars(app, tag), params, { init: true, runQuery })` and store `vars`.
 * - `api/{tag}?x=…`: `applyRequest(app, stored, params, { init: false, runQuery })` under the
 *   instance's write lock; store `vars`; answer the `index` widget (`widgetQuery` → parseQuery
 *   with `vars`) or `{ widgets: statusTable(app, changedWidgets(app, Object.keys(changes))), changes }`.
 * - `runQuery(xml, vars)` is parseQuery(xml, vars) + check + run, like any widget query;
 *   `runAction(do, vars)` performs `actionRequest(app, do, vars)` (dbm, savetable).
 */
export { parseDynamic } from './parse.js'
export type { ActionDo, ActionTrigger, DynamicApp, DynamicDo, DynamicWidget, EventDo, EventTrigger, RecomputeCell, RecomputeDo, SetStatement } from './model.js'
export { withInstanceId } from './instance-id.js'
export { toXml } from './serialize.js'
export { applyRequest, MAX_TRIGGER_ROUNDS } from './triggers.js'
export type { ActionReport, ActionResult, RequestOptions, RequestOutcome, RunAction, RunQuery } from './triggers.js'
export { actionRequest, actionValueText } from './actions.js'
export type { ActionRequest, DbmAction, SaveAction } from './actions.js'
export { initialVars } from './state.js'
export { changedWidgets, findWidget, statusTable, widgetQuery, widgetText } from './queries.js'
export type { StatusTable } from './queries.js'
export { COUNT_VAR } from './names.js'
export { variableText } from './values.js'
