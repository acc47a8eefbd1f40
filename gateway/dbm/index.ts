/**
 * The dbm catalogue: every transaction, declared in one of the files below, plus the XML-API
 * names as aliases and `list_transactions`, which describes them all. Names are kept in this one
 * table so that they can be renamed once if the real names become known.
 */
import { AppError } from '../../shared/errors.js'
import { COMPANIES_TRANSACTIONS } from './companies.js'
import { DATA_TRANSACTIONS } from './data.js'
import { FOLDERS_TRANSACTIONS } from './folders.js'
import { GROUPS_TRANSACTIONS } from './groups.js'
import { defineTransaction } from './define.js'
import type { Alias, DbmContext, ParamValues, Transaction } from './registry.js'
import { ROLES_TRANSACTIONS } from './roles.js'
import { TABLES_TRANSACTIONS } from './tables.js'
import { USERS_TRANSACTIONS } from './users.js'
import { UPLOAD_CHUNK_TRANSACTIONS } from './uploads/index.js'

/** XML API transaction names (reference §5.3), with their element names mapped to ours. */
export const ALIASES: readonly Alias[] = [
  { name: 'dir', target: 'list_dir', rename: { name: 'path' } },
  { name: 'listdir', target: 'list_dir', rename: { name: 'path' } },
  { name: 'getdir', target: 'get_dir_info', rename: { name: 'path' } },
  { name: 'putdir', target: 'set_dir_info', rename: { name: 'path' } },
  { name: 'mkdir', target: 'make_dir', rename: { name: 'path' } },
  { name: 'dropdir', target: 'drop_dir', rename: { name: 'path' }, defaults: { recursive: true } },
  { name: 'gettab', target: 'get_table_info', rename: { name: 'path' } },
  { name: 'tabinfo', target: 'get_table_info', rename: { name: 'path' }, defaults: { include: ['cols'] } },
  { name: 'puttab', target: 'set_table_info', rename: { name: 'path' } },
  { name: 'edittab', target: 'set_table_info', rename: { name: 'path' } },
  { name: 'savetable', target: 'save_table', rename: { name: 'path' } },
  { name: 'upload', target: 'upload_table', rename: { name: 'path' } },
]

const LIST_TRANSACTIONS = defineTransaction({
  name: 'list_transactions',
  summary: 'Describes every transaction: its parameters, who may call it, and its XML-API aliases.',
  requires: 'any user',
  params: {},
  handler: async () => describeCatalogue(),
})

export const TRANSACTIONS: readonly Transaction[] = [
  ...FOLDERS_TRANSACTIONS,
  ...TABLES_TRANSACTIONS,
  ...DATA_TRANSACTIONS,
  ...UPLOAD_CHUNK_TRANSACTIONS,
  ...USERS_TRANSACTIONS,
  ...GROUPS_TRANSACTIONS,
  ...COMPANIES_TRANSACTIONS,
  ...ROLES_TRANSACTIONS,
  LIST_TRANSACTIONS,
]

const BY_NAME = new Map(TRANSACTIONS.map((t) => [t.name, t]))
const ALIAS_BY_NAME = new Map(ALIASES.map((a) => [a.name, a]))

/** Column-major, like every list a dbm transaction returns. */
function describeCatalogue(): Record<string, unknown[]> {
  return {
    name: TRANSACTIONS.map((t) => t.name),
    summary: TRANSACTIONS.map((t) => t.summary),
    requires: TRANSACTIONS.map((t) => t.requires),
    aliases: TRANSACTIONS.map((t) => ALIASES.filter((a) => a.target === t.name).map((a) => a.name)),
    params: TRANSACTIONS.map((t) =>
      Object.entries(t.params).map(([name, p]) => ({
        name,
        type: p.type,
        required: p.required === true,
        doc: p.doc,
        ...(p.values ? { values: p.values } : {}),
      })),
    ),
    one_of: TRANSACTIONS.map((t) => t.oneOf ?? []),
  }
}

/** The transaction a name (or alias) denotes, with the parameters renamed to ours. */
export function resolveTransaction(name: string, raw: ParamValues): { transaction: Transaction; params: ParamValues } {
  const direct = BY_NAME.get(name)
  if (direct) return { transaction: direct, params: raw }
  const alias = ALIAS_BY_NAME.get(name)
  const target = alias && BY_NAME.get(alias.target)
  if (!alias || !target) {
    throw new AppError('UNKNOWN_TRANSACTION', `Invalid transaction type "${name}"; list_transactions lists the transactions there are.`, { transaction: name })
  }
  const params: Record<string, unknown> = { ...alias.defaults }
  for (const [k, v] of Object.entries(raw)) params[alias.rename?.[k] ?? k] = v
  return { transaction: target, params }
}

/** Validates and runs one transaction; returns its value or throws AppError. */
export async function runTransaction(ctx: DbmContext, name: string, raw: ParamValues): Promise<unknown> {
  const { transaction, params } = resolveTransaction(name, raw)
  return transaction.run(ctx, params)
}
