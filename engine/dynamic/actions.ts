/**
 * What an action `<do>` asks the gateway to do, read from its attributes with the variables of
 * the moment (`{@var}` substituted). The engine only reads; the gateway performs the action with
 * the instance owner's rights and hands back the text for `value_`.
 */
import type { VarLookup } from '../blocks/index.js'
import { substitute } from '../blocks/substitute.js'
import { dynamicError } from './errors.js'
import type { ActionDo, DynamicApp } from './model.js'
import { readPackage } from './package.js'
import { withLibraries } from './queries.js'

/** `<do action_="dbm">`: the transaction and its parameters, as api/dbm's `cmd` pair. */
export interface DbmAction {
  readonly kind: 'dbm'
  readonly trans: string
  readonly params: Record<string, unknown>
}

/**
 * `<do action_="savetable">`: the query (libraries in front, to run with the variables) and where
 * to save it. `path` may name a folder (then the table gets a generated name there); without
 * `path`, `folder` (default: the owner's uploads folder) and `tablename` (default: generated).
 */
export interface SaveAction {
  readonly kind: 'savetable'
  readonly query: string
  readonly path: string | null
  readonly folder: string | null
  readonly tablename: string | null
  readonly mode: 'noreplace' | 'replace' | 'append'
  readonly title?: string
  readonly sdesc?: string
  readonly ldesc?: string
  readonly users?: readonly string[]
  readonly inherit?: boolean
}

export type ActionRequest = DbmAction | SaveAction

/**
 * Reads an action `<do>` over the current variables.
 * @throws AppError CHECK_ERROR positioned at the `<do>` for attributes that do not go together or
 *   are not supported (`temp_`, `owner_`), a bad 0/1 flag or an unreadable `data_`
 */
export function actionRequest(app: DynamicApp, d: ActionDo, vars: Readonly<Record<string, string>>): ActionRequest {
  const lookup: VarLookup = (name) => (Object.hasOwn(vars, name) ? vars[name] : undefined)
  const attr = (name: string): string | undefined => {
    const raw = d.attrs[name]
    return raw === undefined ? undefined : substitute(raw, lookup, { loc: d.loc, what: `<do ${name}>`, trail: null }).trim()
  }
  if (d.action === 'dbm') return { kind: 'dbm', trans: attr('trans_') ?? '', params: readPackage(d.attrs.data_ ?? '', lookup, d.loc) }
  const flag = (name: string): boolean => {
    const v = attr(name) ?? ''
    if (v === '' || v === '0') return false
    if (v === '1') return true
    throw dynamicError(d.loc, `${name}="${v}" of <do action_="savetable"> must be 0 or 1`)
  }
  if (flag('temp_'))
    throw dynamicError(
      d.loc,
      'temp_="1" of <do action_="savetable"> is not supported: every saved table is permanent here; save it and drop it with dbm drop_table',
    )
  if ((attr('owner_') ?? '') !== '')
    throw dynamicError(
      d.loc,
      'owner_ of <do action_="savetable"> is not supported: a saved table belongs to the instance\'s owner; hand it over with dbm set_table_info',
    )
  const path = nonEmpty(attr('path_'))
  const folder = nonEmpty(attr('folder_'))
  const tablename = nonEmpty(attr('tablename_'))
  if (path !== null && (folder !== null || tablename !== null))
    throw dynamicError(d.loc, '<do action_="savetable"> has path_ and folder_/tablename_: give path_, or folder_ and tablename_')
  const replace = flag('replace_')
  const append = flag('append_')
  if (replace && append) throw dynamicError(d.loc, '<do action_="savetable"> has replace_="1" and append_="1": choose one')
  const users = attr('users_')
  return {
    kind: 'savetable',
    query: withLibraries(app, d.query),
    path,
    folder,
    tablename,
    mode: replace ? 'replace' : append ? 'append' : 'noreplace',
    ...optional('title', attr('title_')),
    ...optional('sdesc', attr('sdesc_')),
    ...optional('ldesc', attr('ldesc_')),
    ...(users === undefined ? {} : { users: users.split(/[\s,]+/).filter((u) => u !== '') }),
    ...(d.attrs.inherit_ === undefined ? {} : { inherit: flag('inherit_') }),
  }
}

function nonEmpty(v: string | undefined): string | null {
  return v === undefined || v === '' ? null : v
}

function optional<K extends string>(key: K, v: string | undefined): Partial<Record<K, string>> {
  return v === undefined ? {} : ({ [key]: v } as Record<K, string>)
}

/** The text an action's answer gives its `value_` variable: text as is, anything else as JSON. */
export function actionValueText(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'boolean') return value ? '1' : '0'
  if (typeof value === 'number') return String(value)
  return JSON.stringify(value)
}
