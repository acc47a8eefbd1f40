/**
 * One `<do>` element → DynamicDo. Three forms (reference §7.5): the event form (`on_`, with
 * `<set>` children), the classic recompute form (`onchange_`/`onsame_` with `valueN_`/`rowN_`/
 * `colN_`) and the action form (`action_`). Every variable a `<do>` names must be declared, so
 * a misspelt trigger is reported when the instance is created instead of silently never firing.
 */
import type { XmlElement } from '../ast.js'
import { dynamicError, listed } from './errors.js'
import type { ActionDo, ActionTrigger, DynamicDo, EventDo, EventTrigger, RecomputeCell, RecomputeDo, SetStatement } from './model.js'
import { COUNT_VAR } from './names.js'
import { toXml } from './serialize.js'

const CHANGE = /^\s*change\s*\(([^()]*)\)\s*$/i
const CELL_ATTR = /^(value|row|col)([0-9]+)_$/
const ACTIONS: readonly ActionDo['action'][] = ['dbm', 'savetable']

/** Attributes every action form takes: its name, its triggers and the variable it fills. */
const ACTION_COMMON = ['name', 'onchange_', 'onsame_', 'on_', 'value_']

/**
 * The attributes each action reads (the vendor's pages). Storage hints of savetable (segsize_,
 * segby_, sortseg_, sort_, index_, use_materialize_, viewmode_) are accepted and have no effect
 * here: a saved table is one immutable version; temp_ and owner_ are refused when the action runs.
 */
const ACTION_ATTRS: Readonly<Record<ActionDo['action'], readonly string[]>> = {
  dbm: [...ACTION_COMMON, 'trans_', 'data_'],
  savetable: [
    ...ACTION_COMMON,
    ...['path_', 'folder_', 'tablename_', 'replace_', 'append_', 'inherit_', 'temp_', 'users_', 'title_', 'sdesc_', 'ldesc_', 'owner_'],
    ...['segsize_', 'segby_', 'sortseg_', 'sort_', 'index_', 'use_materialize_', 'viewmode_'],
  ],
}

/**
 * Reads a `<do>`.
 * @param declared the variables declared on `<dynamic>`
 * @throws AppError CHECK_ERROR for a `<do>` without a trigger, a malformed trigger, an undeclared
 *   variable, a stray child or a bad cell position
 */
export function readDo(el: XmlElement, declared: ReadonlySet<string>, position = 1): DynamicDo {
  const a = el.attrs
  if (a.action_ !== undefined) return readAction(el, declared, position)
  const recompute = a.onchange_ !== undefined || a.onsame_ !== undefined
  if (a.on_ !== undefined && recompute) throw dynamicError(el.loc, '<do> has both on_ and onchange_/onsame_: use one form of trigger')
  if (a.on_ !== undefined) return readEvent(el, declared)
  if (recompute) return readRecompute(el, declared)
  throw dynamicError(el.loc, '<do> has no trigger: give it on_="init", on_="change(x)", onchange_="x" (with valueN_/rowN_/colN_) or action_')
}

function readEvent(el: XmlElement, declared: ReadonlySet<string>): EventDo {
  return { kind: 'event', name: el.attrs.name ?? null, on: readTrigger(el, declared), sets: readSets(el, declared), loc: el.loc }
}

function readTrigger(el: XmlElement, declared: ReadonlySet<string>): EventTrigger {
  const on = el.attrs.on_
  if (on.trim().toLowerCase() === 'init') return 'init'
  const m = CHANGE.exec(on)
  if (!m) throw dynamicError(el.loc, `on_="${on}" of <do> is not a trigger: use on_="init" or on_="change(x)" (several variables: change(x,y))`)
  return { change: variableList(m[1], el, 'on_', declared) }
}

/** `<set a="expr" b="expr"/>` children, in order; `<setv>` is the Macro Language's spelling for dynamic variables. */
function readSets(el: XmlElement, declared: ReadonlySet<string>): SetStatement[] {
  const sets: SetStatement[] = []
  for (const child of el.children) {
    if (child.kind === 'Text') throw dynamicError(child.loc, `text inside <do on_>: it may only hold <set var="expression"/> elements`)
    if (child.name === 'note') continue
    if (child.name !== 'set' && child.name !== 'setv') {
      throw dynamicError(child.loc, `<${child.name}> inside <do on_>: it may only hold <set var="expression"/> elements`)
    }
    if (child.children.some((c) => !(c.kind === 'Element' && c.name === 'note'))) {
      throw dynamicError(child.loc, `<${child.name}> inside <do on_> takes its assignments as attributes: <${child.name} y="@x+1"/>`)
    }
    const names = Object.keys(child.attrs)
    if (names.length === 0) throw dynamicError(child.loc, `<${child.name}> assigns nothing: write <${child.name} y="@x+1"/>`)
    for (const name of names) {
      checkDeclared(name, child, `<${child.name}> assigns`, declared)
      sets.push({ name, expr: child.attrs[name], loc: child.loc })
    }
  }
  return sets
}

function readRecompute(el: XmlElement, declared: ReadonlySet<string>): RecomputeDo {
  const query = toXml(el.children)
  if (query.trim() === '') throw dynamicError(el.loc, '<do onchange_> has no query to run: put the query inside the <do>')
  const onchange = variableList(el.attrs.onchange_ ?? '', el, 'onchange_', declared)
  const onsame = variableList(el.attrs.onsame_ ?? '', el, 'onsame_', declared)
  if (onchange.length + onsame.length === 0) throw dynamicError(el.loc, '<do> has no trigger: onchange_ and onsame_ name no variable')
  return {
    kind: 'recompute',
    name: el.attrs.name ?? null,
    onchange,
    onsame,
    cells: readCells(el, declared),
    query,
    loc: el.loc,
  }
}

