/**
 * Declaring a transaction: its schema, once, gives both the check of a request's parameters
 * (params.ts) and the type of its handler's parameters (schema.ts's ParamsOf), so neither can
 * drift from the other and a handler needs no casts.
 */
import { validateParams } from './params.js'
import type { Transaction, TransactionDef } from './registry.js'
import type { ParamSchema } from './schema.js'

/**
 * `const`: the schema keeps its literal types (type 'name', required true, the allowed values)
 * so that ParamsOf can read them; a spec shared between transactions needs `as const` likewise.
 */
export function defineTransaction<const P extends ParamSchema>(def: TransactionDef<P>): Transaction {
  const { handler, ...info } = def
  return { ...info, run: (ctx, raw) => handler(ctx, validateParams(def, raw)) }
}
