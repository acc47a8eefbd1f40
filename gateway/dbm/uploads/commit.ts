/**
 * `upload_commit`: saves an upload's rows as the table. The commit writes a normal immutable
 * version and switches the catalog to it in one atomic step, exactly like upload_table, with the
 * permissions checked again and a lost race retried.
 */
import { appendNa, discardUnapplied, removeTableVersion, uploadDir, writeChunkedVersion } from '../../../engine/index.js'
import { AppError } from '../../../shared/errors.js'
import type { ColumnSpec } from '../../../shared/table.js'
import type { Principal } from '../../catalog/principal.js'
import { inTurn, keptChanging, raceBackoff } from '../../catalog/races.js'
import type { TableRecord } from '../../catalog/records.js'
import { commitTable, lostCommitRace } from '../../catalog/tables.js'
import { isOutcomeUnknown } from '../../catalog/txn.js'
import { checkSameColumns } from '../../tables/append.js'
import { tableView } from '../common.js'
import { defineTransaction } from '../define.js'
import type { DbmContext } from '../registry.js'
import { forgetUpload } from './cleanup.js'
import { COMMIT_LOCK_SECONDS, withLockedUpload } from './lock.js'
import { checkOwner, checkTarget } from './permissions.js'
import { accessOf, stateKey, UPLOAD_PARAM, type UploadState } from './state.js'

const COMMIT_ATTEMPTS = 8

export const UPLOAD_COMMIT = defineTransaction({
  name: 'upload_commit',
  summary: 'Saves the rows of an upload as the table, in one atomic step as upload_table does; answers the table.',
  requires: 'write permission in the folder; ownership of the table to replace or append to it (checked again now)',
  params: { upload: UPLOAD_PARAM },
  async handler(ctx, p) {
    const id = p.upload
    const { store, config } = ctx.deps
    return withLockedUpload(accessOf(ctx), id, COMMIT_LOCK_SECONDS, ctx.signal, async (state, held) => {
      // A large commit (copying and renumbering millions of rows) takes a while: keep the lock and the
      // upload alive meanwhile.
      const keepAlive = setInterval(() => {
        void held.refresh().catch(() => undefined)
        void store.expire(stateKey(id), config.sessionTtl).catch(() => undefined)
      }, 10_000)
      try {
        // Appends to one table take turns on this gateway (see catalog/races.ts).
        const saved = await (state.mode === 'append' ? inTurn(state.path, () => commitUpload(ctx, state)) : commitUpload(ctx, state))
        await forgetUpload(store, config.dataDir, id)
        return tableView(saved, { cols: true })
      } finally {
        clearInterval(keepAlive)
      }
    })
  },
})

async function commitUpload(ctx: DbmContext, state: UploadState): Promise<TableRecord> {
  if (!state.columns) {
    throw new AppError(
      'INVALID_PARAMETER',
      `Upload "${state.id}" has no columns: send at least one chunk (or declare "cols" in upload_begin) before committing.`,
      { upload: state.id },
    )
  }
  const columns = state.columns
  // A column that never had a value is text, as upload_table infers it.
  const specs: ColumnSpec[] = columns.map((c) => ({
    name: c.name,
    type: c.type ?? 'text',
    ...(c.label !== undefined && { label: c.label }),
    ...(c.format !== undefined && { format: c.format }),
    ...(c.desc !== undefined && { desc: c.desc }),
    ...(c.width !== undefined && { width: c.width }),
    ...(c.fixed && { fixed: true }),
  }))
  const dir = uploadDir(ctx.deps.config.dataDir, state.id)
  await discardUnapplied(dir, columns)
  const states = await Promise.all(columns.map((c, i) => (c.type === null ? appendNa(dir, state.id, i, { ...c, type: 'text' }, state.rows) : c)))
  const owner: Principal = ctx.user
  for (let attempt = 1; ; attempt++) {
    const existing = await checkTarget(ctx, state.path, state.mode)
    const base = state.mode === 'append' && existing ? existing : null
    if (base) checkSameColumns(state.path, base.columns, specs)
    const meta = await writeChunkedVersion(
      ctx.deps.config.dataDir,
      { dir, rows: state.rows, columns: specs, states },
      base ? { meta: await ctx.deps.tables.meta(base.version) } : null,
      ctx.deps.config.tableSegmentRows,
    )
    try {
      const init = {
        path: state.path,
        owner: owner.uid,
        title: state.title,
        sdesc: state.sdesc,
        ldesc: state.ldesc,
        users: state.users,
        inherit: state.inherit,
      }
      // A replacement takes whatever the table became meanwhile (its owner checked again); an
      // append was built from `existing` and must find it still there.
      const opts =
        state.mode === 'replace'
          ? { replacing: (now: TableRecord | null) => void (now && checkOwner(ctx, state.path, state.mode, now)) }
          : existing
            ? { expectVersion: existing.version }
            : { mustNotExist: true }
      return await commitTable(ctx.deps.store, init, meta, opts)
    } catch (err) {
      // When the Store cannot say whether the commit landed, the version may be live: keep it.
      if (!isOutcomeUnknown(err)) await removeTableVersion(ctx.deps.config.dataDir, meta.version).catch(() => undefined)
      if (isOutcomeUnknown(err) || !lostCommitRace(err)) throw err
      if (state.mode === 'noreplace') {
        throw new AppError(
          'TABLE_EXISTS',
          `Table already exists: "${state.path}" (it was created while this upload was sent); begin a new upload with "mode": "replace", or choose another name.`,
          { table: state.path },
        )
      }
      if (attempt === COMMIT_ATTEMPTS) throw await keptChanging(ctx.deps.store, state.path, existing, 'send upload_commit again')
      await raceBackoff(attempt)
    }
  }
}
