/**
 * One request to a dynamic instance, in the order the reference recommends (§7.5): assign the
 * incoming variables, then run the `<do>` blocks their changes trigger, round after round while
 * variables keep changing. Pure apart from `runQuery` and `runAction`, which the gateway
 * supplies: the instance's state goes in as `current` and comes out as `vars`, for the gateway to
 * store.
 *
 * Decisions where the reference is silent:
 * - `init` dos run first, then the incoming values are assigned (a value sent with the creating
 *   request wins over an init default); their changes trigger `change(…)` dos like any other.
 * - At init every recompute (`onchange_`) do runs once in the first round, so the variables it
 *   derives hold values from the start; event `change(…)` dos do not (nothing changed yet).
 * - Within a round, the trigger set is fixed when the round starts: a do sees the changes of the
 *   previous round (or of the request), and each do fires at most once per round. Changes made
 *   during a round trigger dos in the next one.
 * - `onsame_` fires on variables the request itself set (even to the same value), not on
 *   assignments made by dos, which would otherwise re-fire a do that writes its own trigger.
 * - Action dos (`action_`) fire like the other forms on their `onchange_`/`onsame_`/`on_`
 *   trigger; one with no trigger runs once, in the first round of the creating request. Unlike
 *   recompute dos they do not all run at init: an action writes, and a "save" trigger must not
 *   save when the instance starts. The gateway performs them (`runAction`); a refused one leaves
 *   `value_` empty and is reported in `actions`, and the request goes on.
 */
import { AppError } from '../../shared/errors.js'
import type { ResultSet } from '../../shared/protocol.js'
import { cellText } from './cells.js'
import type { ActionDo, DynamicApp, DynamicDo, EventDo, RecomputeDo } from './model.js'
import { COUNT_VAR, isSystemName } from './names.js'
import { withLibraries } from './queries.js'
import { evalSetValue } from './set-value.js'
import { startingValues } from './state.js'
import { variableText } from './values.js'

/** Rounds of triggers allowed in one request before it is called a loop. */
export const MAX_TRIGGER_ROUNDS = 32

/** Runs a query (the gateway: parseQuery(xml, vars), check, run in a worker). */
export type RunQuery = (xml: string, vars: Readonly<Record<string, string>>) => Promise<ResultSet>

/** What the gateway answers for one action: the text for `value_`, or why it was refused. */
export type ActionResult = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly code: string; readonly message: string }

/** Performs an action `<do>` with the variables of the moment (the gateway: dbm, savetable). */
export type RunAction = (d: ActionDo, vars: Readonly<Record<string, string>>) => Promise<ActionResult>

/** One action that ran during a request. */
export interface ActionReport {
  readonly name: string
  readonly action: ActionDo['action']
  readonly result: ActionResult
}

export interface RequestOptions {
  /** True only for the request that creates the instance: runs the `on_="init"` dos. */
  readonly init: boolean
  readonly runQuery: RunQuery
  /** Performs action dos; without it, a request that fires one fails (nothing can run it). */
  readonly runAction?: RunAction
  /**
   * The instance number `@count`, used when `current` does not hold `count` already (it does when
   * the gateway stored initialVars(app, n)). Without either, `@count` is an unknown variable.
   */
  readonly count?: number | string
  /** Overrides MAX_TRIGGER_ROUNDS (tests). */
  readonly maxRounds?: number
}

export interface RequestOutcome {
  /** Every declared variable's value after the request, plus `count` when known: the state to store. */
  readonly vars: Record<string, string>
  /** Each declared variable whose value now differs from `current`, with its new value. */
  readonly changes: Record<string, string>
  /** The actions that ran, in order. */
  readonly actions: readonly ActionReport[]
}

/**
 * Applies one request to an instance.
 * @param current the stored variables (missing declared ones fall back to their initial values;
 *   undeclared ones are dropped)
 * @param incoming the request's parameters: those naming a declared variable set it; the rest —
 *   `fmt_`, `method_`, `range_`, anything ending in `_`, `count`, unknown names — are ignored
 * @throws AppError INVALID_PARAMETER for a value that cannot be a variable's text; CHECK_ERROR for
 *   a failing `<set>` expression or a trigger loop; whatever `runQuery` throws
 */
