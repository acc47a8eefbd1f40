/**
 * dbm transactions that write table data: `save_table` (a query's result) and `upload_table`
 * (rows sent with the request). Both go through saveTable, which checks the folder and the
 * table's owner before any data is computed or written.
 */
import { AppError } from '../../shared/errors.js'
import { checkQuerySize } from '../http/params.js'
import { acquireQuerySlot } from '../query/running/index.js'
import { prepareRun } from '../query/run.js'
import { runRecipe } from '../query/service.js'
import { resultRows, saveTable, type SaveMode, type SaveRequest } from '../tables/save.js'
import { uploadInput } from '../ingest/upload.js'
import { binaryRowsOf, withFileTypes } from '../ingest/binary-tables.js'
import type { Store } from '../../shared/store/types.js'
import { checkPath, tableView } from './common.js'
import { defineTransaction } from './define.js'
import { BINARY_ROW_PARAMS, checkedTableFields, inHomeFolder, TABLE_FIELDS, TARGET_PATH, UPLOAD_MODE, type TableFields } from './new-table.js'
import type { DbmContext, Transaction } from './registry.js'

/** What save_table and upload_table both take: where to save, and the catalog fields. */
type TableParams = TableFields & { readonly path: string }

/**
 * The save request for a transaction's parameters, with its user list checked. The path is
 * checked here so a bad name is reported as such rather than as a missing folder.
 */
async function saveRequest(store: Store, uid: string, p: TableParams, mode: SaveMode, replaceHint: string): Promise<SaveRequest> {
  const fields = await checkedTableFields(store, p)
  return { path: checkPath(inHomeFolder(uid, p.path), 'table'), mode, ...fields, replaceHint }
}

/** The query of save_table counts as one of the session's and the user's running queries (MAX_QUERIES_PER_SESSION, MAX_QUERIES_PER_USER). */
async function runInSlot<T>(ctx: DbmContext, run: () => Promise<T>): Promise<T> {
  const lease = await acquireQuerySlot(ctx.deps.store, ctx.session, {
    perSession: ctx.deps.config.maxQueriesPerSession,
    perUser: ctx.deps.config.maxQueriesPerUser,
  })
  try {
    return await run()
  } finally {
    await lease.release()
  }
}

const SAVE_TABLE = defineTransaction({
  name: 'save_table',
  summary: 'Runs a macro-language query with your permissions and saves its result as a table.',
  requires: 'write permission in the folder; ownership of the table to replace or append to it',
  params: {
    path: TARGET_PATH,
    xml: { type: 'string', required: true, doc: 'The query, as for api/run.' },
    replace: { type: 'boolean', doc: 'True: replace an existing table (default false: an existing table is an error).' },
    append: { type: 'boolean', doc: 'True: add the result after the rows of an existing table with the same columns.' },
    ...TABLE_FIELDS,
  },
  async handler(ctx, p) {
    checkQuerySize('xml', p.xml, ctx.deps.config.maxQueryBytes)
    if (p.replace && p.append)
      throw new AppError('INVALID_PARAMETER', 'Transaction "save_table": give "replace" or "append", not both.', { parameter: 'append' })
    const mode: SaveMode = p.append ? 'append' : p.replace ? 'replace' : 'noreplace'
    const req = await saveRequest(ctx.deps.store, ctx.user.uid, p, mode, 'send "replace": true to replace it or "append": true to add rows to it')
    // Parsing and checking the query first: a bad query is reported whatever the target.
    const recipe = await prepareRun(ctx.deps, ctx.user, p.xml)
    const saved = await saveTable(ctx.deps, ctx.user, req, () =>
      runInSlot(ctx, () => runRecipe(ctx.deps, recipe, { signals: [ctx.signal], user: ctx.session.uid })).then(resultRows),
    )
    return { path: saved.path, rows: saved.rows }
  },
})

const UPLOAD_TABLE = defineTransaction({
  name: 'upload_table',
  summary: 'Makes a table from rows sent with the request: JSON data, CSV text, or a Parquet file or Arrow stream.',
  requires: 'write permission in the folder; ownership of the table to replace or append to it',
  params: {
    path: TARGET_PATH,
    mode: UPLOAD_MODE,
    ...TABLE_FIELDS,
    cols: {
      type: 'array',
      doc: 'The columns, in order: [{name, type (int, float, text or date, or the letters i, j, f, a that !cols reports), label?, format?, desc?, width?, fixed?}], so !cols metadata can be sent back as it is. Without it (or without a type) types are inferred from the values.',
    },
    data: {
      type: 'any',
      doc: 'The rows: column-major {"col": [values]}, or an array of rows (arrays in column order, or objects keyed by column name). null or "" is N/A; dates as YYYY-MM-DD or yyyymmdd.',
    },
    csv: {
      type: 'any',
      doc: 'The rows as CSV text (RFC 4180) whose first line names the columns; instead of data. Or send the CSV as the request body (Content-Type: text/csv) with cmd in the query string.',
    },
    ...BINARY_ROW_PARAMS,
  },
  oneOf: [['data', 'csv', 'parquet', 'arrow']],
  async handler(ctx, p) {
    const mode = p.mode ?? 'noreplace'
    if (p.csv !== undefined && typeof p.csv !== 'string' && !(p.csv instanceof Uint8Array))
      throw new AppError('INVALID_PARAMETER', 'Transaction "upload_table": the parameter "csv" must be CSV text (a string).', { parameter: 'csv' })
    // Decoded before anything is checked or written: an unreadable file changes nothing.
    const binary = await binaryRowsOf(
      p,
      (['data', 'csv'] as const).filter((n) => p[n] !== undefined),
    )
    const req = await saveRequest(ctx.deps.store, ctx.user.uid, p, mode, 'send "mode": "replace" to replace it or "mode": "append" to add rows to it')
    const csv = p.csv instanceof Uint8Array ? Buffer.from(p.csv).toString('utf8') : (p.csv as string | undefined)
    const upload = binary ? { cols: withFileTypes(binary, p.cols), data: binary.data } : { cols: p.cols, data: p.data, csv }
    const saved = await saveTable(ctx.deps, ctx.user, req, (appendTo) => uploadInput(upload, appendTo))
    return tableView(saved, { cols: true })
  },
})

export const DATA_TRANSACTIONS: readonly Transaction[] = [SAVE_TABLE, UPLOAD_TABLE]
