/**
 * `upload_begin`: checks the target and its permissions, settles the columns `cols` declares (or
 * those of the table appended to), and records a new upload with an empty folder for its files.
 */
import { randomBytes } from 'node:crypto'
import { createUploadDir, emptyColumnState } from '../../../engine/index.js'
import { checkSameColumns } from '../../tables/append.js'
import { uploadInput } from '../../ingest/upload.js'
import { defineTransaction } from '../define.js'
import { checkedTableFields, TABLE_FIELDS, TARGET_PATH, UPLOAD_MODE } from '../new-table.js'
import { sweep } from './cleanup.js'
import { checkTarget, targetPath } from './permissions.js'
import { accessOf, writeState, type ColumnState, type UploadState } from './state.js'

/** The columns `cols` declares, checked exactly as upload_table checks them. */
function declaredColumns(cols: unknown[]): ColumnState[] {
  const { columns } = uploadInput({ cols, data: [] })
  return columns.map((spec, i) => {
    // Declared in any spelling upload_table takes (int, or the letter i that !cols reports).
    const col = cols[i]
    const typed = typeof col === 'object' && col !== null && 'type' in col && col.type !== undefined
    return {
      ...emptyColumnState(typed ? spec.type : null),
      name: spec.name,
      declared: typed,
      label: spec.label,
      format: spec.format,
      desc: spec.desc,
      width: spec.width,
      fixed: spec.fixed,
    }
  })
}

export const UPLOAD_BEGIN = defineTransaction({
  name: 'upload_begin',
  summary: 'Begins an upload in chunks (upload_chunk, then upload_commit or upload_abort); answers its id.',
  requires: 'write permission in the folder; ownership of the table to replace or append to it',
  params: {
    path: TARGET_PATH,
    mode: UPLOAD_MODE,
    cols: {
      type: 'array',
      doc: 'The columns, in order: [{name, type (int, float, text or date, or the letters i, j, f, a that !cols reports), label?, format?, desc?, width?, fixed?}]. Without it the first chunk names them; without a type the values decide it.',
    },
    ...TABLE_FIELDS,
  },
  async handler(ctx, p) {
    await sweep(ctx)
    const mode = p.mode ?? 'noreplace'
    const path = targetPath(ctx.user.uid, p.path)
    const fields = await checkedTableFields(ctx.deps.store, p)
    let columns = p.cols === undefined ? null : declaredColumns(p.cols)
    const existing = await checkTarget(ctx, path, mode)
    if (mode === 'append' && existing) {
      // Appended rows take the table's columns and types.
      if (columns)
        checkSameColumns(
          path,
          existing.columns,
          columns.map((c) => ({ name: c.name, type: c.type ?? existing.columns.find((e) => e.name.toLowerCase() === c.name.toLowerCase())?.type ?? 'text' })),
        )
      columns = existing.columns.map((c) => ({ ...emptyColumnState(c.type), name: c.name, declared: true }))
    }
    const id = `u${randomBytes(12).toString('hex')}`
    const state: UploadState = {
      id,
      uid: ctx.user.uid,
      path,
      mode,
      columns,
      rows: 0,
      chunks: 0,
      created: new Date().toISOString(),
      ...fields,
    }
    // The state first: a folder without state is what the sweeper removes.
    await writeState(accessOf(ctx), state)
    await createUploadDir(ctx.deps.config.dataDir, id)
    return { upload: id, path, mode, expires_in: ctx.deps.config.sessionTtl }
  },
})
