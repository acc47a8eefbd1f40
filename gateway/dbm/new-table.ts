/**
 * What the transactions that make a table (save_table, upload_table, upload_begin) share: the
 * parameters that say where it goes and what the catalog says of it, where a bare name goes, and
 * the catalog fields as they are saved.
 */
import type { Store } from '../../shared/store/types.js'
import { checkPrincipalNames, inheritanceOf } from './common.js'
import type { ParamSpec, ParamsOf } from './schema.js'

/** Where the table goes (each transaction checks the path in its own words). */
export const TARGET_PATH = {
  type: 'path',
  required: true,
  doc: 'Where to save: a dotted table path, or a bare name for your folder uploads.<uid>.',
} as const satisfies ParamSpec

/** What an upload does with a table already there. */
export const UPLOAD_MODE = {
  type: 'string',
  values: ['noreplace', 'replace', 'append'],
  doc: 'noreplace (default): an existing table is an error; replace it; or append the rows to it.',
} as const satisfies ParamSpec

/** Catalog fields the transactions that make a table take. */
export const TABLE_FIELDS = {
  title: { type: 'string', doc: 'Title of the table (default: its name; kept when replacing).' },
  sdesc: { type: 'string', doc: 'Short description.' },
  ldesc: { type: 'string', doc: 'Long description.' },
  users: { type: 'names', doc: 'Who may read the table: users, groups, or * for everyone. Giving users turns inherit off unless inherit is given.' },
  inherit: { type: 'boolean', doc: 'True: whoever may read the folder may read the table too, besides those users names (the default for a new table).' },
} as const satisfies Readonly<Record<string, ParamSpec>>

export type TableFields = ParamsOf<typeof TABLE_FIELDS>

/** The path a table name stands for: a bare name (no dot) goes to the user's folder uploads.<uid>. */
export function inHomeFolder(uid: string, name: string): string {
  return name.includes('.') ? name : `uploads.${uid}.${name}`
}

/** The catalog fields as given, with the reader list checked (every name must exist). */
export async function checkedTableFields(store: Store, p: TableFields): Promise<TableFields> {
  const users = p.users
  if (users) await checkPrincipalNames(store, users, 'users')
  return {
    title: p.title,
    sdesc: p.sdesc,
    ldesc: p.ldesc,
    users,
    inherit: inheritanceOf(users, p.inherit),
  }
}

/**
 * Rows as a Parquet file or an Arrow IPC stream (or file): binary, so either the request body
 * itself (Content-Type application/vnd.apache.parquet or application/vnd.apache.arrow.stream,
 * cmd in the query string) or base64 text inside JSON or a form. Types come from the file.
 */
export const BINARY_ROW_PARAMS = {
  parquet: {
    type: 'any',
    doc: 'The rows as a Parquet file: base64 text, or the request body (Content-Type: application/vnd.apache.parquet) with cmd in the query string. Column types come from the file.',
  },
  arrow: {
    type: 'any',
    doc: 'The rows as an Arrow IPC stream or file: base64 text, or the request body (Content-Type: application/vnd.apache.arrow.stream) with cmd in the query string. Column types come from the file.',
  },
} as const satisfies Readonly<Record<string, ParamSpec>>
