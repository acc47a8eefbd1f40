/**
 * The shape of a dbm transaction: a name, a parameter schema, who may call it, and a handler.
 * Every transaction is declared once, in one of the catalogue files (folders.ts, tables.ts, …),
 * and index.ts assembles them; the schema validates the parameters before the handler runs and
 * is what `list_transactions` shows a client. Which parameters must be given is declared here
 * only (`required`, `oneOf`) and checked in one place (params.ts): handlers never check it.
 */
import type { SessionRecord } from '../auth/sessions.js'
import type { Principal } from '../catalog/principal.js'
import type { UserRecord } from '../catalog/records.js'
import type { Deps } from '../deps.js'

/**
 * Parameter types, after normalisation:
 * - string: text (numbers are turned into text);
 * - path: a dotted object path, trimmed and lower-cased (validated by the handler: some take '');
 * - name: one identifier (uid, group, company or role), trimmed and lower-cased;
 * - names: a list of identifiers (or '*'), from a JSON array or a space/comma-separated string;
 * - boolean: true/false, 1/0, "1"/"0", "true"/"false", "yes"/"no";
 * - integer: a whole number, from a number or numeric text;
 * - object, array: JSON values of that kind;
 * - any: any JSON value.
 */
export type ParamType = 'string' | 'path' | 'name' | 'names' | 'boolean' | 'integer' | 'object' | 'array' | 'any'

export interface ParamSpec {
  readonly type: ParamType
  readonly required?: boolean
  /**
   * With `required`: '' counts as given (get_names_in_dir's path '' is the root), so only a
   * parameter left out (or null) is missing. Without it '' is as missing as no value at all.
   */
  readonly emptyMeansRoot?: boolean
  /** The allowed values (string parameters). */
  readonly values?: readonly string[]
  /** What the parameter means, for list_transactions. */
  readonly doc: string
}

export type ParamValues = Readonly<Record<string, unknown>>

/** What a handler gets besides its parameters. */
export interface DbmContext {
  readonly deps: Deps
  /** The caller, with groups and capabilities. */
  readonly user: Principal
  /** The caller's own catalog record. */
  readonly record: UserRecord
  readonly session: SessionRecord
  /** Aborted when the client goes away (long transactions such as save_table stop then). */
  readonly signal: AbortSignal
}

export interface Transaction {
  readonly name: string
  readonly summary: string
  /** Who may call it, in words (shown by list_transactions; the handler enforces it). */
  readonly requires: string
  readonly params: Readonly<Record<string, ParamSpec>>
  /**
   * Groups of parameters of which one must be given, such as the rows of an upload (data or
   * csv). Checked with the required ones, before the handler runs; empty when there are none.
   */
  readonly oneOf?: readonly (readonly string[])[]
  /** Returns the reply's `value`; throws AppError for an `rc` 1 reply. */
  readonly handler: (ctx: DbmContext, params: ParamValues) => Promise<unknown>
}

/** An XML-API name for a transaction, with its parameter names mapped to ours. */
export interface Alias {
  readonly name: string
  readonly target: string
  /** XML element name → our parameter name (for example name → path). */
  readonly rename?: Readonly<Record<string, string>>
  /** Parameters the XML form implies (for example dropdir deletes recursively). */
  readonly defaults?: ParamValues
}
