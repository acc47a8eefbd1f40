/**
 * The shape of a dbm transaction: a name, a parameter schema, who may call it, and a handler.
 * Every transaction is declared once, in one of the catalogue files (folders.ts, tables.ts, …),
 * with defineTransaction (define.ts), and index.ts assembles them. The schema (schema.ts) is
 * what `list_transactions` shows a client, what params.ts checks the parameters against before
 * the handler runs, and the type of the handler's parameters. Which parameters must be given,
 * and of what type, is declared there only and checked in one place: handlers never check it.
 */
import type { SessionRecord } from '../auth/session-record.js'
import type { Principal } from '../catalog/principal.js'
import type { UserRecord } from '../catalog/records.js'
import type { Deps } from '../deps.js'
import type { ParamSchema, ParamsOf } from './schema.js'

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

/** What every transaction has, declared or assembled. */
interface TransactionInfo {
  readonly name: string
  readonly summary: string
  /** Who may call it, in words (shown by list_transactions; the handler enforces it). */
  readonly requires: string
}

/** A transaction as its catalogue file declares it: the handler's parameters are typed by `params`. */
export interface TransactionDef<P extends ParamSchema> extends TransactionInfo {
  readonly params: P
  /**
   * Groups of parameters of which one must be given, such as the rows of an upload (data or
   * csv). Checked with the required ones, before the handler runs; empty when there are none.
   */
  readonly oneOf?: readonly (readonly NoInfer<keyof P & string>[])[]
  /** Returns the reply's `value`; throws AppError for an `rc` 1 reply. Gets checked parameters only. */
  readonly handler: (ctx: DbmContext, params: ParamsOf<P>) => Promise<unknown>
}

/** A declared transaction as the catalogue holds it, whatever its parameters. */
export interface Transaction extends TransactionInfo {
  readonly params: ParamSchema
  readonly oneOf?: readonly (readonly string[])[]
  /** Checks `raw` against `params` (params.ts), then runs the handler with what the check made. */
  readonly run: (ctx: DbmContext, raw: ParamValues) => Promise<unknown>
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
