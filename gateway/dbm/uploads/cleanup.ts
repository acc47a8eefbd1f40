/**
 * Removing what uploads leave behind: the state and folder of one that was committed or aborted,
 * and the folders of those abandoned (state expired, or left by a process that died), swept at
 * each upload_begin and at the gateway's start.
 */
import { removeUploadDir, sweepUploadDirs } from '../../../engine/index.js'
import type { Store } from '../../../shared/store/types.js'
import type { DbmContext } from '../registry.js'
import { stateKey } from './state.js'

/** Folders younger than this (or than SESSION_TTL) are never swept: their state may be about to be written. */
const SWEEP_GRACE_MS = 10_000

/** The end of an upload, committed or aborted: its state and its folder go. */
export async function forgetUpload(store: Store, dataDir: string, id: string): Promise<void> {
  await store.del(stateKey(id))
  await removeUploadDir(dataDir, id)
}

/** Removes the folders of uploads whose state is gone (expired, or left by a process that died). */
export function sweep(ctx: DbmContext): Promise<string[]> {
  return sweepUploads(ctx.deps.store, ctx.deps.config.dataDir, ctx.deps.config.sessionTtl)
}

function sweepUploads(store: Store, dataDir: string, sessionTtl: number): Promise<string[]> {
  const grace = Math.min(SWEEP_GRACE_MS, sessionTtl * 1000)
  return sweepUploadDirs(dataDir, async (id) => (await store.get(stateKey(id))) !== null, grace)
}

/**
 * At start, before serving: the folders of uploads that are over go at once, rather than at the
 * next upload_begin. With the embedded store that is every folder (an upload's state is not kept
 * across a restart, so none can go on); with Redis, those whose state is gone.
 */
export function removeEndedUploads(store: Store, dataDir: string, sessionTtl: number): Promise<string[]> {
  if (store.kind === 'memory') return sweepUploadDirs(dataDir, async () => false, 0)
  return sweepUploads(store, dataDir, sessionTtl)
}
