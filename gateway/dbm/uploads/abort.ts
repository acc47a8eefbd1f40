/** `upload_abort`: abandons an upload, removing its state and its files under its lock. */
import { defineTransaction } from '../define.js'
import { forgetUpload } from './cleanup.js'
import { CHUNK_LOCK_SECONDS, withLockedUpload } from './lock.js'
import { accessOf, UPLOAD_PARAM } from './state.js'

export const UPLOAD_ABORT = defineTransaction({
  name: 'upload_abort',
  summary: 'Abandons an upload: its rows are deleted and nothing is saved.',
  requires: 'the user who began the upload',
  params: { upload: UPLOAD_PARAM },
  async handler(ctx, p) {
    const id = p.upload
    return withLockedUpload(accessOf(ctx), id, CHUNK_LOCK_SECONDS, ctx.signal, async () => {
      await forgetUpload(ctx.deps.store, ctx.deps.config.dataDir, id)
      return { upload: id, aborted: true }
    })
  },
})