export async function applyRequest(
  app: DynamicApp,
  current: Readonly<Record<string, string>>,
  incoming: Readonly<Record<string, unknown>>,
  opts: RequestOptions,
): Promise<RequestOutcome> {
  const before = startingValues(app, current, opts.count)
  const vars = { ...before }
  if (opts.init) for (const d of app.dos) if (d.kind === 'event' && d.on === 'init') runSets(d, vars)
  const requested = new Set<string>()
  for (const [name, value] of Object.entries(incoming)) {
    if (!isSettable(app, name)) continue
    vars[name] = variableText(name, value)
    requested.add(name)
  }
  const actions: ActionReport[] = []
  await runRounds(app, before, vars, requested, opts, actions)
  const changes: Record<string, string> = {}
  for (const name of Object.keys(app.vars)) if (vars[name] !== before[name]) changes[name] = vars[name]
  return { vars, changes, actions }
}

function isSettable(app: DynamicApp, name: string): boolean {
  return !isSystemName(name) && name !== COUNT_VAR && Object.hasOwn(app.vars, name)
}

async function runRounds(
  app: DynamicApp,
  before: Readonly<Record<string, string>>,
  vars: Record<string, string>,
  requested: ReadonlySet<string>,
  opts: RequestOptions,
  actions: ActionReport[],
): Promise<void> {
  const maxRounds = opts.maxRounds ?? MAX_TRIGGER_ROUNDS
  let changed = changedNames(before, vars)
  let same: ReadonlySet<string> = requested
  let initRound = opts.init
  for (let round = 1; ; round++) {
    const firing = app.dos.filter((d) => fires(d, changed, same, initRound))
    if (firing.length === 0) return
    if (round > maxRounds) {
      throw new AppError('CHECK_ERROR', `trigger loop: <do> blocks still change variables after ${maxRounds} rounds (${[...changed].join(', ')})`, {
        variables: [...changed],
      })
    }
    const start = { ...vars }
    for (const d of firing) {
      if (d.kind === 'action') actions.push(await runAction(d, vars, opts))
      else await run(app, d, vars, opts)
    }
    changed = changedNames(start, vars)
    same = new Set()
    initRound = false
  }
}

function fires(d: DynamicDo, changed: ReadonlySet<string>, same: ReadonlySet<string>, initRound: boolean): d is EventDo | RecomputeDo | ActionDo {
  switch (d.kind) {
    case 'event':
      return d.on !== 'init' && d.on.change.some((v) => changed.has(v))
    case 'recompute':
      return initRound || d.onchange.some((v) => changed.has(v)) || d.onsame.some((v) => same.has(v) || changed.has(v))
    case 'action': {
      const t = d.trigger
      if (t.on === 'init' || (t.on === null && t.onchange.length + t.onsame.length === 0)) return initRound
      if (t.on !== null) return t.on.change.some((v) => changed.has(v))
      return t.onchange.some((v) => changed.has(v)) || t.onsame.some((v) => same.has(v) || changed.has(v))
    }
  }
}

/** Runs an action and writes its answer into `value_` ('' when it was refused). */
async function runAction(d: ActionDo, vars: Record<string, string>, opts: RequestOptions): Promise<ActionReport> {
  if (!opts.runAction) throw new AppError('INTERNAL', `<do action_="${d.action}"> (${d.name}) fired, but nothing here performs actions.`)
  const result = await opts.runAction(d, { ...vars })
  if (d.value !== null) vars[d.value] = result.ok ? result.value : ''
  return { name: d.name, action: d.action, result }
}

async function run(app: DynamicApp, d: EventDo | RecomputeDo, vars: Record<string, string>, opts: RequestOptions): Promise<void> {
  if (d.kind === 'event') return runSets(d, vars)
  const result = await opts.runQuery(withLibraries(app, d.query), { ...vars })
  for (const cell of d.cells) vars[cell.var] = cellText(result, cell.row, cell.col)
}

/** The sets run in order; each sees the values the ones before it assigned. */
function runSets(d: EventDo, vars: Record<string, string>): void {
  const lookup = (name: string): string | undefined => (Object.hasOwn(vars, name) ? vars[name] : undefined)
  for (const set of d.sets) vars[set.name] = evalSetValue(set, lookup)
}

function changedNames(from: Readonly<Record<string, string>>, to: Readonly<Record<string, string>>): Set<string> {
  const names = new Set<string>()
  for (const name of Object.keys(to)) if (from[name] !== to[name]) names.add(name)
  return names
}
