/**
 * The record of one chunked upload in the Store: its shape, its key, and reading and writing it
 * for the user whose upload it is.
 *
 * The state of an upload (its target, columns, rows so far and how many bytes of each column file
 * belong to applied chunks) lives in the Store under `upload:<id>`, expiring after SESSION_TTL
 * unused, and its files under DATA_DIR/chunked-uploads/<id> (engine/storage/chunked.ts). So any
 * gateway sharing the Store and DATA_DIR takes the next chunk.
 */
import type { ChunkColumnState } from '../../../engine/index.js'
import { AppError } from '../../../shared/errors.js'
import type { Store } from '../../../shared/store/types.js'
import { parseRecord } from '../../catalog/records.js'
import type { DbmContext } from '../registry.js'

export type Mode = 'noreplace' | 'replace' | 'append'

export interface ColumnState extends ChunkColumnState {
  readonly name: string
  /** True when `cols` gave the type (or the table appended to has it): never inferred. */
  readonly declared: boolean
  readonly label?: string
  readonly format?: string
  readonly desc?: string
  readonly width?: number
  readonly fixed?: boolean
}

/** What the Store holds for one upload. */
export interface UploadState {
  readonly id: string
  readonly uid: string
  readonly path: string
  readonly mode: Mode
  readonly title?: string
  readonly sdesc?: string
  readonly ldesc?: string
  readonly users?: string[]
  readonly inherit?: boolean
  /** Null until the first chunk names the columns (when begin had no cols). */
  readonly columns: ColumnState[] | null
  readonly rows: number
  readonly chunks: number
  readonly created: string
}

export const stateKey = (id: string): string => `upload:${id}`

export const UPLOAD_PARAM = { type: 'string', required: true, doc: 'The upload id that upload_begin answered.' } as const

/** What the state helpers use of a request: the Store, how long an unused upload lives, and whose uploads they are. */
export interface UploadAccess {
  readonly store: Store
  readonly sessionTtl: number
  readonly uid: string
}

export const accessOf = (ctx: DbmContext): UploadAccess => ({ store: ctx.deps.store, sessionTtl: ctx.deps.config.sessionTtl, uid: ctx.user.uid })

export async function readState({ store, sessionTtl, uid }: UploadAccess, id: string): Promise<UploadState> {
  const state = parseRecord<UploadState>(await store.get(stateKey(id)))
  // Another user's upload is reported exactly like a missing one.
  if (!state || state.uid !== uid) {
    throw new AppError(
      'NOT_FOUND',
      `No such upload "${id}": it was committed, aborted, or expired after ${sessionTtl} seconds without a chunk; begin a new one with upload_begin.`,
      { upload: id },
    )
  }
  return state
}

export function writeState({ store, sessionTtl }: UploadAccess, state: UploadState): Promise<boolean> {
  return store.set(stateKey(state.id), JSON.stringify(state), { ttl: sessionTtl })
}