/** `valueN_`/`rowN_`/`colN_` triples, by N; row and column default to 1. */
function readCells(el: XmlElement, declared: ReadonlySet<string>): RecomputeCell[] {
  const byN = new Map<number, { value?: string; row?: string; col?: string }>()
  for (const [attr, text] of Object.entries(el.attrs)) {
    const m = CELL_ATTR.exec(attr)
    if (!m) continue
    const n = Number(m[2])
    const entry = byN.get(n) ?? {}
    entry[m[1] as 'value' | 'row' | 'col'] = text
    byN.set(n, entry)
  }
  return [...byN.entries()]
    .sort(([a], [b]) => a - b)
    .map(([n, e]) => {
      if (e.value === undefined) throw dynamicError(el.loc, `<do> has row${n}_/col${n}_ but no value${n}_ naming the variable to fill`)
      const name = e.value.trim().replace(/^@/, '')
      checkDeclared(name, el, `value${n}_ of <do> names`, declared)
      return { var: name, row: position(e.row, `row${n}_`, el), col: position(e.col, `col${n}_`, el) }
    })
}

/** A 1-based row or column number (default 1). */
function position(text: string | undefined, attr: string, el: XmlElement): number {
  if (text === undefined || text.trim() === '') return 1
  const n = /^\s*[0-9]{1,9}\s*$/.test(text) ? Number(text) : 0
  if (n < 1) throw dynamicError(el.loc, `${attr}="${text}" of <do> must be a whole number from 1 (rows and columns count from 1)`)
  return n
}

/**
 * The action form. Its trigger is read like the other forms' (declared variables only); `value_`
 * must name a declared variable; a dbm action names its transaction; a savetable action has a
 * query to save. Attribute values may hold `{@var}`: they are read when the action runs.
 */
function readAction(el: XmlElement, declared: ReadonlySet<string>, position: number): ActionDo {
  const action = el.attrs.action_.trim().toLowerCase() as ActionDo['action']
  if (!(ACTIONS as readonly string[]).includes(action)) {
    throw dynamicError(el.loc, `action_="${el.attrs.action_}" of <do> is not supported: use ${ACTIONS.join(' or ')}`)
  }
  const attrs: Record<string, string> = {}
  for (const [key, value] of Object.entries(el.attrs)) {
    if (key === 'action_') continue
    if (!ACTION_ATTRS[action].includes(key)) {
      throw dynamicError(el.loc, `<do action_="${action}"> has no attribute ${key}: it takes ${ACTION_ATTRS[action].join(', ')}`)
    }
    attrs[key] = value
  }
  const query = toXml(el.children)
  if (action === 'dbm' && (attrs.trans_ ?? '').trim() === '')
    throw dynamicError(el.loc, '<do action_="dbm"> names no transaction: give it trans_="get_names_in_dir" (or another) and data_ with its parameters')
  if (action === 'dbm' && query.trim() !== '')
    throw dynamicError(el.loc, '<do action_="dbm"> holds a query: a dbm action takes its parameters in data_, not a body')
  if (action === 'savetable' && query.trim() === '') throw dynamicError(el.loc, '<do action_="savetable"> has no query to save: put the query inside the <do>')
  let value: string | null = null
  if (attrs.value_ !== undefined) {
    value = attrs.value_.trim().replace(/^@/, '')
    checkDeclared(value, el, 'value_ of <do> names', declared)
  }
  return { kind: 'action', action, name: attrs.name ?? `do${position}`, trigger: readActionTrigger(el, declared), value, attrs, query, loc: el.loc }
}

function readActionTrigger(el: XmlElement, declared: ReadonlySet<string>): ActionTrigger {
  const a = el.attrs
  const recompute = a.onchange_ !== undefined || a.onsame_ !== undefined
  if (a.on_ !== undefined && recompute) throw dynamicError(el.loc, '<do> has both on_ and onchange_/onsame_: use one form of trigger')
  const onchange = variableList(a.onchange_ ?? '', el, 'onchange_', declared)
  const onsame = variableList(a.onsame_ ?? '', el, 'onsame_', declared)
  if (recompute && onchange.length + onsame.length === 0) throw dynamicError(el.loc, '<do> has no trigger: onchange_ and onsame_ name no variable')
  return { onchange, onsame, on: a.on_ === undefined ? null : readTrigger(el, declared) }
}

/** `x,y`, `@x, @y` or `x y`: declared variable names, without repeats. */
function variableList(text: string, el: XmlElement, attr: string, declared: ReadonlySet<string>): string[] {
  const names = [
    ...new Set(
      text
        .split(/[\s,]+/)
        .filter((s) => s !== '')
        .map((s) => s.replace(/^@/, '')),
    ),
  ]
  if (names.length === 0 && attr === 'on_') throw dynamicError(el.loc, `on_="${el.attrs.on_}" of <do> names no variable: write change(x)`)
  for (const name of names) checkDeclared(name, el, `${attr} of <do> names`, declared)
  return names
}

function checkDeclared(name: string, el: XmlElement, what: string, declared: ReadonlySet<string>): void {
  if (declared.has(name)) return
  const why =
    name === COUNT_VAR
      ? "the reserved instance number 'count', which never changes"
      : `'${name}', which is not declared on <dynamic> (declared: ${listed([...declared])})`
  throw dynamicError(el.loc, `${what} ${why}`)
}
