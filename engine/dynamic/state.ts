/**
 * The variables an instance stores: every declared variable, plus `count`. The gateway keeps
 * them with the instance and hands them back on each request.
 */
import type { DynamicApp } from './model.js'
import { COUNT_VAR } from './names.js'

/**
 * The stored state of a new instance: the declared variables at their initial values, and
 * `count` = the instance's number. The gateway passes the tag: it is unique and never reused,
 * which is all `@count` promises (SPEC §2.1). Store this, then call applyRequest with `init: true`.
 */
export function initialVars(app: DynamicApp, count: number | string): Record<string, string> {
  return { ...app.vars, [COUNT_VAR]: String(count) }
}

/**
 * The values a request starts from: each declared variable's stored value (its initial value
 * when none is stored), `count` from the stored state or else from `count`; nothing else.
 */
export function startingValues(app: DynamicApp, current: Readonly<Record<string, string>>, count?: number | string): Record<string, string> {
  const vars: Record<string, string> = {}
  for (const [name, initial] of Object.entries(app.vars)) vars[name] = Object.hasOwn(current, name) ? String(current[name]) : initial
  if (Object.hasOwn(current, COUNT_VAR)) vars[COUNT_VAR] = String(current[COUNT_VAR])
  else if (count !== undefined) vars[COUNT_VAR] = String(count)
  return vars
}
